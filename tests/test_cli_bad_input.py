"""Every command with bad input: exit status 2, one line on standard error, no traceback.

The table is the guard for the next flag: add a row for every new way to get input wrong.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shutthebox.cli import COMMANDS, main
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.rules import Rules
from shutthebox.strategies import HighestFirstStrategy


def a_log() -> dict[str, object]:
    match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bob")))
    play_out(match, {0: HighestFirstStrategy(), 1: HighestFirstStrategy()}, random.Random(3))
    return match.to_log()


def changed_log(change: str) -> dict[str, object]:
    """A real game log with one thing wrong."""
    log = a_log()
    events = log["events"]
    assert isinstance(events, list)
    shut = next(e for e in events if e["type"] == "shut")
    roll = next(e for e in events if e["type"] == "roll")
    if change == "shut without tiles":
        del shut["tiles"]
    elif change == "tiles not numbers":
        shut["tiles"] = ["a"]
    elif change == "event after the end":
        events.append(dict(roll))
    elif change == "roll of booleans":
        roll["roll"] = [True, 5]
    elif change == "roll of floats":
        roll["roll"] = [float(f) for f in roll["roll"]]
    return log


FILES = {
    "binary.json": bytes(range(256)),
    "empty.json": b"",
    "list.json": b"[1, 2]",
    **{f"{change.replace(' ', '-')}.json": json.dumps(changed_log(change)).encode()
       for change in ("shut without tiles", "tiles not numbers", "event after the end",
                      "roll of booleans", "roll of floats")},
}

OWNER = "solve, hint and review (cli/solve.py, solver/, match.py log checks) are issue 11's"

CASES: list[tuple[list[str], str]] = [
    # the command line itself
    (["bogus"], "no such command 'bogus'"),
    # rules
    (["rules", "classic", "extra"], "unexpected extra argument"),
    (["rules", "nine"], "unknown preset 'nine'"),
    (["rules", "--bogus"], "no such option: --bogus"),
    # play
    (["play", "--players", "cpu,cpu", "--stake", "nan"], "stake 'nan'"),
    (["play", "--players", "cpu,cpu", "--stake", "inf"], "stake 'inf'"),
    (["play", "--players", "cpu,cpu", "--stake", "1e999999"], "stake '1e999999'"),
    (["play", "--players", "cpu,cpu", "--stake", "-1"], "stake '-1'"),
    (["play", "--players", ""], "no players in ''"),
    (["play", "--players", " , "], "no players"),
    (["play", "--players", "A" * 41], "too long: 40 characters at most"),
    (["play", "--players", "Ann,Ann"], "must differ"),
    (["play", "--players", "Ann,cpu:genius"], "unknown strategy 'genius'"),
    (["play", "--players", "cpu,cpu", "--format", "elimination:99999999999999999999"],
     "too large"),
    (["play", "--players", "cpu,cpu", "--format", "marathon"], "unknown format 'marathon'"),
    (["play", "--games", "0"], "--games '0'"),
    (["play", "--games", "-1"], "--games '-1'"),
    (["play", "--games", "abc"], "--games 'abc': not a whole number"),
    (["play", "--seed", "abc"], "--seed 'abc': not a whole number"),
    (["play", "--tiles", "13"], "tiles must be a whole number from 2 to 12, not 13"),
    (["play", "--one-die", "sometimes"], "one_die must be one of"),
    (["play", "--players", "cpu,cpu", "--format", "race:200"],
     "a race to a target needs covered scoring"),
    (["play", "--players", "cpu,cpu", "--stake", "lots"], "stake 'lots' is not an amount"),
    (["play", "--resume", "no-such-game"], "no saved game 'no-such-game'"),
    (["play", "--resume"], "no unfinished game to resume"),
    (["play", "some-game"], "goes with --resume"),
    (["play", "--resume", "--players", "Ann"], "drop --players"),
    (["play", "--bogus"], "no such option: --bogus"),
    # games
    (["games", "extra"], "unexpected extra argument"),
    # simulate
    (["simulate", "--games", "-1"], "--games must be at least 1, not -1"),
    (["simulate", "--games", "0"], "--games must be at least 1, not 0"),
    (["simulate", "--games", "abc"], "--games 'abc': not a whole number"),
    (["simulate", "--seed", "abc"], "--seed 'abc': not a whole number"),
    (["simulate", "--strategy", "genius"], "unknown strategy 'genius'"),
    (["simulate", "--games", "10", "--plot", "{tmp}/plain.txt/x.png"], "cannot write a plot"),
    (["simulate", "--games", "10", "--plot", "{tmp}/x.txt"], "use a .png or .svg file"),
    (["simulate", "--bogus"], "no such option: --bogus"),
    # tournament
    (["tournament", "--stake", "nan"], "stake 'nan'"),
    (["tournament", "--matches", "0"], "--matches must be 1 to 10,000,000, not 0"),
    (["tournament", "--matches", "abc"], "--matches 'abc': not a whole number"),
    (["tournament", "--players", ""], "no players"),
    (["tournament", "--players", "optimal,genius"], "unknown strategy 'genius'"),
    (["tournament", "--format", "marathon"], "unknown format 'marathon'"),
    (["tournament", "--format", "elimination:99999999999999999999"], "too large"),
    (["tournament", "--plot", "{tmp}/plain.txt/x.png"], "cannot write a plot"),
    # serve
    (["serve", "--port", "0"], "--port '0'"),
    (["serve", "--port", "abc"], "--port 'abc': not a whole number"),
    (["serve", "--workers", "0"], "--workers '0'"),
    # solve, hint, review (issue 11's command module)
    (["solve", "--tiles", "13"], "tiles must be a whole number from 2 to 12, not 13"),
    (["solve", "--objective", "nope"], "nope"),
    (["solve", "--plot", "/proc/x.png"], "/proc/x.png"),
    (["hint", "--open", ""], "--open ''"),
    (["hint", "--open", "13"], "13"),
    (["hint", "--roll", "7"], "7"),
    (["review", "{tmp}/no-such.json"], "no-such.json"),
    (["review", "{tmp}/binary.json"], "binary.json"),
    (["review", "{tmp}/empty.json"], "empty.json"),
    (["review", "{tmp}/list.json"], "list.json"),
    *[(["review", f"{{tmp}}/{name}"], "does not replay") for name in FILES
      if name not in ("binary.json", "empty.json", "list.json")],
]

XFAIL: set[str] = set()
"""Rows that fail today in files this table's author does not own, each marked
``xfail(strict=True)`` with the owner, so the row turns red when it is fixed."""


def _param(args: list[str], message: str) -> object:
    key = " ".join(repr(a) if a == "" else a for a in args)
    marks = [pytest.mark.xfail(strict=True, reason=OWNER)] if key in XFAIL else []
    return pytest.param(args, message, id=key[:60], marks=marks)


def test_the_table_covers_every_command() -> None:
    assert {args[0] for args, _ in CASES if args[0] in COMMANDS} == set(COMMANDS)


@pytest.mark.parametrize(("args", "message"), [_param(a, m) for a, m in CASES])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path / "home"))
    (tmp_path / "plain.txt").write_text("a file, not a folder")
    for name, content in FILES.items():
        (tmp_path / name).write_bytes(content)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    out, err = capsys.readouterr()
    assert stopped.value.code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("shutthebox: error: "), err
    assert "Traceback" not in err
    assert message.replace("{tmp}", str(tmp_path)) in lines[0], lines[0]
