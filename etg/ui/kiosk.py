"""Start the kiosk: a window on the cabinet's display, the App, demo players if asked."""

from __future__ import annotations

from pathlib import Path

import pygame

from etg import stop
from etg.config.cabinet import Cabinet
from etg.table.controller import Table
from etg.ui import theme
from etg.ui.app import App
from etg.ui.canvas import LOGICAL
from etg.ui.display import open_window
from etg.ui.options import RunOptions
from etg.ui.widgets import draw_panel, draw_text


def run_kiosk(table: Table, cabinet: Cabinet, cabinet_file: Path, options: RunOptions) -> App:
    """Open the window and run frames until the App quits; raises NoDisplay without a screen."""
    window = open_window(cabinet, options)
    try:
        pygame.display.set_caption(f"ETG · {table.state.paytable.name}"
                                   + ("  ·  DEMO" if options.demo else ""))
        director = None
        if options.demo:
            from etg.ui.demo import DemoDirector

            director = DemoDirector(table)
        app = App(table, cabinet, cabinet_file, options, window, director=director)
        app.run()
        return app
    finally:
        pygame.display.quit()


def show_fault(cabinet: Cabinet, options: RunOptions, message: str,
               frames: int | None = None) -> int:
    """A cabinet whose ledger cannot be opened: the cause full screen until a technician acts.

    No table can be drawn without a ledger, so this is the whole kiosk: one
    screen, no play, until the window is closed, Esc is pressed (a technician
    at the keyboard) or SIGTERM arrives. ``frames`` ends it sooner (tests). Raises NoDisplay.
    Returns how many frames it showed.
    """
    window = open_window(cabinet, options)
    try:
        canvas = pygame.Surface(LOGICAL)
        clock = pygame.time.Clock()
        shown = 0
        while (frames is None or shown < frames) and not stop.requested():
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                                 and event.key == pygame.K_ESCAPE):
                    return shown
            canvas.fill(theme.FELT_DARK)
            panel = pygame.Rect(160, 300, 1600, 420)
            draw_panel(canvas, panel, (20, 8, 8, 240), theme.TILT, radius=22, width=5)
            draw_text(canvas, "TILT  ·  THE TABLE CANNOT START", 56, theme.TILT,
                      (panel.centerx, panel.top + 80), shadow=True)
            draw_text(canvas, "Play is stopped. Call a technician: the ledger was left as it is.",
                      30, theme.WHITE, (panel.centerx, panel.top + 170), max_width=1500)
            for i, line in enumerate(_wrap(message, 110)[:4]):
                draw_text(canvas, line, 24, theme.CREAM,
                          (panel.left + 50, panel.top + 240 + 40 * i), "midleft", max_width=1500)
            pygame.transform.smoothscale(canvas, window.get_size(), window)
            pygame.display.flip()
            shown += 1
            clock.tick(10)
        return shown
    finally:
        pygame.display.quit()


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines
