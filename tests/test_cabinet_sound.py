"""The cabinet's ``sound:`` section: read strictly, defaulted when absent, edited in place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from etg.config.cabinet import Sound
from etg.config.cabinet_edit import set_cabinet_value
from etg.config.loader import load_cabinet
from etg.config.places import shipped_config_dir
from etg.config.problems import ConfigError

HEAD = "active_paytable: paytables/md5.yaml\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with one paytable, as the current directory (messages name cabinet.yaml)."""
    (tmp_path / "paytables").mkdir()
    shutil.copy(shipped_config_dir() / "paytables" / "maryland-community-5.yaml",
                tmp_path / "paytables" / "md5.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _load(text: str) -> Sound:
    Path("cabinet.yaml").write_text(HEAD + text, encoding="utf-8")
    return load_cabinet(Path("cabinet.yaml")).sound


def test_the_shipped_cabinet_plays_at_70_unmuted_with_a_20x_fanfare() -> None:
    assert load_cabinet(shipped_config_dir() / "cabinet.yaml").sound == Sound(70, False, 20)


def test_an_old_cabinet_without_sound_takes_the_defaults(folder: Path) -> None:
    assert _load("") == Sound(volume=70, mute=False, big_win_multiple=20)


def test_a_section_with_some_keys_keeps_the_defaults_of_the_others(folder: Path) -> None:
    assert _load("sound: {mute: true}\n") == Sound(volume=70, mute=True, big_win_multiple=20)
    assert _load("sound:\n  volume: 0\n  big_win_multiple: 2\n") == Sound(0, False, 2)
    assert _load("sound:\n  volume: 100\n  big_win_multiple: 1000\n") == Sound(100, False, 1000)


@pytest.mark.parametrize(("text", "message"), [
    ("sound:\n  volume: 101\n", "cabinet.yaml:3:11: sound.volume: must be between 0 and 100, "
                                "not 101"),
    ("sound:\n  volume: -5\n", "cabinet.yaml:3:11: sound.volume: must be between 0 and 100, "
                               "not -5"),
    ("sound:\n  volume: loud\n", "cabinet.yaml:3:11: sound.volume: expected an integer, "
                                 "got 'loud'"),
    ("sound:\n  volume: 7.5\n", "cabinet.yaml:3:11: sound.volume: expected an integer, got 7.5"),
    ("sound:\n  volume: true\n", "cabinet.yaml:3:11: sound.volume: expected an integer, "
                                 "got true"),
    ("sound:\n  mute: 1\n", "cabinet.yaml:3:9: sound.mute: expected true or false, got 1"),
    ("sound:\n  mute: yes\n", "cabinet.yaml:3:9: sound.mute: expected true or false, got 'yes'"),
    ("sound:\n  mute: null\n", "cabinet.yaml:3:9: sound.mute: expected true or false, got null"),
    ("sound:\n  big_win_multiple: 1\n", "cabinet.yaml:3:21: sound.big_win_multiple: must be "
                                        "between 2 and 1000 times the stake, not 1"),
    ("sound:\n  big_win_multiple: 1001\n", "cabinet.yaml:3:21: sound.big_win_multiple: must be "
                                           "between 2 and 1000 times the stake, not 1001"),
    ("sound:\n  volum: 50\n", "cabinet.yaml:3:3: sound.volum: unknown key 'volum'; "
                              "did you mean 'volume'?"),
    ("sound: {volume: 100, extra: 1}\n", "cabinet.yaml:2:22: sound.extra: unknown key 'extra'; "
                                         "valid keys: volume, mute, big_win_multiple"),
    ("sound: loud\n", "cabinet.yaml:2:8: sound: expected a mapping (volume, mute, "
                      "big_win_multiple), got 'loud'"),
    ("sound:\n", "cabinet.yaml:2:7: sound: expected a mapping (volume, mute, big_win_multiple), "
                 "got null"),
])
def test_each_bad_sound_value_is_refused_with_its_message(folder: Path, text: str,
                                                          message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(text)
    assert str(caught.value) == message


# --- writing sound.volume and sound.mute -------------------------------------------------------

def _shipped_copy(folder: Path) -> Path:
    cabinet = folder / "cabinet.yaml"
    text = (shipped_config_dir() / "cabinet.yaml").read_text(encoding="utf-8")
    cabinet.write_text(text.replace("maryland-community-5.yaml", "md5.yaml"), encoding="utf-8")
    return cabinet


def test_a_nested_value_changes_its_one_line_and_keeps_its_comment(folder: Path) -> None:
    cabinet = _shipped_copy(folder)
    before = cabinet.read_text(encoding="utf-8").splitlines(keepends=True)
    set_cabinet_value(cabinet, "sound.volume", 80)
    set_cabinet_value(cabinet, "sound.mute", True)
    after = cabinet.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = [(b, a) for b, a in zip(before, after, strict=True) if a != b]
    assert [a for _, a in changed] == [
        "  volume: 80               # 0 (silent) to 100; the operator menu's SOUND page "
        "changes it\n",
        "  mute: true               # true silences the table; the operator menu toggles it\n",
    ]
    assert load_cabinet(cabinet).sound == Sound(80, True, 20)
    set_cabinet_value(cabinet, "sound.volume", 70)
    set_cabinet_value(cabinet, "sound.mute", False)
    assert cabinet.read_text(encoding="utf-8").splitlines(keepends=True) == before


def test_an_old_file_gets_the_section_then_its_keys(folder: Path) -> None:
    cabinet = folder / "cabinet.yaml"
    cabinet.write_bytes(b"active_paytable: paytables/md5.yaml  # the game\r\nlanguage: en")
    set_cabinet_value(cabinet, "sound.mute", True)
    assert cabinet.read_bytes() == (b"active_paytable: paytables/md5.yaml  # the game\r\n"
                                    b"language: en\r\nsound:\r\n  mute: true\r\n")
    set_cabinet_value(cabinet, "sound.volume", 30)
    assert cabinet.read_bytes().endswith(b"sound:\r\n  mute: true\r\n  volume: 30\r\n")
    assert load_cabinet(cabinet).sound == Sound(30, True, 20)


def test_a_key_is_added_inside_its_section_not_after_the_next_one(folder: Path) -> None:
    cabinet = folder / "cabinet.yaml"
    cabinet.write_text(HEAD + "sound:\n    mute: false   # quiet?\nlanguage: en\n",
                       encoding="utf-8")
    set_cabinet_value(cabinet, "sound.volume", 40)
    assert cabinet.read_text(encoding="utf-8") == (
        HEAD + "sound:\n    mute: false   # quiet?\n    volume: 40\nlanguage: en\n")


def test_an_invalid_volume_leaves_the_file_untouched(folder: Path) -> None:
    cabinet = _shipped_copy(folder)
    original = cabinet.read_bytes()
    line = next(n for n, text in enumerate(original.decode().splitlines(), start=1)
                if text.startswith("  volume: "))
    with pytest.raises(ConfigError) as caught:
        set_cabinet_value(cabinet, "sound.volume", 110)
    assert str(caught.value) == (f"{cabinet}:{line}:11: sound.volume: must be between 0 and "
                                 f"100, not 110")
    assert cabinet.read_bytes() == original


def test_a_one_line_section_is_edited_but_not_extended(folder: Path) -> None:
    cabinet = folder / "cabinet.yaml"
    cabinet.write_text(HEAD + "sound: {volume: 50}\n", encoding="utf-8")
    set_cabinet_value(cabinet, "sound.volume", 60)
    assert cabinet.read_text(encoding="utf-8") == HEAD + "sound: {volume: 60}\n"
    with pytest.raises(ValueError, match="'sound' is written on one line; add 'mute' to it"):
        set_cabinet_value(cabinet, "sound.mute", True)
