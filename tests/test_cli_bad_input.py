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
from shutthebox.players.simple import HighestFirstStrategy
from shutthebox.rules import Rules


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


def with_header(**changes: object) -> bytes:
    """A real game log with its header changed."""
    return json.dumps({**a_log(), **changes}).encode()


CHANGES = ("shut without tiles", "tiles not numbers", "event after the end",
           "roll of booleans", "roll of floats")

FILES = {
    "deep.json": b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "long-seed.json": with_header(seed=0).replace(b'"seed": 0', b'"seed": ' + b"7" * 5000),
    "escape-name.json": with_header(players=["Ann\x1b[2J", "Bob"]),
    "huge.json": b" " * (16 * 2**20 + 1),
    "binary.json": bytes(range(256)),
    "empty.json": b"",
    "list.json": b"[1, 2]",
    **{f"{change.replace(' ', '-')}.json": json.dumps(changed_log(change)).encode()
       for change in CHANGES},
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
    # issue 24: names by the one rule of shutthebox.names, values that meant nothing
    (["play", "--players", "Ann\nBob,cpu"], "holds a control character (\\n)"),
    (["play", "--players", "Ann\x1b[2J,cpu"], "holds a control character (\\x1b)"),
    (["play", "--players", "Ann\u202e,cpu"], "bidirectional control (U+202E)"),
    (["play", "--players", "Ann,\u200b,cpu"], "a name is needed"),
    (["play", "--players", "cpu,cpu", "--format", "rounds:"],
     "format 'rounds:' has nothing after the colon: write rounds:3, or rounds alone"),
    (["play", "--players", "cpu,cpu", "--format", "rounds:-1"],
     "the number in format 'rounds:-1' is negative"),
    (["play", "--players", "cpu,cpu", "--preset", ""], "unknown preset ''"),
    (["play", "--players", "cpu,cpu", "--games", "100000000000000000000"],
     "--games '100000000000000000000': should be 1000 or less"),
    (["solve", "--preset", ""], "unknown preset ''"),
    (["hint", "--format", "single", "--posted", "999", "--roll", "3,5"],
     "--posted '999': no turn ends with a score of 999 under these rules (they go from 0 to 45)"),
    (["hint", "--totals", "40,35"], "--totals '40,35' describes a match: give the match with"),
    (["hint", "--posted", "5"], "--posted '5' describes a match"),
    (["hint", "--role", "knock"], "--role 'knock' describes a match"),
    (["hint", "--round", "2"], "--round '2' describes a match"),
    (["hint", "--format", "single", "--role", "knock"], "--role 'knock' is for a battle"),
    (["hint", "--format", "single", "--round", "2"], "--round 2 is for --format rounds:R"),
    (["hint", "--format", "battle", "--totals", "1,2", "--role", "knock"],
     "--totals '1,2' means nothing in a battle"),
    (["hint", "--format", "loser-at:100", "--totals", "150,10", "--roll", "3,5"],
     "a total of 150 has reached 100, so the game is over"),
    (["hint", "--format", "elimination:45", "--totals", "10,50"],
     "a total of 50 has reached 45, so that player is out"),
    (["hint", "--format", "race:200", "--totals", "10,250", "--preset", "covered"],
     "a total of 250 has reached the target 200"),
    (["hint", "--format", "rounds:"], "format 'rounds:' has nothing after the colon"),
    (["review", "{tmp}/deep.json"], "its JSON is nested too deeply"),
    (["review", "{tmp}/long-seed.json"], "it holds a number of more than 4300 digits"),
    (["review", "{tmp}/escape-name.json"], "has a player name that cannot be shown"),
    (["review", "/dev/zero"], "'/dev/zero' is not a game log: it is not a regular file"),
    (["review", "{tmp}"], "is not a game log: it is not a regular file"),
    (["review", "{tmp}/huge.json"], "is not a game log: it is larger than 16 MiB"),
    (["review", "{tmp}/deep.json", "--plot", "{tmp}/chart.gif"], "use a .png or .svg file"),
    # daily
    (["daily", "--date", "2026-13-01"], "date '2026-13-01' is not a day written YYYY-MM-DD"),
    (["daily", "--name", "Ann\x1b[2J"], "holds a control character (\\x1b)"),
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
    (["simulate", "--games", "100000000000000000000"],
     "--games 100000000000000000000 is more than this command plays: at most 1,000,000,000"),
    # tournament
    (["tournament", "--stake", "nan"], "stake 'nan'"),
    (["tournament", "--matches", "0"], "--matches must be 1 to 10,000,000, not 0"),
    (["tournament", "--matches", "abc"], "--matches 'abc': not a whole number"),
    (["tournament", "--players", ""], "no players"),
    (["tournament", "--players", "optimal,genius"], "unknown strategy 'genius'"),
    (["tournament", "--format", "marathon"], "unknown format 'marathon'"),
    (["tournament", "--format", "elimination:99999999999999999999"], "too large"),
    (["tournament", "--plot", "{tmp}/plain.txt/x.png"], "cannot write a plot"),
    (["tournament", "--matches", "100000000000000000000"],
     "--matches must be 1 to 10,000,000, not 100000000000000000000"),
    # serve
    (["serve", "--port", "0"], "--port '0'"),
    (["serve", "--port", "abc"], "--port 'abc': not a whole number"),
    (["serve", "--workers", "0"], "--workers '0'"),
    (["serve", "--admin-token", "hunter2"], "give the token's hash"),
    (["serve", "--log-format", "xml"], "--log-format 'xml'"),
    # backup, restore, db, admin (the server's database)
    (["backup", "{tmp}/plain.txt"], "exists already"),
    (["backup", "{tmp}/new", "--database-url", "nosuch://x"], "cannot use the database URL"),
    (["restore", "{tmp}/no-such.backup"], "no backup file"),
    (["restore", "{tmp}/plain.txt"], "is not a shutthebox backup"),
    (["db", "current", "--database-url", "sqlite:///{tmp}/plain.txt/x.sqlite"],
     "holds no shutthebox database: no such file"),
    (["restore", "{tmp}/plain.txt", "--database-url", "sqlite:///{tmp}/plain.txt/x.sqlite"],
     "is not a shutthebox backup"),
    (["db", "current", "--database-url", "sqlite:///{tmp}/none.sqlite"],
     "holds no shutthebox database"),
    (["db", "upgrade", "--database-url", "mysql://nobody@127.0.0.1:1/x"],
     "cannot use the database URL"),
    (["health", "--wait", "-1"], "--wait '-1'"),
    (["admin", "end", "nope", "--database-url", "sqlite:///{tmp}/x.sqlite"],
     "no game 'nope'"),
    (["admin", "rename", "Ann", "", "--database-url", "sqlite:///{tmp}/x.sqlite"],
     "'' is not a player's name"),
    (["admin", "free", "\x1b[2J", "--database-url", "sqlite:///{tmp}/x.sqlite"],
     "is not a player's name"),
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
      if name.replace("-", " ").removesuffix(".json") in CHANGES],
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
