"""The table's sounds (SPEC §6: "sound for chips, cards, wheel, wins").

Every sound is made here by code, with NumPy, once per process: no sound
file is bundled, so none needs a licence. :class:`Audio` owns
``pygame.mixer``: it opens it at 44.1 kHz, 16-bit stereo, turns the samples
into mixer sounds and plays a :class:`Cue` on a channel of the cue's own
group, so a burst of chips never cuts off a jackpot's bells (each group
steals only its own oldest channel). Volume (0–100) and mute come from the
cabinet's ``sound:`` section and apply to every channel at once.

Nothing here is synthesised or loaded while frames run: ``play`` only hands
a ready sound to SDL's mixer, which mixes in its own thread. A cabinet with
no sound device plays silently: :meth:`Audio.open` logs one line and
returns an Audio whose ``play`` does nothing.

``python -m etg.ui.audio FOLDER`` writes every sound to a WAV file there, to
listen to them or measure them (``sox chip.wav -n stat``).
"""

from __future__ import annotations

import functools
import logging
import sys
import wave
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Protocol

import numpy as np
import pygame

from etg.config.cabinet import MAX_VOLUME, Sound
from etg.ui import c_stderr

log = logging.getLogger("etg.audio")

RATE = 44_100
"""Samples per second of every sound and of the mixer."""

_FULL_SCALE = 32_767
_BUFFER = 512  # frames of mixer buffer: about 12 ms from play() to the speaker


class Cue(Enum):
    """Something that happens on the table and has a sound."""

    CHIP = "chip"  # chips land on a spot, go back to a seat or to the dealer's tray
    DEAL = "deal"  # a card slides out of the shoe
    FLIP = "flip"  # a card turns face up
    TICK = "tick"  # a Community-ring segment passes the wheel's pointer
    WIN = "win"  # a seat is paid winnings
    BIG_WIN = "big_win"  # winnings of many times the stake
    JACKPOT = "jackpot"  # a progressive meter is awarded


LENGTH_S: dict[Cue, float] = {
    Cue.CHIP: 0.13, Cue.DEAL: 0.24, Cue.FLIP: 0.16, Cue.TICK: 0.05, Cue.WIN: 0.8,
    Cue.BIG_WIN: 2.0, Cue.JACKPOT: 2.4,
}
"""How long each sound lasts, in seconds."""

PEAK: dict[Cue, float] = {
    Cue.CHIP: 0.35, Cue.DEAL: 0.3, Cue.FLIP: 0.32, Cue.TICK: 0.22, Cue.WIN: 0.5,
    Cue.BIG_WIN: 0.6, Cue.JACKPOT: 0.62,
}
"""Each sound's loudest sample as a fraction of full scale: its level in the mix."""


class CuePlayer(Protocol):
    """Whatever plays cues: the :class:`Audio`, or a test's recorder."""

    def play(self, cue: Cue) -> None: ...


# The channel budget: each group of cues has mixer channels of its own, so the
# wins' channels are never taken by chips or cards.
_GROUPS: dict[Cue, tuple[int, ...]] = {
    cue: channels
    for cues, channels in (((Cue.JACKPOT, Cue.BIG_WIN), (0, 1)), ((Cue.WIN,), (2, 3)),
                           ((Cue.TICK,), (4, 5)), ((Cue.DEAL, Cue.FLIP), (6, 7, 8, 9)),
                           ((Cue.CHIP,), (10, 11, 12, 13, 14, 15)))
    for cue in cues
}
CHANNELS = 16


