"""Every ``--help`` says what the program does now (issue 24, item 9)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.release.smoke import _CHECKS


def commands(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], click.Command]]:
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


def help_of(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


CONFIG_USERS = [path for path, command in commands()
                if any("--config" in p.opts for p in command.params)]


def test_these_commands_take_a_configuration_directory() -> None:
    assert sorted(CONFIG_USERS) == [
        ("floor", "demo"), ("floor", "init"), ("floor", "level"), ("floor", "web"),
        ("ledger", "acknowledge"), ("ledger", "archive"), ("ledger", "export"),
        ("ledger", "init"), ("ledger", "meters"), ("ledger", "pubkey"), ("ledger", "recall"),
        ("ledger", "tilts"), ("ledger", "verify"),
        ("paths",), ("paytable", "activate"), ("paytable", "list"), ("pin", "remove-dealer"),
        ("pin", "set"), ("run",)]


@pytest.mark.parametrize("path", CONFIG_USERS, ids=" ".join)
def test_config_names_the_site_configuration_as_its_default(path: tuple[str, ...]) -> None:
    text = help_of(*path)
    assert "shipped config/" not in text
    assert "(default: ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet" in text


def test_the_default_configuration_is_the_site_one_not_the_shipped_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    monkeypatch.setenv("ETG_CONFIG_DIR", str(site))
    result = CliRunner().invoke(main, ["pin", "remove-dealer", "D0001"])
    assert result.exit_code == 2
    assert result.stderr == f"{site / 'cabinet.yaml'}: no dealer D0001 with a PIN; " \
                            "nothing was changed\n"
    assert (site / "paytables" / "maryland-community-5.yaml").is_file()  # filled at first use


def test_run_says_where_its_ledger_is_and_that_headless_needs_demo() -> None:
    text = help_of("run")
    assert ("--db FILE Ledger file (default: cabinet.yaml's database, else ledger.db in the "
            "data directory, ETG_DATA_DIR or ~/.local/share/etg;") in text
    assert "--headless No screen: SDL's dummy video driver (screenshots, tests); only with " \
           "--demo." in text
    refused = CliRunner().invoke(main, ["run", "--headless"])
    assert refused.exit_code == 2 and "add --demo" in refused.stderr


def test_ledger_names_the_two_commands_that_write() -> None:
    text = help_of("ledger")
    assert "(read-only)" not in text
    assert "acknowledge and archive, each with the supervisor's PIN, write it" in text


def test_a_supervisors_pin_is_named_for_everything_it_does() -> None:
    assert ("supervisor: voids, tilt acknowledgements and jackpot validation; floorperson: "
            "jackpot validation;") in help_of("pin", "set")


def test_sim_says_both_modes_play_the_same_table_and_mix_is_for_both() -> None:
    text = help_of("sim")
    assert "two bot seats" not in text and "vector mode:" not in text
    assert "Both play the same table (every seat, every wager, live meters)" in text
    assert "--mix FLOAT RANGE Share of $1 Bonus Spin wagers, 0 to 1 (default 0.5)." in text


def test_smoke_test_names_every_check_it_runs() -> None:
    text = help_of("smoke-test")
    names = [name for name, _ in _CHECKS]
    assert names == ["software", "assets", "paytables", "ledger", "sounds", "frames"]
    assert ("Check an installed or frozen build: its files, assets, paytables, a ledger, sounds, "
            "frames.") in text
