"""The configuration layer refuses every broken file with exact, located messages."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml

from etg.config import (
    Cabinet,
    ConfigError,
    Display,
    Problem,
    default_config_dir,
    load_cabinet,
    load_paytable,
)
from etg.config.places import shipped_config_dir
from etg.config.validation import (
    did_you_mean,
    field_names,
    hint_at,
    unknown_key_message,
    validate,
)
from etg.config.yaml_source import Position, parse_yaml
from etg.core.cards import Colour
from etg.core.paytable import Limit, Paytable, ProgressiveLevel, Violation

REPO = Path(__file__).resolve().parent.parent
BAD = Path(__file__).resolve().parent / "data" / "paytables" / "bad"
EXPECTED: dict[str, list[str]] = yaml.safe_load((BAD / "EXPECTED.yaml").read_text("utf-8"))
MD5 = shipped_config_dir() / "paytables" / "maryland-community-5.yaml"


# --- the broken paytables, data-driven -------------------------------------------------------

def test_every_bad_file_has_its_expected_messages() -> None:
    files = {path.name for path in BAD.glob("*.yaml")} - {"EXPECTED.yaml"}
    assert files == set(EXPECTED)
    assert len(files) >= 18
    # Bonus Spin Xtreme and Progressive Payout sections: one defect per file
    assert len({name for name in files if name.startswith(("bonus-", "progressive-payout-"))}) >= 14


def refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> list[str]:
    """Write ``text`` as ``name`` in a temporary folder, load it, return the refusal's lines."""
    (tmp_path / name).write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)  # so that FILE in each message is the bare name
    with pytest.raises(ConfigError) as caught:
        load_paytable(name)
    return str(caught.value).splitlines()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_paytable_is_refused_exactly(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)  # so that FILE in each message is the bare name
    with pytest.raises(ConfigError) as caught:
        load_paytable(Path(name))
    assert str(caught.value).splitlines() == EXPECTED[name]
    assert [str(p) for p in caught.value.problems] == EXPECTED[name]


def test_python_tag_is_refused_without_being_executed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = BAD / "python-tag.yaml"
    assert '!!python/object/apply:os.system ["touch etg-python-tag-executed"]' in source.read_text(
        "utf-8"
    )
    shutil.copy(source, tmp_path / "python-tag.yaml")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_paytable("python-tag.yaml")
    assert str(caught.value) == (
        "python-tag.yaml:5:7: name: unsupported YAML tag '!!python/object/apply:os.system'")
    assert not (tmp_path / "etg-python-tag-executed").exists()


# --- files that cannot be read ----------------------------------------------------------------

def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as caught:
        load_paytable(path)
    assert str(caught.value) == f"{path}:1:1: <root>: cannot read the file: no such file"


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_paytable(tmp_path)
    assert str(caught.value) == f"{tmp_path}:1:1: <root>: cannot read the file: it is a directory"


def test_config_error_is_a_value_error_carrying_problems() -> None:
    error = ConfigError([Problem("f.yaml", 9, 2, "b", "second"), Problem("f.yaml", 3, 1, "a", "first")])
    assert isinstance(error, ValueError)
    assert error.problems == [Problem("f.yaml", 3, 1, "a", "first"),
                              Problem("f.yaml", 9, 2, "b", "second")]
    assert str(error) == "f.yaml:3:1: a: first\nf.yaml:9:2: b: second"


# --- every problem of a file at once, by line ---------------------------------------------------

def _edited(old: str, new: str, text: str | None = None) -> str:
    text = MD5.read_text("utf-8") if text is None else text
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_all_problems_are_reported_sorted_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _edited("id: md-community-5", "id: 5")
    text = _edited("  decks: 6 ", "  decks: 6\n  decks: 8 ", text)
    text = _edited("  auto_open: false", "  auto_open: false\n  autoopen: true", text)
    text = _edited("war: {pays: 1, to: 1}", "war: {pays: one, to: 1}", text)
    assert refusal(tmp_path, monkeypatch, "many.yaml", text) == [
        "many.yaml:4:5: id: expected a string, got 5; quote it ('5') if it is meant as text",
        "many.yaml:10:3: shoe.decks: duplicate key 'decks' (first at line 9)",
        "many.yaml:27:15: payouts.war.pays: expected an integer, got 'one'",
        "many.yaml:37:3: timers.autoopen: unknown key 'autoopen'; did you mean 'auto_open'?",
    ]