class Audio:
    """The mixer and the table's sounds; silent when there is no sound device."""

    def __init__(self, sounds: dict[Cue, pygame.mixer.Sound] | None, volume: int = 70,
                 mute: bool = False) -> None:
        """Use :meth:`open`; ``sounds`` None makes a silent Audio."""
        self._sounds = sounds or {}
        self._channels = ([pygame.mixer.Channel(i) for i in range(CHANNELS)]
                          if sounds is not None else [])
        self._started = [0] * len(self._channels)  # when each channel last started, in plays
        self._plays = 0
        self.volume = volume
        self.muted = mute
        self._apply()

    @classmethod
    def open(cls, settings: Sound) -> Audio:
        """The mixer opened with ``settings``; a silent Audio (one line logged) if it cannot be."""
        try:
            _open_mixer()
            sounds = {cue: pygame.mixer.Sound(buffer=samples(cue).tobytes()) for cue in Cue}
        except (pygame.error, NotImplementedError) as error:  # no device, or no SDL_mixer
            log.warning("sound off: no sound device (%s)", error)
            return cls(None, settings.volume, settings.mute)
        return cls(sounds, settings.volume, settings.mute)

    @classmethod
    def silent(cls) -> Audio:
        """An Audio that plays nothing (a scene drawn for a test, a cabinet without sound)."""
        return cls(None)

    @property
    def enabled(self) -> bool:
        """True if there is a mixer to play on (whatever the volume and mute)."""
        return bool(self._channels)

    @property
    def gain(self) -> float:
        """The channels' volume, 0.0 to 1.0: ``(volume / 100)²``, zero when muted.

        The square is the usual audio taper: each step of 10 sounds about as
        big a change as the one before it, where a straight line would crowd
        the audible change into the lowest steps.
        """
        return 0.0 if self.muted else (self.volume / MAX_VOLUME) ** 2

    def configure(self, volume: int, mute: bool) -> None:
        """A new volume (0–100) and mute, applied at once to every channel."""
        if not 0 <= volume <= MAX_VOLUME:
            raise ValueError(f"volume must be between 0 and {MAX_VOLUME}, not {volume}")
        self.volume, self.muted = volume, mute
        self._apply()

    def play(self, cue: Cue) -> None:
        """Start ``cue`` on a channel of its group (stealing the group's oldest if all are busy)."""
        if not self._channels or self.gain == 0.0:
            return
        group = _GROUPS[cue]
        free = [i for i in group if not self._channels[i].get_busy()]
        index = free[0] if free else min(group, key=self._started.__getitem__)
        self._plays += 1
        self._started[index] = self._plays
        self._channels[index].play(self._sounds[cue])

    def _apply(self) -> None:
        gain = self.gain
        for channel in self._channels:
            channel.set_volume(gain)


def samples(cue: Cue) -> np.ndarray:
    """The sound of ``cue``: int16 samples, shape (frames, 2), at :data:`RATE` (made once)."""
    return _made(cue)


