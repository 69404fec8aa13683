"""Every shipped paytable and the shipped cabinet file load, with the values the rules require."""

from __future__ import annotations

from typing import Any

import pytest

from etg.config import Display, load_cabinet, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.cards import Colour
from etg.core.paytable import (
    MD_COMMUNITY_PAYS_5,
    MD_HOT_SPOT_PAYS_5,
    BonusSpin,
    DesignatedCard,
    EnvyPays,
    HandPay,
    HandPays,
    Jurisdiction,
    Layout,
    Meter,
    Odds,
    Payouts,
    ProgressiveLevel,
    ProgressivePayout,
    RtpBand,
    WarForm,
    WheelSegment,
)

CONFIG = shipped_config_dir()
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


# --- Bonus Spin Xtreme and the Progressive Payout Wager (MD Ch. 7 F(3)-(4), Ch. 10 B-E) --------

# Maryland's Paytable A is the $5 column; the $1 column pays 1/5 of each fixed pay.
COMMUNITY_PAYS = {  # symbol -> ($1, $5) in cents, MD Ch. 10 E(1)
    "$150": (3000, 15000), "$100": (2500, 12500), "$75": (2000, 10000), "$50": (1500, 7500),
    "$40": (1000, 5000), "$35": (800, 4000), "$30": (600, 3000), "$25": (500, 2500),
}
HOT_SPOT_PAYS = {  # symbol -> ($1, $5) in cents, MD Ch. 10 D(1)(c)-(j)
    "$1000": (20000, 100000), "$600": (12000, 60000), "$500": (10000, 50000),
    "$400": (8000, 40000), "$350": (7000, 35000), "$300": (6000, 30000),
    "$250": (5000, 25000), "$200": (4000, 20000),
}
# Weights by seat count: the community ring, then JACKPOT, MINI JACKPOT and the fixed Hot Spot pays.
WEIGHTS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    6: ((1, 2, 3, 4, 6, 10, 20, 45), (1, 2, 3, 5, 7, 9, 12, 16, 25, 40)),
    9: ((4, 5, 5, 5, 8, 10, 10, 13), (1, 2, 3, 4, 6, 8, 10, 14, 20, 32)),
}
WEIGHT_SUMS = {6: (91, 120), 9: (60, 100)}  # the 9-seat community ring: fatter pays, same total
MARYLAND = sorted(name for name, want in SHIPPED.items()
                  if want["jurisdiction"] is Jurisdiction.MARYLAND)
OTHERS = sorted(set(SHIPPED) - set(MARYLAND))


def _bonus_spin(seats: int) -> BonusSpin:
    community, hot_spot = WEIGHTS[seats]
    return BonusSpin(
        denominations_cents=(100, 500),
        trigger=(DesignatedCard("A", Colour.RED),),
        community_ring=tuple(
            WheelSegment(symbol, weight, pays_cents=pays)
            for (symbol, pays), weight in zip(COMMUNITY_PAYS.items(), community, strict=True)),
        hot_spot_ring=(
            WheelSegment("JACKPOT", hot_spot[0], progressive=ProgressiveLevel.PRIMARY,
                         meter_percent=(20, 100)),
            WheelSegment("MINI JACKPOT", hot_spot[1], progressive=ProgressiveLevel.SECONDARY,
                         meter_percent=(20, 100)),
            *(WheelSegment(symbol, weight, pays_cents=pays)
              for (symbol, pays), weight in zip(HOT_SPOT_PAYS.items(), hot_spot[2:], strict=True)),
        ),
        primary=Meter(initial_cents=1_000_000, reset_cents=1_000_000, rate=0.015,
                      ceiling_cents=None),
        secondary=Meter(initial_cents=1_000_000, reset_cents=500_000, rate=0.005,
                        ceiling_cents=2_500_000),
        rtp_band=RtpBand(min=0.80, max=0.95),
    )


PROGRESSIVE_PAYOUT = ProgressivePayout(
    wager_cents=500,
    pays=HandPays(
        suited_four_of_a_kind=HandPay(1000, 1, meter_percent=100), suited_double_tie=HandPay(200),
        four_of_a_kind=HandPay(150), double_tie=HandPay(30), suited_tie=HandPay(15),
        tie=HandPay(5)),
    envy_cents=EnvyPays(suited_four_of_a_kind=500_000),
    meter=Meter(initial_cents=1_000_000, reset_cents=1_000_000, rate=0.05, ceiling_cents=None),
)


def test_the_tables_match_marylands_paytable_a() -> None:
    assert {symbol: five for symbol, (_, five) in COMMUNITY_PAYS.items()} == MD_COMMUNITY_PAYS_5
    assert {symbol: five for symbol, (_, five) in HOT_SPOT_PAYS.items()} == MD_HOT_SPOT_PAYS_5
    for one, five in (*COMMUNITY_PAYS.values(), *HOT_SPOT_PAYS.values()):
        assert one * 5 == five  # the $1 column pays 1/5 of the $5 one


@pytest.mark.parametrize("name", MARYLAND)
def test_maryland_bonus_spin_loads_with_its_values(name: str) -> None:
    p = load_paytable(PAYTABLES / name).paytable
    assert p.seats in WEIGHTS, "6-seat or 9-seat weights"
    b = p.bonus_spin
    assert b is not None
    assert b == _bonus_spin(p.seats)
    assert (sum(s.weight for s in b.community_ring),
            sum(s.weight for s in b.hot_spot_ring)) == WEIGHT_SUMS[p.seats]
    assert [s.symbol for s in b.community_ring] == list(MD_COMMUNITY_PAYS_5)
    assert [s.symbol for s in b.hot_spot_ring] == ["JACKPOT", "MINI JACKPOT",
                                                   *MD_HOT_SPOT_PAYS_5]
    five = b.column(500)
    assert [s.pay_cents(five) for s in b.community_ring] == list(MD_COMMUNITY_PAYS_5.values())
    assert [s.pay_cents(five) for s in b.hot_spot_ring[2:]] == list(MD_HOT_SPOT_PAYS_5.values())
    assert [s.meter_percent for s in b.hot_spot_ring[:2]] == [(20, 100), (20, 100)]
    assert b.meter(ProgressiveLevel.PRIMARY).ceiling_cents is None
    assert b.meter(ProgressiveLevel.SECONDARY).ceiling_cents == 2_500_000
    assert b.primary.rate_millionths == 15_000
    assert b.secondary.rate_millionths == 5_000


@pytest.mark.parametrize("name", MARYLAND)
def test_maryland_progressive_payout_loads_with_its_values(name: str) -> None:
    p = load_paytable(PAYTABLES / name).paytable
    assert p.progressive_payout == PROGRESSIVE_PAYOUT
    assert p.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT) == PROGRESSIVE_PAYOUT.meter
    assert PROGRESSIVE_PAYOUT.meter.rate_millionths == 50_000
    assert p.progressive_in_payout_limit is False


@pytest.mark.parametrize("name", OTHERS)
def test_other_jurisdictions_offer_neither_maryland_wager(name: str) -> None:
    p = load_paytable(PAYTABLES / name).paytable
    assert p.bonus_spin is None
    assert p.progressive_payout is None
    assert all(p.meter(level) is None for level in ProgressiveLevel)


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
