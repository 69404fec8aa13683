"""``etg smoke-test``: does this installed or frozen build start? (SPEC §9, §10)

Run after an install, inside the frozen onedir build and from any working
directory, it checks what a cabinet needs before its first real start:

1. **software** — a frozen build's files match its SHA-256 manifest;
2. **assets** — every bundled font and asset file loads (fonts through
   pygame's font module, images and sounds through pygame);
3. **paytables** — every shipped paytable, and the shipped ``cabinet.yaml``,
   validate as the program reads them;
4. **ledger** — a temporary ledger opens, records one round played by bots,
   and verifies clean from its first round;
5. **sounds** — every cue is made and the mixer opens (on SDL's dummy audio
   driver) and takes them;
6. **frames** — the real kiosk App draws a few frames of that table on SDL's
   dummy video driver, and they are not blank.

It touches nothing of the cabinet's: the ledger, its key and the site
configuration of check 4 and 5 live in a temporary directory, removed after.
Each check prints one line; the result is 0 when all pass, 1 otherwise.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from etg.config import places

FRAMES = 12
"""Frames the kiosk draws in check 5: enough for the table scene to lay out and settle."""

_FONT_SUFFIXES = {".ttf", ".otf"}
_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp"}
_SOUND_SUFFIXES = {".wav", ".ogg"}
_TEXT_SUFFIXES = {".txt", ".md"}


class SmokeFailure(RuntimeError):
    """A check failed; the message says what an installer should look at."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str


def run_smoke_test(report: Callable[[CheckResult], None] = lambda _: None) -> list[CheckResult]:
    """Every check in order, each reported as it finishes; a failing one does not stop the rest."""
    results = []
    with _private_places() as scratch:
        for name, check in _CHECKS:
            try:
                result = CheckResult(name, True, check(scratch))
            except Exception as error:  # a smoke test reports every failure, whatever it is
                # The check's own words; another error's kind helps the reader (an installer,
                # not a programmer) only when it says what broke, as OSError's do.
                words = str(error) if isinstance(error, SmokeFailure) else (
                    f"{type(error).__name__}: {error}")
                result = CheckResult(name, False, words)
            report(result)
            results.append(result)
    return results


# --- the checks -------------------------------------------------------------------------------

def check_software(_: Path) -> str:
    from etg.release.manifest import frozen_bundle, verify_bundle

    bundle = frozen_bundle()
    if bundle is None:
        return "source install: no software manifest to check (only a release build has one)"
    problems = verify_bundle(bundle)
    if problems:
        raise SmokeFailure(f"{len(problems)} files differ from the manifest: "
                           + "; ".join(problems[:5]))
    return f"every file of {bundle} matches its manifest"


def check_assets(_: Path) -> str:
    import pygame

    from etg.ui.assets import missing_assets

    missing = missing_assets()
    if missing:
        raise SmokeFailure("missing: " + ", ".join(missing))
    counts = {"fonts": 0, "images": 0, "sounds": 0, "texts": 0}
    pygame.font.init()
    for path in sorted(p for p in places.assets_dir().rglob("*") if p.is_file()):
        suffix = path.suffix.lower()
        if suffix in _FONT_SUFFIXES:
            face = pygame.font.Font(str(path), 24)
            if face.render("ETG 10 to 1", True, (255, 255, 255)).get_width() <= 0:
                raise SmokeFailure(f"{path}: renders nothing")
            counts["fonts"] += 1
        elif suffix in _IMAGE_SUFFIXES:
            pygame.image.load(str(path))
            counts["images"] += 1
        elif suffix in _SOUND_SUFFIXES:
            _load_sound(path)
            counts["sounds"] += 1
        elif suffix in _TEXT_SUFFIXES:
            path.read_text(encoding="utf-8")
            counts["texts"] += 1
        else:
            raise SmokeFailure(f"{path}: an asset of a kind the program does not use")
    if counts["fonts"] == 0:
        raise SmokeFailure(f"no font in {places.assets_dir()}")
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) + " load"


def check_paytables(_: Path) -> str:
    from etg.config.loader import load_cabinet, load_paytable

    shipped = places.shipped_config_dir()
    files = sorted((shipped / "paytables").glob("*.yaml"))
    if not files:
        raise SmokeFailure(f"no paytable in {shipped / 'paytables'}")
    for path in files:
        load_paytable(path)
    cabinet_file = shipped / "cabinet.yaml"
    active = load_cabinet(cabinet_file).paytable_path(cabinet_file)
    if active not in files:
        raise SmokeFailure(f"{cabinet_file}: its active paytable {active} is not shipped")
    return f"{len(files)} paytables and cabinet.yaml validate"


