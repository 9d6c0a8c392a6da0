"""Agent integrations: one module per coding agent (hook adapter, detection, what ``rtk init`` installs).

Importing this package costs nothing: ``rtk hook <agent>`` loads only its adapter,
and ``rtk init``/``rtk doctor`` load :mod:`rtk.agents.registry`.
"""
