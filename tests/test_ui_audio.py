"""The table's sounds: made right, played through the mixer's channels, fired by the screen.

The mixer runs on SDL's dummy audio driver (tests/conftest.py), which plays
to nowhere but keeps every channel's state, so what the Audio hands the mixer
can be read back. A real round is played through the real App with a
recording Audio in place of the mixer, and the cues it hears are checked one
by one against the stacked shoe.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame
import pytest

from etg.config.cabinet import Sound
from etg.config.cabinet_edit import set_cabinet_value
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Shuffle,
    ShuffleReason,
    WarDeal,
)
from etg.core.events import WheelStopped
from etg.core.paytable import Decision
from etg.core.state import Phase
from etg.core.wheel import WheelStops
from etg.ui.animations import (
    CARD_FLIGHT_S,
    SPIN_LEAD_S,
    Animation,
    BigWin,
    CardFlight,
    Celebration,
    ChipFlight,
)
from etg.ui.app import App
from etg.ui.audio import CHANNELS, LENGTH_S, PEAK, RATE, Audio, Cue, samples, write_wavs
from etg.ui.scene import FRAME_S
from etg.ui.table_scene import TableScene
from tests import kiosk_support as k
from tests.tables import rigged_draw

FULL_SCALE = 32_767

# --- the sounds themselves ---------------------------------------------------------------------

STATED_S = {Cue.CHIP: 0.13, Cue.DEAL: 0.24, Cue.FLIP: 0.16, Cue.TICK: 0.05, Cue.WIN: 0.8,
            Cue.BIG_WIN: 2.0, Cue.JACKPOT: 2.4}


@pytest.mark.parametrize("cue", list(Cue))
def test_each_sound_is_stereo_int16_of_its_stated_length(cue: Cue) -> None:
    sound = samples(cue)
    assert LENGTH_S[cue] == STATED_S[cue]
    assert sound.dtype == np.int16
    assert sound.shape == (round(STATED_S[cue] * RATE), 2)
    assert np.array_equal(sound[:, 0], sound[:, 1])
    assert samples(cue) is sound and not sound.flags.writeable  # made once, shared


@pytest.mark.parametrize("cue", list(Cue))
def test_each_sound_is_audible_unclipped_and_starts_and_ends_at_silence(cue: Cue) -> None:
    left = samples(cue)[:, 0].astype(np.int64)
    peak = int(np.abs(left).max())
    assert peak == round(PEAK[cue] * FULL_SCALE) < FULL_SCALE  # its level, never clipped
    rms = float(np.sqrt(np.mean(left.astype(np.float64) ** 2)))
    assert rms > 0.02 * FULL_SCALE  # not silent: louder than -34 dBFS on average
    assert left[0] == 0 and left[-1] == 0  # no step into or out of the sound: no click
    assert abs(left[1]) <= peak // 100 and abs(left[-2]) <= peak // 100


def test_the_sounds_can_be_written_to_wav_files_for_listening(tmp_path: Path) -> None:
    files = write_wavs(tmp_path / "wav")
    assert [f.name for f in files] == [f"{cue.value}.wav" for cue in Cue]
    for cue, path in zip(Cue, files, strict=True):
        with wave.open(str(path), "rb") as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (2, 2, RATE)
            assert wav.readframes(wav.getnframes()) == samples(cue).tobytes()


def test_the_short_sounds_are_short_and_the_celebrations_about_two_seconds() -> None:
    short = [cue for cue in Cue if cue not in (Cue.BIG_WIN, Cue.JACKPOT)]
    assert max(LENGTH_S[cue] for cue in short) <= 0.8
    assert 1.5 <= LENGTH_S[Cue.BIG_WIN] <= 2.5 and 1.5 <= LENGTH_S[Cue.JACKPOT] <= 2.5


# --- the mixer ----------------------------------------------------------------------------------

def _volumes() -> list[float]:
    return [pygame.mixer.Channel(i).get_volume() for i in range(CHANNELS)]


def _level(gain: float) -> float:
    """What SDL keeps of a channel volume: 128 steps, rounded down."""
    return int(gain * 128) / 128


@pytest.fixture
def mixer_audio() -> Audio:
    audio = Audio.open(Sound(volume=70, mute=False))
    pygame.mixer.stop()
    return audio


def test_volume_and_mute_set_every_channel(mixer_audio: Audio) -> None:
    audio = mixer_audio
    assert audio.enabled
    assert pygame.mixer.get_init() == (RATE, -16, 2)
    assert pygame.mixer.get_num_channels() == CHANNELS
    assert audio.gain == pytest.approx(0.49)
    assert _volumes() == [_level(0.7 ** 2)] * CHANNELS
    audio.configure(30, mute=False)
    assert _volumes() == [_level(0.3 ** 2)] * CHANNELS
    audio.configure(30, mute=True)
    assert audio.gain == 0.0 and _volumes() == [0.0] * CHANNELS
    audio.play(Cue.WIN)
    assert not pygame.mixer.get_busy()  # muted: nothing is even started
    audio.configure(100, mute=False)
    assert _volumes() == [1.0] * CHANNELS
    audio.play(Cue.WIN)
    channel = pygame.mixer.Channel(2)  # the first of the wins' own channels
    assert channel.get_busy() and channel.get_volume() == 1.0
    sound = channel.get_sound()
    assert sound is not None and sound.get_raw() == samples(Cue.WIN).tobytes()
    with pytest.raises(ValueError, match="between 0 and 100, not 101"):
        audio.configure(101, mute=False)


def test_a_burst_of_chips_and_cards_never_cuts_off_the_jackpot(mixer_audio: Audio) -> None:
    audio = mixer_audio
    audio.play(Cue.JACKPOT)
    for _ in range(40):
        audio.play(Cue.CHIP)
        audio.play(Cue.DEAL)
        audio.play(Cue.TICK)
    audio.play(Cue.WIN)
    jackpot = samples(Cue.JACKPOT).tobytes()
    first = pygame.mixer.Channel(0).get_sound()
    assert first is not None and first.get_raw() == jackpot and pygame.mixer.Channel(0).get_busy()
    playing = {i: pygame.mixer.Channel(i).get_sound() for i in range(CHANNELS)}
    chips = {i for i, s in playing.items() if s is not None
             and s.get_raw() == samples(Cue.CHIP).tobytes()}
    assert chips <= set(range(10, 16))  # chips stay on their own six channels
    audio.play(Cue.BIG_WIN)  # a second celebration takes the other celebration channel
    second = pygame.mixer.Channel(1).get_sound()
    assert second is not None and second.get_raw() == samples(Cue.BIG_WIN).tobytes()
    assert first.get_raw() == jackpot


def test_without_a_sound_device_the_audio_is_silent_and_says_so_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("no available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    with caplog.at_level(logging.INFO, logger="etg.audio"):
        audio = Audio.open(Sound(volume=40, mute=False))
    assert [r.getMessage() for r in caplog.records] == [
        "sound off: no sound device (no available audio device)"]
    assert not audio.enabled and audio.volume == 40
    for cue in Cue:
        audio.play(cue)  # nothing, and no error
    audio.configure(90, mute=True)
    assert (audio.volume, audio.muted, audio.gain) == (90, True, 0.0)


def test_what_the_sound_library_prints_goes_to_the_log_not_stderr(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """Issue 26: with no sound card, ALSA wrote eight lines of its own on file descriptor 2."""
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")  # a real driver, on whatever card is there
    capfd.readouterr()
    with caplog.at_level(logging.INFO, logger="etg.audio"):
        Audio.open(Sound(volume=40, mute=False))
    pygame.mixer.quit()
    assert capfd.readouterr().err == ""


@pytest.mark.slow
def test_the_kiosk_starts_and_runs_without_a_sound_device(tmp_path: Path) -> None:
    config = k.config_copy(tmp_path)
    env = {**os.environ, "SDL_AUDIODRIVER": "no-such-driver", "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "etg", "run", "--headless", "--demo", "--frames",
                           "120", "--config", str(config), "--db", str(tmp_path / "t.db")],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "sound off" in line]
    assert len(lines) == 1 and "no sound device" in lines[0]


# --- the cues of a real round --------------------------------------------------------------------

# burn; spots 1-5; the dealer's red Ace (a Bonus Spin); three burned for the War; spot 1's War
# card; the dealer's War card
DEAL = ["2C", "AS", "AC", "KH", "5D", "9S", "AD", "3C", "3D", "3H", "QS", "JD"]
SEED = 23  # the first wheel draw of SeededSource(23): MINI JACKPOT on the Hot Spot, at seat 1

_KINDS: dict[Cue, type] = {Cue.CHIP: ChipFlight, Cue.DEAL: CardFlight, Cue.FLIP: CardFlight,
                           Cue.WIN: ChipFlight, Cue.BIG_WIN: BigWin, Cue.JACKPOT: Celebration}


@dataclass
class Recorder:
    """An Audio stand-in: each cue heard, when, and whether its animation started that frame."""

    app: App
    heard: list[tuple[float, Cue]]
    on_time: list[bool]

    def play(self, cue: Cue) -> None:
        self.heard.append((self.app.now, cue))
        self.on_time.append(self._started_this_frame(cue))

    def _started_this_frame(self, cue: Cue) -> bool:
        scene = self.app.base
        assert isinstance(scene, TableScene)
        if cue is Cue.TICK:
            spin = scene.presenter.spin()
            return spin is not None and spin.start <= self.app.now < spin.end
        return any(isinstance(a, _KINDS[cue]) and self._just(a, cue)
                   for a in scene.presenter.animations)

    def _just(self, animation: Animation, cue: Cue) -> bool:
        at = animation.start + (CARD_FLIGHT_S if cue is Cue.FLIP else 0.0)
        return self.app.now - FRAME_S < at <= self.app.now + 1e-9


def _round_with_a_war_and_a_bonus_spin(tmp_path: Path, big_win_multiple: int) -> Recorder:
    config = k.config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "sound.big_win_multiple", big_win_multiple)
    app = k.make_app(tmp_path, seed=SEED, config=config)
    recorder = Recorder(app, [], [])
    app.audio = recorder  # type: ignore[assignment]  # the presenter is given it just below
    app.replace_base(TableScene(app))
    table = app.table
    for seat in (1, 2):
        assert app.send(CashIn(seat, 20_000), "attendant") is None
    app.send(Shuffle(rigged_draw(table.state.paytable, DEAL), ShuffleReason.NEW_SHOE), "dealer")
    app.send(OpenBets(), "dealer")
    k.run_until(app, lambda: app.settled)
    # Seat 1: $5 Initial and $1 Tie on spot 1, and the $5 Bonus Spin, in one frame: one CHIP.
    for command in (PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(1, 1, BetKind.TIE, 100),
                    PlaceBonusSpin(1, 500)):
        assert app.send(command, "player") is None
    k.run_for(app, 0.2)
    assert app.send(PlaceWager(2, 3, BetKind.INITIAL, 500), "player") is None  # KH: it loses
    k.run_for(app, 0.2)
    app.send(CloseBets(), "dealer")
    app.send(Deal(), "dealer")
    k.run_until(app, lambda: table.state.phase is Phase.DECISIONS and app.settled)
    assert app.send(Decide(1, 1, Decision.WAR, 0), "player") is None
    app.send(WarDeal(), "dealer")
    k.run_until(app, lambda: table.state.phase is Phase.BONUS_SPIN and app.settled)
    app.send(table.spin_command(), "dealer")
    k.run_until(app, lambda: app.settled)
    assert table.state.phase is Phase.COMPLETE
    app.table.ledger.close()
    return recorder


D, F, C = Cue.DEAL, Cue.FLIP, Cue.CHIP

# What the round sounds like, ticks of the wheel aside.
EXPECTED = [
    C,  # seat 1's three wagers, placed in one frame
    C,  # seat 2's wager, 0.2 s later
    # six cards 0.2 s apart, each turning 0.45 s after it leaves the shoe
    D, D, D, F, D, F, D, F, D, F, F, F,
    # the settlement: seat 2's Initial to the tray, seat 1's Tie paid 10 to 1 (its $1 stake is all
    # that seat 1 settles in this step: the tied Initial waits for the decision)
    C, C, "tie win",
    C, D,  # seat 1 goes to War (the War wager's chips) and the dealer deals the War at once
    D, F, F,
    # the War settles: the Initial pushed (stake back, no winnings), the War wager won 1 to 1
    C, C, Cue.WIN,
    # the Bonus Spin: the $5 Community Pay first, then the MINI JACKPOT's celebration, its
    # payment after it; no WIN in a step with a JACKPOT
    C, Cue.JACKPOT, C,
]


@pytest.mark.parametrize("multiple", [20, 10])
def test_a_round_with_a_war_and_a_bonus_spin_sounds_as_it_plays(
        tmp_path: Path, multiple: int) -> None:
    # Seat 1's round reaches either multiple, but its progressive hit was its celebration:
    # no big-win fanfare after the JACKPOT's bells (etg.ui.presenter.BigWin).
    recorder = _round_with_a_war_and_a_bonus_spin(tmp_path, multiple)
    heard = [cue for _, cue in recorder.heard]
    assert [cue for cue in heard if cue is not Cue.TICK] == [
        Cue.WIN if cue == "tie win" else cue for cue in EXPECTED]
    assert all(recorder.on_time), [
        (at, cue) for (at, cue), ok in zip(recorder.heard, recorder.on_time, strict=True)
        if not ok]
    # The ticks all come while the wheel turns, between the War's sounds and the pays.
    first, last = heard.index(Cue.TICK), len(heard) - heard[::-1].index(Cue.TICK) - 1
    assert heard[first - 1] is Cue.WIN and heard[last + 1] is Cue.CHIP
    assert set(heard[first:last + 1]) == {Cue.TICK}


def test_one_tick_per_community_segment_passing_the_pointer(tmp_path: Path) -> None:
    app = k.make_app(tmp_path, seed=SEED)
    recorder = Recorder(app, [], [])
    app.audio = recorder  # type: ignore[assignment]
    scene = TableScene(app)
    app.replace_base(scene)
    wheel = scene.wheel
    bonus = app.table.state.paytable.bonus_spin
    assert wheel is not None and bonus is not None
    scene.presenter.push(app.table.state, [WheelStopped(WheelStops(3, 2, 4), "$50", "$500")])
    app.frame(FRAME_S, draw=False)
    spin = scene.presenter.spin()
    assert spin is not None and spin.start == app.now + SPIN_LEAD_S  # then it sets off
    passed, last = 0, None
    while app.now < spin.end:  # each frame of the spin, as the scene saw it
        segment = wheel.segment_under_pointer("community", app.now)
        passed += last is not None and segment != last
        last = segment
        app.frame(FRAME_S, draw=False)
    k.run_for(app, 1.0)  # at rest: no more ticks
    assert [cue for _, cue in recorder.heard] == [Cue.TICK] * passed
    assert passed > len(bonus.community_ring)  # more than a whole turn's worth
    assert all(recorder.on_time)
    assert wheel.segment_under_pointer("community", app.now) == 3
    app.table.ledger.close()


def test_chip_sounds_closer_than_40_ms_are_one(tmp_path: Path) -> None:
    app = k.make_app(tmp_path)
    recorder = Recorder(app, [], [])
    app.audio = recorder  # type: ignore[assignment]
    app.replace_base(TableScene(app))
    for seat in (1, 2, 3):
        app.send(CashIn(seat, 20_000), "attendant")
    assert app.send(app.table.shuffle_command(), "dealer") is None
    assert app.send(OpenBets(), "dealer") is None
    k.run_until(app, lambda: app.settled)
    for seat in (1, 2, 3):  # three wagers in one frame
        assert app.send(PlaceWager(seat, seat, BetKind.INITIAL, 500), "player") is None
    app.frame(FRAME_S, draw=False)  # one sound for the three chip flights
    app.frame(FRAME_S, draw=False)
    assert app.send(PlaceWager(1, 1, BetKind.INITIAL, 500), "player") is None
    app.frame(FRAME_S, draw=False)  # 33 ms after it: part of the same rattle
    app.frame(FRAME_S, draw=False)
    app.frame(FRAME_S, draw=False)
    assert app.send(PlaceWager(2, 2, BetKind.INITIAL, 500), "player") is None
    app.frame(FRAME_S, draw=False)  # 83 ms after it: a sound of its own
    assert [cue for _, cue in recorder.heard] == [Cue.CHIP, Cue.CHIP]
    assert all(recorder.on_time)
    assert recorder.heard[1][0] - recorder.heard[0][0] == pytest.approx(5 * FRAME_S)
    app.table.ledger.close()


def test_the_app_opens_the_mixer_with_the_cabinets_sound(tmp_path: Path) -> None:
    config = k.config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "sound.volume", 40)
    app = k.make_app(tmp_path, config=config)
    assert isinstance(app.audio, Audio) and app.audio.enabled
    assert (app.audio.volume, app.audio.muted) == (40, False)
    assert _volumes() == [_level(0.4 ** 2)] * CHANNELS
    scene = app.base
    assert isinstance(scene, TableScene) and scene.presenter.audio is app.audio
    assert scene.presenter.big_win_multiple == 20
    app.table.ledger.close()

