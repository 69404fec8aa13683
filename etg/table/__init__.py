"""The table: the controller between the screen and the ledger, and what runs beside it.

- :mod:`etg.table.controller`: commands in, the engine, the commit, then events out.
- :mod:`etg.table.bookkeeper`: what an accepted command writes to the ledger.
- :mod:`etg.table.books`: what the screens read of the ledger, every read bounded.
- :mod:`etg.table.records`: what the screens put on the event log (logins, actions, PINs).
- :mod:`etg.table.timekeeper`: the countdowns that end in a command.
- :mod:`etg.table.bots`: bot seats and the dealer's routine (demo, autoplay, simulation).
- :mod:`etg.table.pin`: PINs, stored only as salted hashes.
- :mod:`etg.table.selftest`: the RNG and shoe self-test of the operator menu.
"""
