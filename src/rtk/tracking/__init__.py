"""Savings tracking: a cheap append-only journal on the command path, SQLite for queries.

Each command appends one line to ``<db>.pending`` (``journal``). Readers
(``rtk gain`` and friends) first move pending lines into the SQLite database
(``db.ingest``). Writing a journal line costs microseconds and no ``sqlite3``
import, and a broken database can never slow down or break a command.
"""
