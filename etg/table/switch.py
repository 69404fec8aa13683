"""A paytable switch, the whole of it: the ledger's record, then ``cabinet.yaml``.

The operator menu (:meth:`etg.ui.app.App.switch_paytable`) and ``etg paytable
activate`` both switch through here, so the two can never record a switch
differently. The order is the ledger's: the switch is committed with the old
and new hashes first (SPEC §5: only between rounds, with no credits on any seat,
by an operator, logged), then the cabinet file is made to name the new file. A
stop between the two leaves ``cabinet.yaml`` naming the old paytable; the next
start then tilts, saying which to believe (:func:`etg.ledger.verify.check_paytable`),
and nothing rewrites what an operator wrote.
"""

from __future__ import annotations

import os
from pathlib import Path

from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import LoadedPaytable
from etg.table.controller import Table


def cabinet_names(loaded: LoadedPaytable, cabinet_file: Path) -> str:
    """``active_paytable`` as ``cabinet.yaml`` names ``loaded``: relative to the cabinet file."""
    return os.path.relpath(loaded.path.resolve(), cabinet_file.parent.resolve())


def switch_paytable(table: Table, loaded: LoadedPaytable, operator: str,
                    cabinet_file: Path) -> str:
    """Switch ``table`` to ``loaded`` and make ``cabinet_file`` name it; returns what it names.

    Raises :class:`etg.core.refusal.Refused` (the engine's reason: a round under
    way, credits on a seat) or :class:`etg.table.controller.TableTilted`, and then
    nothing is written anywhere.
    """
    table.switch_paytable(loaded, operator)
    relative = cabinet_names(loaded, cabinet_file)
    set_cabinet_value(cabinet_file, "active_paytable", relative)
    return relative
