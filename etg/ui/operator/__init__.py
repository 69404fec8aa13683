"""The operator menu: the table's back office, behind the operator PIN (SPEC §5, §6).

SPEC §6 lists what it holds: "meters, game recall, event log, credits in and
out per seat, progressive meters, paytable view and switch, shoe and RNG
self-test, tilt clear, RAM clear (second confirmation)", and the sound's
"volume and mute"; SPEC §2 adds the supervisor's single-wager void and
abandoned seat (the WAGERS page, each behind the supervisor PIN), and the
floor's procedures JACKPOTS (a lock waiting for its validation, the hand pays)
and DEALERS (the dealers' PINs, rounds and tips; actions in :mod:`etg.ui.floor`).
Each is a page, chosen from a column of tabs on the left, and a module:

- :mod:`~etg.ui.operator.menu`: the scene (tabs, header, pager, second confirmation);
- :mod:`~etg.ui.operator.page`: what a page is and what it may use of the menu;
- :mod:`~etg.ui.operator.sheet`: how a page is laid out and painted;
- one module per page: :mod:`~etg.ui.operator.meters`, :mod:`~etg.ui.operator.recall`,
  :mod:`~etg.ui.operator.event_log`, :mod:`~etg.ui.operator.credits`,
  :mod:`~etg.ui.operator.wagers`, :mod:`~etg.ui.operator.progressives`,
  :mod:`~etg.ui.operator.jackpots`, :mod:`~etg.ui.operator.dealers`,
  :mod:`~etg.ui.operator.paytables`, :mod:`~etg.ui.operator.sound`,
  :mod:`~etg.ui.operator.self_test`, :mod:`~etg.ui.operator.tilt`,
  :mod:`~etg.ui.operator.ram_clear`.

The menu reads; it changes the table only through the controller's own
operations (``ctx.send`` for credits and the supervisor's commands,
``ctx.switch_paytable``, :meth:`Table.acknowledge_tilt`, :meth:`Table.ram_clear`),
each of which writes its own record; the SOUND page writes ``cabinet.yaml``
and sets the kiosk's :class:`~etg.ui.audio.Audio`. On top of that every page
opened and every action is recorded as an operator action with the operator
as the actor (SPEC §5: "operator login and actions (who, when, what)"), and
entering the menu as an operator login, which the ``operator_menu_entries``
meter counts (:mod:`etg.table.records`).

What a page shows of the ledger it reads from the table's books
(:mod:`etg.table.books`) when it is opened or an action happens, and keeps as
ready-to-draw rows, so a frame only blits: ``draw`` reads nothing and changes
nothing.
"""
