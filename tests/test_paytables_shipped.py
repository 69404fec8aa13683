"""Every shipped paytable and the shipped cabinet file load, with the values the rules require."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from etg.config import Display, load_cabinet, load_paytable
from etg.core.paytable import Jurisdiction, Layout, Odds, Payouts, WarForm

CONFIG = Path(__file__).resolve().parent.parent / "config"
PAYTABLES = CONFIG / "paytables"

MD_PAYOUTS = Payouts(initial=Odds(1, 1), tie=Odds(10, 1), war=Odds(1, 1), war_tie=Odds(2, 1))

# file name -> the values that file must have (MD Ch. 10 A, 58 Pa. Code § 651a.10, PA 2011
# proposal § 651a.10, S.D. Admin. R. 20:18:16:15.17(5)).
SHIPPED: dict[str, dict[str, Any]] = {
    "maryland-community-3.yaml": dict(
        id="md-community-3", jurisdiction=Jurisdiction.MARYLAND, layout=Layout.COMMUNITY,
        decks=6, spots=3, seats=6, max_spots_per_seat=2, war_form=WarForm.INITIAL_PUSHED,
        payouts=MD_PAYOUTS, war_tie_wager=True),
    "maryland-community-5.yaml": dict(
        id="md-community-5", jurisdiction=Jurisdiction.MARYLAND, layout=Layout.COMMUNITY,
        decks=6, spots=5, seats=6, max_spots_per_seat=3, war_form=WarForm.INITIAL_PUSHED,
        payouts=MD_PAYOUTS, war_tie_wager=True),
    "maryland-community-7.yaml": dict(
        id="md-community-7", jurisdiction=Jurisdiction.MARYLAND, layout=Layout.COMMUNITY,
        decks=6, spots=7, seats=9, max_spots_per_seat=3, war_form=WarForm.INITIAL_PUSHED,
        payouts=MD_PAYOUTS, war_tie_wager=True),
    "maryland-community-7-8deck.yaml": dict(
        id="md-community-7-8d", jurisdiction=Jurisdiction.MARYLAND, layout=Layout.COMMUNITY,
        decks=8, spots=7, seats=9, max_spots_per_seat=3, war_form=WarForm.INITIAL_PUSHED,
        payouts=MD_PAYOUTS, war_tie_wager=True),
    "pennsylvania.yaml": dict(
        id="pa-2012", jurisdiction=Jurisdiction.PENNSYLVANIA, layout=Layout.PER_SEAT,
        decks=6, spots=9, seats=9, max_spots_per_seat=1, war_form=WarForm.INITIAL_PUSHED,
        payouts=MD_PAYOUTS, war_tie_wager=True),
    "pennsylvania-2011.yaml": dict(
        id="pa-2011", jurisdiction=Jurisdiction.PENNSYLVANIA_2011, layout=Layout.PER_SEAT,
        decks=8, spots=7, seats=7, max_spots_per_seat=1, war_form=WarForm.INITIAL_FORFEITED,
        payouts=Payouts(Odds(1, 1), Odds(10, 1), Odds(2, 1), Odds(3, 1)), war_tie_wager=True),
    "south-dakota.yaml": dict(
        id="sd", jurisdiction=Jurisdiction.SOUTH_DAKOTA, layout=Layout.PER_SEAT,
        decks=6, spots=7, seats=7, max_spots_per_seat=1, war_form=WarForm.DEALER_MATCHED,
        payouts=Payouts(Odds(1, 1), Odds(10, 1), Odds(1, 2), Odds(1, 1)), war_tie_wager=False),
}


def test_the_shipped_set_is_the_tested_set() -> None:
    assert {path.name for path in PAYTABLES.glob("*.yaml")} == set(SHIPPED)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_paytable_loads_with_its_values(name: str) -> None:
    want = SHIPPED[name]
    loaded = load_paytable(PAYTABLES / name)
    p = loaded.paytable
    assert p.id == want["id"]
    assert p.jurisdiction is want["jurisdiction"]
    assert p.layout is want["layout"]
    assert p.shoe.decks == want["decks"]
    assert p.shoe.penetration_min == 0.25
    assert (p.spots, p.seats, p.max_spots_per_seat) == (
        want["spots"], want["seats"], want["max_spots_per_seat"])
    assert p.war_form is want["war_form"]
    assert p.payouts == want["payouts"]
    assert p.war_tie_wager is want["war_tie_wager"]
    assert p.unit_cents == 100
    assert len(loaded.sha256) == 64


def test_shipped_ids_are_unique() -> None:
    ids = [load_paytable(PAYTABLES / name).paytable.id for name in SHIPPED]
    assert len(ids) == len(set(ids))


def test_shipped_cabinet_loads_and_its_paytable_resolves() -> None:
    cabinet_file = CONFIG / "cabinet.yaml"
    cabinet = load_cabinet(cabinet_file)
    assert cabinet.active_paytable == "paytables/maryland-community-5.yaml"
    assert cabinet.display == Display(index=0, width=1920, height=1080, fullscreen=True)
    assert cabinet.database is None
    assert cabinet.operator_pin_hash is None
    assert cabinet.supervisor_pin_hash is None
    assert cabinet.language == "en"
    assert cabinet.attract_delay_s == 60
    paytable_file = cabinet.paytable_path(cabinet_file)
    assert paytable_file == PAYTABLES / "maryland-community-5.yaml"
    assert load_paytable(paytable_file).paytable.id == "md-community-5"