def write_wavs(folder: Path) -> list[Path]:
    """Every sound as a 16-bit stereo WAV file ``<cue>.wav`` in ``folder``; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for cue in Cue:
        path = folder / f"{cue.value}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(2)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(samples(cue).tobytes())
        written.append(path)
    return written


def _open_mixer() -> None:
    """Open the mixer at 44.1 kHz, 16-bit stereo exactly (SDL converts for the device)."""
    wanted = (RATE, -16, 2)
    if pygame.mixer.get_init() not in (None, wanted):
        pygame.mixer.quit()
    if pygame.mixer.get_init() is None:
        with c_stderr.to_the_log(log, "sound device"):
            pygame.mixer.init(RATE, -16, 2, _BUFFER, allowedchanges=0)
    pygame.mixer.set_num_channels(CHANNELS)
    pygame.mixer.set_reserved(CHANNELS)  # a stray Sound.play() elsewhere never takes one


# --- synthesis ------------------------------------------------------------------------------------
# Each sound is a mono float signal, shaped by a raised-cosine fade at both ends
# (so the first and last samples are exactly zero: no click), scaled to its PEAK
# and written to both channels.

@functools.cache
def _made(cue: Cue) -> np.ndarray:
    n = round(LENGTH_S[cue] * RATE)
    signal = _SYNTHS[cue](n)
    fade_in, fade_out = _FADES[cue]
    signal = signal * _envelope(n, fade_in, fade_out)
    signal *= PEAK[cue] * _FULL_SCALE / float(np.max(np.abs(signal)))
    mono = np.round(signal).astype(np.int16)
    out = np.column_stack((mono, mono))
    out.setflags(write=False)
    return out


# Single precision, where NumPy's sin and exp are vectorised (thirty times faster than
# double): the seven sounds are made in a few milliseconds at start-up.

def _times(n: int) -> np.ndarray:
    """Seconds of each of ``n`` samples (float32, a view of one shared array)."""
    return _clock()[1][:n]


def _sine(hz: float, n: int) -> np.ndarray:
    """``n`` samples of a sine at ``hz`` (float32; phase kept in double, then wrapped)."""
    return _wrapped_sin(_clock()[0][:n] * (hz / RATE))


@functools.cache
def _clock() -> tuple[np.ndarray, np.ndarray]:
    """Sample numbers (float64) and their seconds (float32), as long as the longest sound."""
    count = np.arange(round(max(LENGTH_S.values()) * RATE), dtype=np.float64)
    return count, (count / RATE).astype(np.float32)


def _wrapped_sin(cycles: np.ndarray) -> np.ndarray:
    """sin(2π · ``cycles``) in float32, the whole cycles taken off first in double precision."""
    fraction = (cycles - np.floor(cycles)).astype(np.float32)
    out: np.ndarray = np.sin(np.float32(2 * np.pi) * fraction)
    return out


def _envelope(n: int, fade_in_s: float, fade_out_s: float) -> np.ndarray:
    """1.0, with raised-cosine ramps from exactly 0 at the first and to 0 at the last sample."""
    env = np.ones(n)
    a, r = max(2, round(fade_in_s * RATE)), max(2, round(fade_out_s * RATE))
    env[:a] = 0.5 - 0.5 * np.cos(np.pi * np.arange(a) / (a - 1))
    env[n - r:] = 0.5 + 0.5 * np.cos(np.pi * np.arange(r) / (r - 1))
    return env


def _noise(n: int, seed: int) -> np.ndarray:
    """White noise, the same every run (a fixed seed: the sounds never change)."""
    return np.random.default_rng(seed).standard_normal(n)


def _band(signal: np.ndarray, low_hz: float, high_hz: float) -> np.ndarray:
    """``signal`` through a smooth band-pass (Gaussian edges in the spectrum)."""
    spectrum = np.fft.rfft(signal)
    f = np.fft.rfftfreq(len(signal), 1 / RATE)
    gain = np.ones_like(f)
    gain *= np.where(f < low_hz, np.exp(-(((f - low_hz) / (0.35 * low_hz)) ** 2)), 1.0)
    gain *= np.where(f > high_hz, np.exp(-(((f - high_hz) / (0.35 * high_hz)) ** 2)), 1.0)
    return np.fft.irfft(spectrum * gain, len(signal))


def _ring(n: int, at_s: float, partials: list[tuple[float, float, float]],
          attack_s: float = 0.0) -> np.ndarray:
    """Damped sines starting at ``at_s``: each partial is (hertz, amplitude, decay seconds).

    ``attack_s`` rounds the strike's onset (a bell, not a click).
    """
    out = np.zeros(n, np.float32)
    start = round(at_s * RATE)
    for hz, amplitude, tau in partials:
        stop = min(n, start + round(_RING_TAUS * tau * RATE))  # then it is below -60 dB
        t = _times(stop - start)
        out[start:stop] += np.exp(t * np.float32(-1 / tau)) * _sine(hz, stop - start) * amplitude
    if attack_s > 0:
        a = min(n - start, round(attack_s * RATE))
        out[start:start + a] *= np.linspace(0.0, 1.0, a, dtype=np.float32)
    return out


_RING_TAUS = 7


def _chip(n: int) -> np.ndarray:
    """Two clay chips meeting, then settling: inharmonic clicks that die in milliseconds."""
    out = np.zeros(n, np.float32)
    for at, level, shift in ((0.0, 1.0, 1.0), (0.038, 0.55, 1.06), (0.071, 0.22, 0.97)):
        start = round(at * RATE)
        click = _ring(n - start, 0.0, [(2750 * shift, 1.0, 0.012), (4130 * shift, 0.7, 0.009),
                                       (5620 * shift, 0.4, 0.007), (7350 * shift, 0.2, 0.005)])
        burst = _band(_noise(n - start, 11 + start), 2000, 8000)
        click += 0.5 * burst * np.exp(-_times(n - start) / 0.004)
        out[start:] += level * click * _envelope(n - start, 0.0008, 0.002)
    return out


def _deal(n: int) -> np.ndarray:
    """A card sliding over felt: soft noise that swells and fades, rising in pitch."""
    t = _times(n)
    low, high = _band(_noise(n, 21), 500, 2500), _band(_noise(n, 22), 2500, 7000)
    sweep = np.clip(t / t[-1], 0.0, 1.0)
    peak = 0.07
    swell = (t / peak) ** 2 * np.exp(2 * (1 - t / peak))
    out: np.ndarray = swell * ((1 - sweep) * low + sweep * 0.8 * high)
    return out


def _flip(n: int) -> np.ndarray:
    """A card turned down on the felt: a short papery snap over a soft low thump."""
    t = _times(n)
    snap = _band(_noise(n, 31), 700, 3500) * np.exp(-t / 0.012)
    out: np.ndarray = snap + 0.6 * np.exp(-t / 0.03) * _sine(190, n)
    return out


def _tick(n: int) -> np.ndarray:
    """A flapper passing a peg of the wheel: a short, dry plastic tock."""
    t = _times(n)
    body = _ring(n, 0.0, [(1850, 1.0, 0.005), (3300, 0.5, 0.003), (900, 0.4, 0.008)])
    return body + 0.3 * _band(_noise(n, 41), 1000, 5000) * np.exp(-t / 0.0015)


def _bell_notes(n: int, notes: list[tuple[float, float, float]], tau: float,
                ratios: tuple[tuple[float, float], ...]) -> np.ndarray:
    """Bell strikes: (start seconds, fundamental hertz, level), each with the partial ``ratios``."""
    out = np.zeros(n, np.float32)
    rung: dict[float, np.ndarray] = {}  # one ringing bell per pitch, struck again and again
    for at, hz, level in notes:
        if hz not in rung:
            rung[hz] = _ring(n, 0.0, [(hz * r, a, tau / (1 + 0.7 * k))
                                      for k, (r, a) in enumerate(ratios)], attack_s=0.003)
        start = round(at * RATE)
        out[start:] += level * rung[hz][: n - start]
    return out


_CHIME = ((1.0, 1.0), (2.0, 0.3), (3.0, 0.12), (4.2, 0.05))
_BELL = ((1.0, 1.0), (2.0, 0.45), (2.76, 0.25), (5.4, 0.08))
C5, E5, G5, C6, E6, G6 = 523.25, 659.26, 783.99, 1046.5, 1318.5, 1567.98


def _win(n: int) -> np.ndarray:
    """A bright rising chime: C, E, G, C, each a soft bell that rings on."""
    notes = [(i * 0.065, hz, 1.0 - 0.08 * i) for i, hz in enumerate((C5, E5, G5, C6))]
    return _bell_notes(n, notes, 0.32, _CHIME)


def _brass(n: int, at_s: float, end_s: float, hz: float, level: float) -> np.ndarray:
    """A soft brass note: eight harmonics, a 30 ms swell, a gentle vibrato, held to ``end_s``."""
    out = np.zeros(n, np.float32)
    start, stop = round(at_s * RATE), min(n, round(end_s * RATE))
    t = _times(stop - start)
    vibrato = 1 + 0.004 * _sine(5.5, len(t)) * np.clip(t / 0.3, 0, 1)
    cycles = np.cumsum(vibrato, dtype=np.float64) * (hz / RATE)
    phase = np.float32(2 * np.pi) * (cycles - np.floor(cycles)).astype(np.float32)
    tone = np.zeros(len(t), np.float32)
    for k in range(1, 9):
        tone += np.sin(np.float32(k) * phase) / np.float32(k ** 1.3)
    shape = np.clip(t / 0.03, 0, 1) * np.clip((stop - start) / RATE - t, 0, 0.04) / 0.04
    out[start:stop] = level * tone * shape
    return out


def _big_win(n: int) -> np.ndarray:
    """A fanfare: G, C, E up to a held G, then the whole C major chord under a sparkle."""
    out = np.zeros(n, np.float32)
    for at, end, hz in ((0.0, 0.16, 392.0), (0.15, 0.31, C5), (0.3, 0.46, E5), (0.45, 0.78, G5)):
        out += _brass(n, at, end, hz, 1.0)
    for hz, level in ((C5, 0.6), (E5, 0.5), (G5, 0.5), (C6, 0.4)):
        out += _brass(n, 0.75, LENGTH_S[Cue.BIG_WIN], hz, level) * _decay(n, 0.75, 1.1)
    sparkle = [(0.75 + 0.09 * i, hz, 0.25) for i, hz in enumerate((C6 * 2, E6 * 2, G6 * 2))]
    out += _bell_notes(n, sparkle, 0.35, _CHIME)
    return _band(out, 60, 5000)  # no brass edge above 5 kHz: bright, not harsh


def _decay(n: int, at_s: float, tau: float) -> np.ndarray:
    """1.0 until ``at_s``, then falling away with time constant ``tau``."""
    t = _times(n)
    return np.where(t < at_s, 1.0, np.exp(-(t - at_s) / tau))


def _jackpot(n: int) -> np.ndarray:
    """Bells ringing out: a fast peal up and down the major chord, then one great chord."""
    pattern = (G5, C6, E6, G6, E6, C6)
    strikes = [(i * 0.11, pattern[i % len(pattern)], 0.8) for i in range(14)]
    strikes += [(1.6, hz, 1.0) for hz in (C5, C6, E6, G6)]
    return _bell_notes(n, strikes, 0.5, _BELL)


_SYNTHS: dict[Cue, Callable[[int], np.ndarray]] = {
    Cue.CHIP: _chip, Cue.DEAL: _deal, Cue.FLIP: _flip, Cue.TICK: _tick, Cue.WIN: _win,
    Cue.BIG_WIN: _big_win, Cue.JACKPOT: _jackpot,
}
_FADES: dict[Cue, tuple[float, float]] = {  # (fade in, fade out) in seconds
    Cue.CHIP: (0.001, 0.02), Cue.DEAL: (0.01, 0.04), Cue.FLIP: (0.001, 0.03),
    Cue.TICK: (0.0005, 0.01), Cue.WIN: (0.002, 0.2), Cue.BIG_WIN: (0.005, 0.4),
    Cue.JACKPOT: (0.002, 0.5),
}


if __name__ == "__main__":
    for written in write_wavs(Path(sys.argv[1] if len(sys.argv) > 1 else ".")):
        print(written)