def test_rules_are_checked_once_types_are_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _edited("  decks: 6 ", "  decks: 5 ")
    text = _edited("  betting_s: 20", "  betting_s: 601", text)
    assert refusal(tmp_path, monkeypatch, "rules.yaml", text) == [
        "rules.yaml:9:10: shoe.decks: maryland allows 6 or 8 decks, not 5",
        "rules.yaml:33:14: timers.betting_s: must be between 1 and 600 seconds, not 601",
    ]


def test_a_rule_that_trips_still_refuses_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "unit-zero.yaml").write_text(_edited("unit_cents: 100 ", "unit_cents: 0 "), "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_paytable("unit-zero.yaml")
    assert "unit-zero.yaml:" in str(caught.value)


def test_unit_zero_is_reported_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "unit-zero.yaml").write_text(_edited("unit_cents: 100 ", "unit_cents: 0 "), "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_paytable("unit-zero.yaml")
    assert str(caught.value) == (
        "unit-zero.yaml:16:13: unit_cents: must be a positive even number of cents so that half "
        "a wager is exact (MD Ch. 9 E(1)), not 0")


def test_loaded_paytable_carries_path_and_hash_of_the_bytes() -> None:
    loaded = load_paytable(MD5)
    assert loaded.path == MD5
    assert loaded.sha256 == hashlib.sha256(MD5.read_bytes()).hexdigest()
    assert isinstance(loaded.paytable, Paytable)
    assert loaded.paytable.limits.initial == Limit(500, 50000)


# --- "did you mean" ---------------------------------------------------------------------------

def test_did_you_mean_finds_the_typo() -> None:
    fields = field_names(Paytable, ())
    assert did_you_mean("max_spot_per_seat", fields) == "max_spots_per_seat"
    assert did_you_mean("jurisdicton", fields) == "jurisdiction"
    assert did_you_mean("colour", ("min_cents", "max_cents")) is None


def test_unknown_key_message_suggests_or_lists() -> None:
    assert unknown_key_message("min_cent", ("min_cents", "max_cents")) == (
        "unknown key 'min_cent'; did you mean 'min_cents'?")
    assert unknown_key_message("colour", ("min_cents", "max_cents")) == (
        "unknown key 'colour'; valid keys: min_cents, max_cents")


def test_field_names_walk_the_dataclasses() -> None:
    assert field_names(Paytable, ("limits", "initial")) == ("min_cents", "max_cents")
    assert field_names(Paytable, ("payouts", "war_tie")) == ("pays", "to")
    assert field_names(Paytable, ("spots",)) == ()
    assert field_names(Paytable, ("no_such_key",)) == ()
    assert field_names(Cabinet, ("display",)) == ("index", "width", "height", "fullscreen")
    assert hint_at(Paytable, ("shoe", "penetration_min")) is float
    assert hint_at(Cabinet, ("database",)) == str | None


def test_field_names_walk_optional_sections_lists_and_tuples() -> None:
    segment = ("bonus_spin", "community_ring", 3)
    assert field_names(Paytable, segment) == (
        "symbol", "weight", "pays_cents", "progressive", "meter_percent")
    assert field_names(Paytable, ("bonus_spin", "trigger", 0)) == ("rank", "colour")
    assert field_names(Paytable, ("progressive_payout", "pays", "tie")) == (
        "pays", "to", "meter_percent")
    assert hint_at(Paytable, (*segment, "pays_cents")) == tuple[int, ...] | None
    assert hint_at(Paytable, (*segment, "pays_cents", 1)) is int
    assert hint_at(Paytable, (*segment, "progressive")) == ProgressiveLevel | None
    assert hint_at(Paytable, ("bonus_spin", "trigger", 0, "colour")) is Colour
    assert hint_at(Paytable, ("bonus_spin", "secondary", "ceiling_cents")) == int | None
    assert hint_at(Paytable, ("progressive_payout", "envy_cents", "tie")) is int


# --- locations of keys and values -------------------------------------------------------------

NESTED = b"""\
# a comment line
top:
  inner:
    leaf: 1
  items:
    - name: a
      weight: 2
    - {name: b, weight: 3}
"""


def test_positions_of_nested_keys_and_list_items() -> None:
    document = parse_yaml(NESTED, "nested.yaml")
    keys, values = document.locations.keys, document.locations.values
    assert keys[("top",)] == Position(2, 1)
    assert keys[("top", "inner", "leaf")] == Position(4, 5)
    assert values[("top", "inner", "leaf")] == Position(4, 11)
    assert values[("top", "items", 0)] == Position(6, 7)
    assert keys[("top", "items", 0, "weight")] == Position(7, 7)
    assert values[("top", "items", 0, "weight")] == Position(7, 15)
    assert values[("top", "items", 1)] == Position(8, 7)
    assert keys[("top", "items", 1, "weight")] == Position(8, 17)
    assert values[("top", "items", 1, "weight")] == Position(8, 25)


def test_absent_paths_are_placed_at_their_nearest_ancestor() -> None:
    locations = parse_yaml(NESTED, "nested.yaml").locations
    assert locations.of_value(("top", "inner", "missing")) == Position(4, 5)
    assert locations.of_value(("top", "items", 5, "name")) == Position(6, 5)
    assert locations.of_value(("elsewhere",)) == Position(2, 1)
    assert locations.of_key(("top", "items", 1)) == Position(8, 7)  # list items have no key


def test_a_block_collection_is_placed_at_its_key() -> None:
    locations = parse_yaml(NESTED, "nested.yaml").locations
    assert locations.of_value(("top", "inner")) == Position(4, 5)  # its first nested key
    assert locations.of_entry(("top", "inner")) == Position(3, 3)  # "inner:", where one looks
    assert locations.of_entry(("top", "items")) == Position(5, 3)
    assert locations.of_entry(("top", "inner", "missing")) == Position(3, 3)
    assert locations.of_entry(("top", "items", 1)) == Position(8, 7)  # a flow mapping: itself
    assert locations.of_entry(("top", "inner", "leaf")) == Position(4, 11)  # a scalar: itself
    assert locations.of_entry(()) == Position(2, 1)  # the document has no key


def test_yaml_1_1_traps_stay_text() -> None:
    document = parse_yaml(b"a: yes\nb: 010\nc: 1:30\nd: 2024-01-01\ne: 10_000\nf: .5\ng: ~\n",
                          "traps.yaml")
    assert document.data == {"a": "yes", "b": "010", "c": "1:30", "d": "2024-01-01",
                             "e": 10000, "f": 0.5, "g": None}
    assert document.problems == ()


def test_reader_problems_are_collected_not_fatal() -> None:
    text = b'a: {x: 1, x: 2}\n1: one\nb: !!binary aGk=\nc: !!int 012\nd: "\\ud800"\n'
    document = parse_yaml(text, "r.yaml")
    assert [str(p) for p in document.problems] == [
        "r.yaml:1:11: a.x: duplicate key 'x' (first at line 1)",
        "r.yaml:2:1: <root>: a key must be a string, got 1",
        "r.yaml:3:4: b: unsupported YAML tag '!!binary'",
        "r.yaml:4:4: c: '012' is not a valid !!int",
        "r.yaml:5:4: d: a string escape makes invalid Unicode text",
    ]
    assert document.data == {"a": {"x": 1}, "b": None, "c": None, "d": None}
    assert document.refused == {("b",), ("c",), ("d",)}


def test_alias_bomb_is_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    with pytest.raises(ConfigError, match="aliases expand to more than 100000 values"):
        parse_yaml("\n".join(lines).encode(), "bomb.yaml")


# --- pydantic errors inside lists, with a schema made for the test ----------------------------

_STRICT: dict[str, Any] = {"extra": "forbid", "strict": True}


@dataclass(frozen=True, slots=True)
class _Segment:
    name: str
    weight: int
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class _Ring:
    segments: list[_Segment]
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


def _no_zero_weights(ring: _Ring) -> list[Violation]:
    return [Violation(("segments", i, "weight"), "must be positive")
            for i, segment in enumerate(ring.segments) if segment.weight <= 0]


def test_errors_in_list_items_are_located_by_index() -> None:
    text = b"segments:\n  - {name: a, weight: 2}\n  - {name: b, wieght: 3}\n  - {name: c, weight: x}\n"
    with pytest.raises(ConfigError) as caught:
        validate(parse_yaml(text, "ring.yaml"), _Ring)
    assert str(caught.value).splitlines() == [
        "ring.yaml:3:5: segments.1: missing required key 'weight'",
        "ring.yaml:3:15: segments.1.wieght: unknown key 'wieght'; did you mean 'weight'?",
        "ring.yaml:4:23: segments.2.weight: expected an integer, got 'x'",
    ]


def test_wrong_types_in_list_items_name_the_unit_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _edited('{symbol: "$600", weight: 5, pays_cents: [12000, 60000]}',
                   '{symbol: 600, weight: 5, pays_cents: [12000, 600.0]}')
    text = _edited("progressive: primary, meter_percent: [20, 100]",
                   "progressive: Primary, meter_percent: [20.5, 100]", text)
    text = _edited("suited_four_of_a_kind: 500000", "suited_four_of_a_kind: 5000.5", text)
    assert refusal(tmp_path, monkeypatch, "types.yaml", text) == [
        "types.yaml:58:49: bonus_spin.hot_spot_ring.0.progressive: expected one of (primary, "
        "secondary, progressive_payout) or null, got 'Primary'; did you mean 'primary'?",
        "types.yaml:58:74: bonus_spin.hot_spot_ring.0.meter_percent.0: expected an integer "
        "(percent), got 20.5",
        "types.yaml:61:16: bonus_spin.hot_spot_ring.3.symbol: expected a string, got 600; "
        "quote it ('600') if it is meant as text",
        "types.yaml:61:52: bonus_spin.hot_spot_ring.3.pays_cents.1: expected an integer (cents), "
        "got 600.0",
        "types.yaml:85:28: progressive_payout.envy_cents.suited_four_of_a_kind: expected an "
        "integer (cents), got 5000.5",
    ]


def test_a_problem_with_a_whole_section_points_at_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _edited("  trigger:                 # MD", "  triggers:                # MD")
    assert refusal(tmp_path, monkeypatch, "section.yaml", text) == [
        "section.yaml:36:1: bonus_spin: missing required key 'trigger'",
        "section.yaml:38:3: bonus_spin.triggers: unknown key 'triggers'; did you mean 'trigger'?",
    ]


def test_ceiling_null_means_no_ceiling() -> None:
    bonus = load_paytable(MD5).paytable.bonus_spin
    assert bonus is not None
    assert bonus.primary.ceiling_cents is None
    assert bonus.secondary.ceiling_cents == 2_500_000


def test_rule_violations_in_list_items_are_located_by_index() -> None:
    text = b"segments:\n  - name: a\n    weight: 2\n  - name: b\n    weight: 0\n"
    with pytest.raises(ConfigError) as caught:
        validate(parse_yaml(text, "ring.yaml"), _Ring, _no_zero_weights)
    assert str(caught.value) == "ring.yaml:5:13: segments.1.weight: must be positive"


# --- the cabinet file -------------------------------------------------------------------------

def _cabinet(tmp_path: Path, text: str) -> Path:
    (tmp_path / "paytables").mkdir(exist_ok=True)
    shutil.copy(MD5, tmp_path / "paytables" / "md5.yaml")
    (tmp_path / "cabinet.yaml").write_text(text, "utf-8")
    return Path("cabinet.yaml")


def test_minimal_cabinet_takes_the_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cabinet = load_cabinet(_cabinet(tmp_path, "active_paytable: paytables/md5.yaml\n"))
    assert cabinet == Cabinet(active_paytable="paytables/md5.yaml", display=Display(0, 1920, 1080,
                              True), database=None, operator_pin_hash=None,
                              supervisor_pin_hash=None, language="en", attract_delay_s=60)
    assert cabinet.paytable_path(tmp_path / "cabinet.yaml") == tmp_path / "paytables" / "md5.yaml"


def test_cabinet_problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = _cabinet(tmp_path, (
        "active_paytable: paytables/nope.yaml\n"
        "display: {index: -1, width: 1920, height: 1080, fullscren: true}\n"
        "database: 5\n"
        "operator_pin_hash: ''\n"
        "language: English\n"
        "attract_delay_s: 0\n"
    ))
    with pytest.raises(ConfigError) as caught:
        load_cabinet(path)
    assert str(caught.value).splitlines() == [
        "cabinet.yaml:2:49: display.fullscren: unknown key 'fullscren'; did you mean 'fullscreen'?",
        "cabinet.yaml:3:11: database: expected a string or null, got 5; quote it ('5') if it is "
        "meant as text",
    ]
    path = _cabinet(tmp_path, (
        "active_paytable: paytables/nope.yaml\n"
        "display: {index: -1, width: 1920, height: 0}\n"
        "operator_pin_hash: ''\n"
        "language: English\n"
        "attract_delay_s: 0\n"
        "ledger_min_free_mb: 10\n"
    ))
    with pytest.raises(ConfigError) as caught:
        load_cabinet(path)
    assert str(caught.value).splitlines() == [
        "cabinet.yaml:1:18: active_paytable: no such file: paytables/nope.yaml",
        "cabinet.yaml:2:18: display.index: must be 0 or more, not -1",
        "cabinet.yaml:2:43: display.height: must be a positive number of pixels, not 0",
        "cabinet.yaml:3:20: operator_pin_hash: must not be empty (null if not set)",
        "cabinet.yaml:4:11: language: must be a language code such as 'en', not 'English'",
        "cabinet.yaml:5:18: attract_delay_s: must be between 1 and 3600 seconds, not 0",
        "cabinet.yaml:6:21: ledger_min_free_mb: must be between 64 and 1,000,000 MB, not 10",
    ]


def test_the_dealer_display_and_the_attendant_key(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # SPEC §6: the dealer's console on a display of its own, the operator menu behind a key
    monkeypatch.chdir(tmp_path)
    cabinet = load_cabinet(_cabinet(tmp_path, "active_paytable: paytables/md5.yaml\n"
                                              "dealer_display: 1\nattendant_key: PAUSE\n"))
    assert (cabinet.dealer_display, cabinet.attendant_key) == (1, "PAUSE")
    path = _cabinet(tmp_path, "active_paytable: paytables/md5.yaml\n"
                              "dealer_display: 0\n"
                              "attendant_key: F1\n")
    with pytest.raises(ConfigError) as caught:
        load_cabinet(path)
    assert str(caught.value).splitlines() == [
        "cabinet.yaml:2:17: dealer_display: must be another display than the players' "
        "(display.index 0)",
        "cabinet.yaml:3:16: attendant_key: must be one of F10, F13, F14, F15, PAUSE, SCROLLLOCK, "
        "INSERT, HOME, END, not 'F1'",
    ]


def test_cabinet_without_active_paytable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_cabinet(_cabinet(tmp_path, "# no game chosen\nlanguage: en\n"))
    assert str(caught.value) == "cabinet.yaml:2:1: <root>: missing required key 'active_paytable'"


def test_the_site_config_is_seeded_once_from_the_shipped_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "etc-etg"
    monkeypatch.setenv("ETG_CONFIG_DIR", str(site))
    assert default_config_dir() == site
    shipped = shipped_config_dir()
    assert (site / "cabinet.yaml").read_bytes() == (shipped / "cabinet.yaml").read_bytes()
    assert sorted(p.name for p in (site / "paytables").iterdir()) == \
        sorted(p.name for p in (shipped / "paytables").iterdir())
    (site / "cabinet.yaml").write_text("active_paytable: paytables/pennsylvania.yaml\n")
    (site / "paytables" / "maryland-community-3.yaml").unlink()  # withdrawn by the operator
    assert default_config_dir() == site  # a second start copies nothing over the site's own
    assert (site / "cabinet.yaml").read_text() == "active_paytable: paytables/pennsylvania.yaml\n"
    assert not (site / "paytables" / "maryland-community-3.yaml").exists()
