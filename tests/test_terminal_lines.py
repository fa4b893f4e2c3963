"""The line mode, the setup questions, the words of the terminal and the saved games."""

from __future__ import annotations

import functools
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from shutthebox.cli import main
from shutthebox.cli.play import _wizard
from shutthebox.match import GameFormat, Match, MatchConfig, load_log, replay
from shutthebox.narration import winners_line
from shutthebox.players.simple import HighestFirstStrategy
from shutthebox.rules import Rules, preset
from shutthebox.terminal.board import turn_line
from shutthebox.terminal.game import Outcome, TerminalGame
from shutthebox.terminal.saved import find_game, personal_best, saved_games
from shutthebox.terminal.session import GameSession
from shutthebox.terminal.words import narrate, one_die_note
from tests.test_play_cli import answers_shutting_first_moves


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    return tmp_path


def quiet() -> Console:
    return Console(file=io.StringIO(), width=100)


def said(console: Console) -> str:
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def session_of(players: tuple[str, ...], computers: dict[int, str], game_format: str,
               seed: int, rules: Rules | None = None) -> GameSession:
    config = MatchConfig(rules or Rules(), GameFormat.parse(game_format), players)
    return GameSession(config, computers, random.Random(seed), seed)


def answer(answers: Iterator[str], prompt: str) -> str:
    return next(answers)


def first_moves(session: GameSession) -> list[str]:
    """Answers that shut the first legal move, found by playing a copy of the game."""
    return answers_shutting_first_moves(replay(session.match.to_log()),
                                        random.Random(session.seed))


def test_the_setup_questions_ask_again_after_a_bad_answer(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    answers = iter(["Ann,cpu:genius", "Ann,cpu:easy", "nine", "pub", "marathon",
                    "elimination:50"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    console = quiet()
    session = _wizard(Rules(), None, 1, 1, console)
    out = said(console)
    assert out.count("try again") == 3
    assert "unknown strategy 'genius'" in out and "unknown preset 'nine'" in out
    assert "unknown format 'marathon'" in out
    assert session.config.players == ("Ann", "CPU 1 (easy)")
    assert session.config.rules.replace(instant_win=None) == preset("pub")
    assert str(session.config.format) == "elimination:50"


def test_enter_takes_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "")
    session = _wizard(Rules(tiles=10), None, 1, 1, quiet())
    assert session.config.players == ("You", "CPU 1 (hard)")
    assert session.config.rules.tiles == 10   # the rule flags stay
    assert str(session.config.format) == "single"


def test_you_are_spoken_to_and_a_tie_reads_as_one() -> None:
    match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("You", "Ann")))
    assert narrate({"type": "first", "seat": 0}, match) == "[bold]You play first[/]"
    assert narrate({"type": "turn", "seat": 0, "round": 1}, match) == "[bold]Your turn[/]"
    assert narrate({"type": "turn", "seat": 1, "round": 1}, match) == "[bold]Ann's turn[/]"
    assert turn_line(match) == "Your turn"
    assert narrate({"type": "shut", "seat": 0, "tiles": [1, 6]}, match) == "  You shut 1 6"
    assert narrate({"type": "roll", "seat": 0, "roll": [3, 5]}, match) == "  You roll 3+5=8"
    assert narrate({"type": "shut", "seat": 1, "tiles": [1, 6]}, match) == "  shut 1 6"
    ended = {"type": "turn-end", "seat": 0, "score": 8, "open": [1, 7], "shut_box": False}
    assert narrate(ended, match) == "  no move: your turn ends with 1 7 open, score 8"
    match.winners = (0, 1)
    assert winners_line(match) == "Tie: You and Ann share the win"
    match.winners = (0,)
    assert winners_line(match) == "You win!"


