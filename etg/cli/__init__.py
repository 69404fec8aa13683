"""The ``etg`` command line (SPEC §9): a thin layer over the library.

Each command parses its options, calls one library function and prints the
result; the rules, the math and the configuration checks live elsewhere.
Exit codes: 0 success, 2 invalid input (a configuration file or an option).

One module per family of commands, each adding its commands to :data:`main`:
:mod:`~etg.cli.play` (run, autoplay), :mod:`~etg.cli.ledger` (the audits),
:mod:`~etg.cli.ledger_init` (ledger init, pubkey),
:mod:`~etg.cli.figures` (paytable check, parsheet, sim), :mod:`~etg.cli.release`
(verify, smoke-test, bench), :mod:`~etg.cli.paytables` (paytable list, activate),
:mod:`~etg.cli.floor` (the linked floor's back office; :mod:`~etg.cli.floor_web` adds
its web pages), :mod:`~etg.cli.paths` and
:mod:`~etg.cli.pin`.
"""

from __future__ import annotations

from etg.cli import (
    figures,
    floor,
    floor_demo,
    floor_web,
    ledger,
    ledger_init,
    paths,
    paytables,
    play,
    release,
)
from etg.cli.pin import pin
from etg.cli.play import check_software
from etg.cli.program import main

main.add_command(pin)

__all__ = ["check_software", "figures", "floor", "floor_demo", "floor_web", "ledger",
           "ledger_init", "main", "paths", "paytables", "play", "release"]
