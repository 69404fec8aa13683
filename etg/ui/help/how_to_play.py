"""HOW TO PLAY: the round step by step, and War or Surrender on a tie (MD Ch. 7-9).

Every time, limit and odds in the steps is the paytable's: the betting and
decision times, the spots a seat may play, the side wagers offered, the War
form and what the table decides when the decision time runs out.
"""

from __future__ import annotations

from etg.core.paytable import Decision, Layout, Paytable, WarForm
from etg.ui.help.model import Block, Callout, Heading, HelpPage, Paragraph, Steps
from etg.ui.help.words import denominations, money, odds, or_list, trigger_words


def how_to_play_page(p: Paytable) -> HelpPage:
    t = p.timers
    lim = p.limits
    community = p.layout is Layout.COMMUNITY
    # MD Ch. 7 E: how many spots one seat may play; MD Ch. 7 F(1)-(4): which wagers go with it.
    if community:
        where = (f"on one of the {p.spots} numbered spots" if p.max_spots_per_seat == 1
                 else f"on up to {p.max_spots_per_seat}"
                      f"{' adjacent' if p.adjacent_spots_only else ''} spots of the "
                      f"{p.spots} numbered spots")
    else:
        where = "in your betting circle"
    bet = (f"You have {t.betting_s} seconds. Place an Initial Wager {where} "
           f"({money(lim.initial.min_cents)} to {money(lim.initial.max_cents)}). "
           f"With it you may add a Tie Wager")
    extras = []
    if p.progressive_payout is not None:
        extras.append(f"a {money(p.progressive_payout.wager_cents)} Progressive Payout Wager")
    bet += (" and " + or_list(extras) if extras else "") + (
        " on the same spot." if community else ".")
    if p.bonus_spin is not None:
        bet += (f" Once a round you may also bet {or_list(denominations(p.bonus_spin))} on the "
                f"Bonus Spin Xtreme.")
    # MD Ch. 8 E-F (community: MD Ch. 9 L): the original deal.
    if community:
        deal = (f"One card is dealt face up to each of the {p.spots} spots, then one to the "
                f"dealer. Everyone betting on a spot plays that spot's card.")
    else:
        deal = ("Each player with an Initial Wager receives one card face up, then the dealer "
                "receives one.")
    yours = "the spot's card" if community else "your card"
    # MD Ch. 9 B(1)-(3); 58 Pa. Code § 651a.9; S.D. 20:18:16:15.17(4)(a)-(c)
    compare = (f"If {yours} is higher than the dealer's, your Initial Wager wins "
               f"{odds(p.payouts.initial)}; if it is lower, the Initial Wager loses. "
               f"The Tie Wager loses unless the cards tie.")
    tie = (f"Your Tie Wager wins {odds(p.payouts.tie)}. Then choose WAR or SURRENDER "
           f"within {t.decision_s} seconds. If you do not choose in time, "
           f"{_default_words(p)}.")
    tied = "each spot going to War" if community else "each player going to War"
    war = (f"Three cards are burned, then one War card is dealt face up to {tied} and one "
           f"to the dealer.")
    steps = [("PLACE YOUR BETS", bet),
             ("NO MORE BETS", "When the time is up or the dealer closes betting, every wager "
                              "is locked: none can be placed, raised or taken back."),
             ("THE DEAL", deal), ("HIGHER OR LOWER", compare), ("A TIE", tie),
             ("THE WAR", war)]
    sides = []
    if p.progressive_payout is not None:
        sides.append("Progressive Payout Wagers are paid")
    if p.bonus_spin is not None:
        sides.append(f"the wheel spins if the dealer's card was {trigger_words(p.bonus_spin)}")
    if sides:
        steps.append(("SIDE WAGERS", "After the War, " + " and ".join(sides) + "."))
    # MD Ch. 9 E(1)-(2); 58 Pa. Code § 651a.9(c); S.D. 20:18:16:15.17(4)(a)
    right: list[Block] = [Heading("A TIE: WAR OR SURRENDER?"),
                          Callout("SURRENDER", "Half of your Initial Wager is returned and half "
                                               "is lost; that hand is over."),
                          Callout("WAR", _war_words(p)),
                          Paragraph(f"The shoe holds {p.shoe.decks} decks of 52 cards "
                                    f"({p.shoe.cards} cards), shuffled by the game. Aces are "
                                    f"high, 2s low; suits are all equal.", note=True)]
    return HelpPage("HOW TO PLAY", "HOW TO PLAY", ((Steps(tuple(steps)),), tuple(right)),
                    widths=(56, 44))


def _default_words(p: Paytable) -> str:
    """What the table decides when the decision time ends (SPEC §2 step 5)."""
    if p.default_decision is Decision.SURRENDER:
        return "you Surrender"
    return "you go to War if your credits cover the War Wager, otherwise you Surrender"


def _war_words(p: Paytable) -> str:
    """Going to War under the paytable's War form, as :func:`etg.core.settle.settle_war` pays it.

    ``initial_pushed``: MD Ch. 9 I(1)-(3), 58 Pa. Code § 651a.9(g); ``initial_forfeited``:
    PA 2011 proposal § 651a.9(c)(2), (e), (g); ``dealer_matched``: S.D. 20:18:16:15.17(4)(d).
    """
    o = p.payouts
    tie_wager = (f" You may add a new Tie Wager; it wins {odds(o.tie)} if the War cards tie."
                 if p.war_tie_wager else "")
    if p.war_form is WarForm.INITIAL_PUSHED:
        return (f"Place a War Wager equal to your Initial Wager.{tie_wager} If your War card is "
                f"higher, the Initial Wager is returned and the War Wager wins {odds(o.war)}. "
                f"If the War cards tie, the Initial Wager is returned and the War Wager wins "
                f"{odds(o.war_tie)}. If your War card is lower, the Initial and War Wagers "
                f"lose.")
    if p.war_form is WarForm.INITIAL_FORFEITED:
        return (f"Place a War Wager equal to your Initial Wager; the Initial Wager is "
                f"collected as you go to War.{tie_wager} If your War card is higher, the War "
                f"Wager wins {odds(o.war)}. If the War cards tie, the War Wager wins "
                f"{odds(o.war_tie)}. If your War card is lower, the War Wager loses.")
    return (f"Place a War Wager equal to your Initial Wager and the dealer matches it."
            f"{tie_wager} If your War card is higher, the Initial Wager is returned and you win "
            f"{odds(o.war)} on your Initial and War Wagers together. If the War cards tie, "
            f"the Initial Wager is returned and you win {odds(o.war_tie)} on both together. "
            f"If your War card is lower, both wagers lose.")