@pytest.mark.parametrize("game_format", ["rounds:2", "battle", "elimination:30"])
def test_the_terminal_says_the_narrations_sentences(game_format: str) -> None:
    """Each line the terminal prints for an event is shutthebox.narration's sentence (the
    one the server sends the page), coloured, and a turn's steps without the player."""
    from rich.text import Text

    from shutthebox.narration import tell

    match = Match(MatchConfig(Rules(), GameFormat.parse(game_format), ("You", "Ann [x]"),
                              stake=50))
    rng, player = random.Random(4), HighestFirstStrategy()
    while not match.is_over:
        pending = match.pending
        if pending.is_chance:
            match.roll(rng)
        else:
            assert pending.turn is not None
            match.decide(player.choose(pending.turn, match.situation()))
    kinds = set()
    for event in match.events:
        told, line = tell(event, match), narrate(event, match)
        assert (told is None) == (line is None), event
        if told is None or line is None:
            continue
        kinds.add(event["type"])
        shown = told.brief if told.brief is not None else told.text
        assert Text.from_markup(line).plain == ("  " if told.step else "") + shown
        assert "[x]" in told.text or "Ann" not in told.text   # a name is text, never markup
    assert {"roll", "shut", "winner", "payout"} <= kinds


def test_the_board_says_when_one_die_is_forced() -> None:
    rules = preset("encyclopedia")   # one die, forced, once 7 and up are shut
    assert one_die_note(rules, rules.full) is None
    match = Match(MatchConfig(rules, GameFormat.parse("solo"), ("Ann",)))
    rng = random.Random(1)
    player = HighestFirstStrategy()
    for _ in range(1000):
        pending = match.pending
        if match.is_over:
            match = Match(MatchConfig(rules, GameFormat.parse("solo"), ("Ann",)))
        elif pending.turn is not None and pending.turn.open_tiles >> 6 == 0:
            break
        elif pending.is_chance:
            match.roll(rng)
        else:
            assert pending.turn is not None
            match.decide(player.choose(pending.turn, match.situation()))
    assert turn_line(match) == "Ann to play · one die: 7, 8 and 9 are shut"


def test_a_line_game_interrupted_by_ctrl_c_is_saved_and_resumes(data_folder: Path) -> None:
    session = session_of(("Ann", "Bob"), {}, "rounds:2", seed=3)

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    assert TerminalGame(session, quiet(), ask=interrupt, pause=0).run() is Outcome.INTERRUPTED
    saved = find_game(None)
    assert saved.path == session.path and saved.match is not None
    assert saved.match.pending.turn == session.match.pending.turn   # the dice too
    resumed = GameSession.resume(saved, seed=3)
    answers = iter(first_moves(resumed))
    console = quiet()
    outcome = TerminalGame(resumed, console, ask=lambda prompt: next(answers), pause=0).run()
    assert outcome is Outcome.FINISHED
    assert replay(load_log(session.path)).is_over
    assert [game.path for game in saved_games()] == [session.path]
    assert list((data_folder / "games").iterdir()) == [session.path]   # no other file


def test_solo_shows_the_personal_best_and_whether_it_was_beaten() -> None:
    scores: list[int] = []
    for seed in (1, 2, 3, 4):
        session = session_of(("Ann",), {}, "solo", seed)
        answers = iter(first_moves(session))
        console = quiet()
        TerminalGame(session, console, ask=functools.partial(answer, answers), pause=0).run()
        score = session.match.round_scores[0]
        out = said(console)
        if not scores:
            assert f"first score for these rules: {score}" in out
        elif score < min(scores):
            assert f"new personal best: {score} (was {min(scores)})" in out
        else:
            assert f"personal best: {min(scores)}" in out
        scores.append(score)
        rules = session.config.rules
        assert personal_best(rules, "Ann") == min(scores)
    assert personal_best(rules, "Bob") is None
    assert personal_best(rules.replace(tiles=12), "Ann") is None


def test_games_lists_the_saved_games_with_their_state(
        data_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "--plain", "--players", "cpu,cpu", "--seed", "2"])
    unfinished = session_of(("Ann", "CPU 1 (easy)"), {1: "easy"}, "single", seed=5)
    unfinished.save()
    assert unfinished.path is not None
    (data_folder / "games" / "broken.json").write_text("{")
    capsys.readouterr()
    main(["games", "--json"])
    listed = json.loads(capsys.readouterr().out)
    states = {entry["game"]: entry["state"] for entry in listed}
    assert states[unfinished.path.stem] == "unfinished: round 1, Ann to play"
    assert any(state.startswith("finished: CPU") for state in states.values())
    assert states["broken"].startswith("unreadable:")
    main(["games"])
    out = capsys.readouterr().out
    assert f"{unfinished.path.stem}  unfinished: round 1, Ann to play  (Ann, CPU 1 (easy))" in out