def check_ledger(scratch: Path) -> str:
    from etg.ledger.store import Ledger
    from etg.ledger.verify import verify

    db = _played_ledger(scratch)
    store = Ledger.open_readonly(db)
    try:
        problems = verify(store, full=True)
        with store.reading():
            rounds = store.round_count()
    finally:
        store.close()
    if problems:
        raise SmokeFailure("; ".join(f"{p.check}: {p.message}" for p in problems[:5]))
    if rounds != 1:
        raise SmokeFailure(f"the ledger holds {rounds} rounds after one was played")
    return "a temporary ledger opened, recorded a round and verified clean"


def check_frames(scratch: Path) -> str:
    import pygame

    from etg.config.loader import load_cabinet, load_paytable, seed_site_config
    from etg.core.rng import SeededSource
    from etg.ledger.store import Ledger
    from etg.table.controller import Table
    from etg.ui.app import App
    from etg.ui.demo import DemoDirector
    from etg.ui.display import open_window
    from etg.ui.options import RunOptions

    config = seed_site_config(scratch / "frames-config")
    cabinet_file = config / "cabinet.yaml"
    cabinet = load_cabinet(cabinet_file)
    loaded = load_paytable(cabinet.paytable_path(cabinet_file))
    table = Table.open(Ledger.open(scratch / "frames.db"), loaded, SeededSource(1))
    options = RunOptions(headless=True, demo=True, config_dir=config, frames=FRAMES)
    try:
        window = open_window(cabinet, options)
        try:
            app = App(table, cabinet, cabinet_file, options, window,
                      director=DemoDirector(table))
            for _ in range(FRAMES):
                app.frame(1 / 60, draw=True)
            colours = len(set(pygame.image.tobytes(
                pygame.transform.scale(app.canvas, (96, 54)), "RGB")[i:i + 3]
                for i in range(0, 96 * 54 * 3, 3)))
            width, height = app.canvas.get_size()
        finally:
            pygame.display.quit()
    finally:
        table.close()
    if colours < 8:
        raise SmokeFailure(f"the table drew a blank screen ({colours} colours)")
    return f"{FRAMES} frames of the table drawn at {width}x{height} ({colours} colours)"


def check_sounds(_: Path) -> str:
    import numpy as np
    import pygame

    from etg.config.cabinet import Sound
    from etg.ui.audio import Audio, Cue, samples

    quiet = [cue.name for cue in Cue if not np.abs(samples(cue)).max()]
    if quiet:
        raise SmokeFailure("silent cues: " + ", ".join(quiet))
    audio = Audio.open(Sound())
    try:
        if not audio.enabled:
            raise SmokeFailure("the mixer did not open (see the log)")
    finally:
        pygame.mixer.quit()
    return f"{len(Cue)} sounds made and the mixer takes them"


_CHECKS: tuple[tuple[str, Callable[[Path], str]], ...] = (
    ("software", check_software),
    ("assets", check_assets),
    ("paytables", check_paytables),
    ("ledger", check_ledger),
    ("sounds", check_sounds),
    ("frames", check_frames),
)


# --- helpers ----------------------------------------------------------------------------------

@contextlib.contextmanager
def _private_places() -> Iterator[Path]:
    """A scratch directory that is also the site configuration and data directory meanwhile.

    The ledger key is made in the site configuration directory: pointing both
    places at the scratch keeps the cabinet's own key and ledger untouched.
    SDL draws on its dummy drivers meanwhile, so no window opens on a cabinet's
    screen and a machine without one passes too.
    """
    with tempfile.TemporaryDirectory(prefix="etg-smoke-") as folder:
        scratch = Path(folder)
        scratch_env = {"ETG_CONFIG_DIR": str(scratch / "config"),
                       "ETG_DATA_DIR": str(scratch / "data"),
                       "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                       "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        saved = {name: os.environ.get(name) for name in scratch_env}
        os.environ.update(scratch_env)
        try:
            yield scratch
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _played_ledger(scratch: Path) -> Path:
    from etg.config.loader import load_paytable
    from etg.core.rng import SeededSource
    from etg.ledger.store import Ledger, LedgerKind
    from etg.table.bots import RoundDriver, standard_bots
    from etg.table.controller import Table

    loaded = load_paytable(places.shipped_config_dir() / "paytables"
                           / "maryland-community-7.yaml")
    db = scratch / "smoke.db"
    table = Table.open(Ledger.open(db, kind=LedgerKind.TEST), loaded, SeededSource(1))
    try:
        driver = RoundDriver(standard_bots(table.state.paytable), SeededSource(2), table.apply)
        driver.play_round(table.state)
    finally:
        table.close()
    return db


def _load_sound(path: Path) -> None:
    import pygame

    if not pygame.mixer.get_init():
        pygame.mixer.init()
    pygame.mixer.Sound(str(path))
