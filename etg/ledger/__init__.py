"""The ledger: one SQLite file with the command journal, hand ledger, meters and event log.

Nothing here imports pygame; the rules stay in :mod:`etg.core`.
"""
