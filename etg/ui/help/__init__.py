"""Help and paytable screens, written from the active paytable (SPEC §6).

"Help / paytable screens generated from the active YAML, so what an operator
edits is what players read": every amount, odds, count and time on these
pages is read from the :class:`~etg.core.paytable.Paytable` the table plays,
never typed into the text. The law asks for exactly this: the layout or a sign
"advises players of the payout odds or amounts for all permissible wagers" and
"indicates the payout limit per hand" (MD Ch. 2 B(5)(a)-(b), B(6)); South
Dakota's "payment schedule must be displayed on the table layout or a table
sign" (S.D. Admin. R. 20:18:16:15.17(5)).

The pages are data first, so a test reads the words without drawing anything:

- :mod:`~etg.ui.help.model`: a page of headings, paragraphs, numbered steps,
  charts with aligned columns, callouts and places for live meters;
- :mod:`~etg.ui.help.words`: money, odds and lists as every page says them, and
  the lines the attract mode shows;
- one module per page: :mod:`~etg.ui.help.how_to_play`, :mod:`~etg.ui.help.pays`,
  :mod:`~etg.ui.help.bonus_spin`, :mod:`~etg.ui.help.progressive_payout`,
  :mod:`~etg.ui.help.limits`; :func:`etg.ui.help.pages.help_pages` puts them in order;
- :mod:`~etg.ui.help.render`: a page drawn like a casino's printed rack card;
- :mod:`~etg.ui.help.scene`: the scene that shows the pages over the table.

This package's ``__init__`` imports nothing, so the attract mode can read the
words without the help scene (scenes never import one another).
"""
