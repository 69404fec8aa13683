"""The map of the kiosk's screens: which scene answers each navigation message.

The one module that knows every scene, so that no scene needs to know another
(SPEC §12). The App asks :func:`scene_for` when a scene calls ``ctx.go``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from etg.table.pin import Credential, PinRole
from etg.ui import floor
from etg.ui.attract import AttractScene
from etg.ui.dealer_console import DealerPanel
from etg.ui.help.scene import HelpScene
from etg.ui.numberpad import NumberPad
from etg.ui.operator.menu import OperatorMenu
from etg.ui.pinpad import PinPad
from etg.ui.scene import (
    AskNumber,
    AskPin,
    Nav,
    OpenAttract,
    OpenDealerPanel,
    OpenHelp,
    OpenOperatorMenu,
    Scene,
    Show,
)
from etg.ui.table_scene import TableScene

if TYPE_CHECKING:
    from etg.ui.scene import Context


def table_scene(ctx: Context) -> Scene:
    """The scene at the bottom of the stack: the players' table."""
    return TableScene(ctx)


def scene_for(ctx: Context, message: Nav) -> Scene | None:
    """The scene to push for ``message``; None for the messages the App handles itself."""
    if isinstance(message, OpenHelp):
        return HelpScene(ctx)
    if isinstance(message, OpenAttract):
        return AttractScene(ctx)
    if isinstance(message, OpenOperatorMenu):
        # SPEC §6: the operator menu opens only behind the operator's PIN.
        return PinPad(ctx, Credential.of(PinRole.OPERATOR), "OPERATOR PIN",
                      lambda _who: ctx.go(Show(OperatorMenu(ctx))))
    if isinstance(message, OpenDealerPanel):
        # SPEC §6: the dealer panel opens only for a dealer signed in (MD Ch. 8 E(4)).
        if ctx.table.state.dealer is None:
            ctx.notify("A DEALER SIGNS IN FIRST", error=False)
            floor.sign_in_dealer(ctx)
            return None
        return DealerPanel(ctx)
    if isinstance(message, AskPin):
        return PinPad(ctx, message.credential, message.title, message.then)
    if isinstance(message, AskNumber):
        return NumberPad(ctx, message)
    return None
