"""Declarative TOML filters: schema, the 8-stage engine, the three tiers, trust and inline tests.

``rtk.dsl.lookup`` is the cheap entry point (which filter handles a command);
everything else is imported only when a TOML filter actually runs or is checked.
"""
