"""The help pages of a paytable, in the order the tabs show them."""

from __future__ import annotations

from etg.core.paytable import Jurisdiction, Paytable
from etg.ui.help.bonus_spin import bonus_spin_page
from etg.ui.help.how_to_play import how_to_play_page
from etg.ui.help.limits import limits_page
from etg.ui.help.model import HelpPage
from etg.ui.help.pays import pays_page
from etg.ui.help.progressive_payout import progressive_payout_page

# Where each jurisdiction's rules are published (the small print of every page).
_RULES = {
    Jurisdiction.MARYLAND: "Maryland Standard Rules – Casino War",
    Jurisdiction.PENNSYLVANIA: "58 Pa. Code Chapter 651a, Casino War",
    Jurisdiction.PENNSYLVANIA_2011: "58 Pa. Code Chapter 651a (2011 proposed rules)",
    Jurisdiction.SOUTH_DAKOTA: "S.D. Admin. R. 20:18:16:15.17, Casino War",
}


def help_pages(paytable: Paytable) -> list[HelpPage]:
    """The help pages of ``paytable``: how to play, pays, the side wagers it offers, limits."""
    footer = f"{paytable.name}  ·  paytable {paytable.id}  ·  {_RULES[paytable.jurisdiction]}"
    pages = [how_to_play_page(paytable), pays_page(paytable)]
    if paytable.bonus_spin is not None:
        pages.append(bonus_spin_page(paytable, paytable.bonus_spin))
    if paytable.progressive_payout is not None:
        pages.append(progressive_payout_page(paytable, paytable.progressive_payout))
    pages.append(limits_page(paytable))
    return [HelpPage(p.title, p.tab, p.columns, p.widths, footer) for p in pages]
