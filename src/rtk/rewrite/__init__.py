"""Command rewriting: which commands ``rtk`` can take over, and the decision for a command line.

The API the hooks and history analysis use lives in :mod:`rtk.rewrite.engine`:
``decide(line)`` -> ``Decision(rewritten, verdict, reason)`` and ``classify(command)``.
Nothing is imported here, so ``rtk rewrite`` loads only what it uses.
"""
