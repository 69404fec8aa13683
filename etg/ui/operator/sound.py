"""SOUND: the table's volume and mute, a test of each sound, and the earlier changes (SPEC §6:
"volume and mute").

A change is written to ``cabinet.yaml`` first and then applied from what the
file says, so the sound heard never disagrees with the file; a change that
cannot be saved is not applied.
"""

from __future__ import annotations

from etg.config.cabinet import MAX_VOLUME
from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value
from etg.config.loader import load_cabinet
from etg.config.problems import ConfigError
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.audio import Cue
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, RED, PageView, Sheet, Text, clip, when
from etg.ui.widgets import Button

VOLUME_STEP = 10
"""What one tap of − or + changes the volume (0–100) by."""

CHANGES_READ = 200
"""The newest operator actions searched for the EARLIER CHANGES of the sound."""

_CUE_LABELS = {Cue.CHIP: "CHIPS", Cue.DEAL: "CARD DEAL", Cue.FLIP: "CARD FLIP",
               Cue.TICK: "WHEEL TICK", Cue.WIN: "WIN", Cue.BIG_WIN: "BIG WIN",
               Cue.JACKPOT: "JACKPOT"}


class SoundPage(OperatorPage):
    """The volume with − and +, MUTE, a button per sound, the settings and earlier changes."""

    def act(self, desk: Desk, tag: str) -> None:
        """Volume down or up a step, mute on or off (saved, then applied at once), or a test."""
        head, _, what = tag.partition(":")
        if head != "sound":
            return
        ctx = desk.ctx
        verb, _, name = what.partition(":")
        if verb == "test":
            ctx.audio.play(Cue(name))
            desk.log("sound_test", cue=name)
            return
        sound = ctx.cabinet.sound
        value: int | bool
        if verb == "mute":
            key, value = "sound.mute", not sound.mute
        else:
            step = VOLUME_STEP if verb == "up" else -VOLUME_STEP
            key, value = "sound.volume", min(MAX_VOLUME, max(0, sound.volume + step))
        refusal = None
        try:
            set_cabinet_value(ctx.cabinet_file, key, value)
            ctx.cabinet = load_cabinet(ctx.cabinet_file)
        except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
            refusal = str(error)
            ctx.notify(refusal)
        sound = ctx.cabinet.sound  # as the file now says: the live sound never disagrees
        ctx.audio.configure(sound.volume, sound.mute)
        desk.log("sound", volume=sound.volume, mute=sound.mute, refused=refusal)
        desk.reload()

    def read(self, desk: Desk) -> PageView:
        ctx = desk.ctx
        sound = ctx.cabinet.sound
        audio = ctx.audio
        sheet = Sheet()
        x, y = BODY_X, BODY_Y
        sheet.box((x, y, BODY_W, 240), theme.FELT_DARK, theme.GOLD_DARK, 16, 2)
        sheet.text("VOLUME", x + 32, y + 24, 20, theme.GOLD, style=Style.BOLD)
        sheet.text("MUTED" if sound.mute else f"{sound.volume}", x + 32, y + 64, 48,
                   theme.TILT if sound.mute else theme.WHITE, style=Style.BOLD)
        steps = MAX_VOLUME // VOLUME_STEP
        lit = theme.TEXT_DIM if sound.mute else theme.WIN
        for step in range(steps):
            on = sound.volume >= (step + 1) * VOLUME_STEP
            sheet.box((x + 290 + step * 54, y + 60 + 60 - 6 * step, 46, 50 + 6 * step),
                      lit if on else theme.PANEL_LIGHT, radius=6)
        sheet.buttons.append(Button((x + 860, y + 60, 160, 110), f"− {VOLUME_STEP}",
                                    "sound:down", enabled=sound.volume > 0, size=34))
        sheet.buttons.append(Button((x + 1040, y + 60, 160, 110), f"+ {VOLUME_STEP}", "sound:up",
                                    enabled=sound.volume < MAX_VOLUME, size=34))
        sheet.buttons.append(Button((x + BODY_W - 260, y + 60, 236, 110),
                                    "UNMUTE" if sound.mute else "MUTE", "sound:mute",
                                    hot=sound.mute, colour=RED if not sound.mute else theme.BUTTON,
                                    size=30))
        if not audio.enabled:
            status, colour = ("No sound device: the table plays silently. The settings are kept "
                              "for when one is connected."), theme.TILT
        elif sound.mute:
            status, colour = "Muted: the table is silent until it is unmuted.", theme.CREAM
        else:
            status, colour = (f"Sound on at {sound.volume} of {MAX_VOLUME}: every channel plays "
                              f"at {audio.gain:.0%} of full level."), theme.CREAM
        sheet.text(status, x + 32, y + 192, 21, colour, max_width=BODY_W - 64)
        y += 268
        sheet.section("TEST A SOUND", x, y, BODY_W)
        cues = list(Cue)
        gap = 16
        width = (BODY_W - gap * (len(cues) - 1)) / len(cues)
        for index, cue in enumerate(cues):
            sheet.buttons.append(Button((x + index * (width + gap), y + 48, width, 80),
                                        _CUE_LABELS[cue], f"sound:test:{cue.value}",
                                        enabled=audio.enabled and not sound.mute, size=21))
        y += 150
        sheet.section("SETTINGS", x, y, BODY_W)
        lines = [
            "Saved in cabinet.yaml as sound.volume and sound.mute, and applied at once.",
            f"The big-win fanfare plays for winnings of {sound.big_win_multiple} times the "
            f"seat's stake or more (sound.big_win_multiple).",
            "Every sound is made by the program when it starts: there are no sound files.",
        ]
        for index, line in enumerate(lines):
            sheet.text(line, x, y + 46 + index * 32, 21, theme.CREAM, max_width=BODY_W)
        y += 160
        sheet.section("EARLIER CHANGES", x, y, BODY_W)
        changes = [e for e in ctx.table.books.last_events(("operator_menu",), CHANGES_READ)
                   if e["details"].get("action") == "sound"][::-1][:4]
        rows: list[list[Text]] = [
            [when(e["at"]), str(e["actor"] or "—"), f"{e['details'].get('volume', '—')}",
             "MUTED" if e["details"].get("mute") else "ON",
             clip(str(e["details"].get("refused") or ""), 19, BODY_W - 1000 - 24)]
            for e in changes]
        sheet.history([("TIME (UTC)", 300, "l"), ("BY", 260, "l"), ("VOLUME", 220, "r"),
                       ("SOUND", 220, "l"), ("REFUSED", BODY_W - 1000, "l")], rows, x, y + 46,
                      36, 19, "The sound has never been changed from the menu on this ledger.")
        return sheet.view("SOUND", "Chips, cards, the wheel and wins; volume and mute for the "
                                   "whole table.")
