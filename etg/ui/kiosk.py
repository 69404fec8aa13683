"""Start the kiosk: a window on the cabinet's display, the App, demo players if asked."""

from __future__ import annotations

from pathlib import Path

import pygame

from etg.config.cabinet import Cabinet
from etg.table import Table
from etg.ui.app import App, RunOptions, open_window


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
