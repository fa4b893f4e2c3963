"""The full-screen game, driven by Textual's own test harness: a pilot pressing keys and
clicking, as a player would. Screenshots of the main screens go to test-artifacts/terminal/."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import RichLog

from shutthebox.match import GameFormat, MatchConfig, load_log, replay
from shutthebox.rules import OneDie, Rules
from shutthebox.strategies import format_move
from shutthebox.terminal.app import ShutTheBoxApp, Tile
from shutthebox.terminal.game import Outcome
from shutthebox.terminal.hints import hint_for
from shutthebox.terminal.saved import find_game
from shutthebox.terminal.session import GameSession
from shutthebox.tiles import tiles_of

SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "terminal"
KEY_OF = {n: str(n) for n in range(1, 10)} | {10: "0", 11: "minus", 12: "equals_sign"}


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    return tmp_path


def session_of(players: tuple[str, ...], computers: dict[int, str], rules: Rules | None = None,
               game_format: str = "single", seed: int = 1, games: int = 1) -> GameSession:
    config = MatchConfig(rules or Rules(), GameFormat.parse(game_format), players)
    return GameSession(config, computers, random.Random(seed), seed, games)


def shoot(app: ShutTheBoxApp, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(SHOTS))


async def settle(app: ShutTheBoxApp, pilot: object, seconds: float = 20.0) -> None:
    """Wait until a human is to act or the game is over (computer steps are paced)."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    deadline = time.monotonic() + seconds
    session = app.session
    while not (session.human_to_act or session.match.is_over):
        assert time.monotonic() < deadline, "the game did not come back to a human"
        await pilot.pause(0.02)
    await pilot.pause()


def screen_text(app: ShutTheBoxApp, selector: str) -> str:
    """The text a widget shows on the screen now."""
    from textual.geometry import Region

    widget = app.query_one(selector)
    lines = widget.render_lines(Region(0, 0, *widget.outer_size))
    return "\n".join(strip.text for strip in lines)


def flat(app: ShutTheBoxApp, selector: str) -> str:
    """The words a widget shows, however they wrap."""
    return " ".join(screen_text(app, selector).split())


def logged(app: ShutTheBoxApp) -> str:
    """Every line written to the game's log, however it wraps."""
    return " ".join(" ".join(strip.text for strip in app.query_one("#log", RichLog).lines)
                    .split())


def test_a_whole_solo_game_typed_on_the_keys(data_folder: Path) -> None:
    async def play() -> None:
        session = session_of(("Ann",), {}, game_format="solo", seed=5)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            shoot(app, "board-80x24")
            moves = 0
            while not session.match.is_over:
                turn = session.match.pending.turn
                assert turn is not None
                move = turn.legal_actions()[0]
                for tile in tiles_of(move):
                    await pilot.press(KEY_OF[tile])
                assert "✓" in screen_text(app, "#selection")
                await pilot.press("enter")
                moves += 1
                await settle(app, pilot)
            assert moves >= 1
            assert "Game over" in screen_text(app, "#selection")
            assert "first score for these rules: " in flat(app, "#players")
            lessons = session.lessons()
            assert lessons[0].startswith("Ann: accuracy ")
            deadline = time.monotonic() + 20
            while lessons[-1] not in logged(app):   # the coach's sentences reach the log
                assert time.monotonic() < deadline, logged(app)
                await pilot.pause(0.05)
            assert all(line in logged(app) for line in lessons)
            shoot(app, "game-over")
            await pilot.press("q")
        assert app.return_value is Outcome.FINISHED
        assert session.path is not None
        log = load_log(session.path)
        assert replay(log).is_over and session.path.parent == data_folder / "games"

    asyncio.run(play())


def test_a_wrong_selection_is_explained_and_clicking_selects(data_folder: Path) -> None:
    async def play() -> None:
        session = session_of(("Ann",), {}, game_format="solo", seed=3)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            turn = session.match.pending.turn
            assert turn is not None and turn.roll is not None
            wrong = next(n for n in range(1, 10) if n != sum(turn.roll))
            await pilot.click(f"#tile-{wrong}")
            assert app.selection == 1 << (wrong - 1)
            assert "✗" in screen_text(app, "#selection")
            await pilot.press("enter")
            assert "cannot shut" in screen_text(app, "#selection")
            assert session.match.pending.kind == "shut"   # nothing was shut
            await pilot.press("escape")
            assert app.selection == 0

    asyncio.run(play())


def test_the_hint_panel_ranks_the_moves_of_the_solver() -> None:
    async def play() -> None:
        session = session_of(("You", "CPU 1 (hard)"), {1: "hard"}, seed=2)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("h")
            expected = hint_for(session.match)
            for _ in range(200):
                await pilot.pause(0.05)
                if expected.rows[0][1] in screen_text(app, "#hint"):
                    break
            panel = screen_text(app, "#hint")
            assert "chance to win, best first" in panel
            for move, value, _ in expected.rows:
                assert move in panel and value in panel
            shoot(app, "hint")
            assert "Your turn" in screen_text(app, "#turn")
            await pilot.press("h")
            assert not app.query_one("#hint").has_class("shown")

    asyncio.run(play())


def test_a_dice_choice_by_click_and_by_key() -> None:
    async def play() -> None:
        rules = Rules(tiles=3, one_die=OneDie.LOW_SUM)   # 1 2 3 add up to 6: one die allowed
        session = session_of(("Ann",), {}, rules=rules, game_format="solo", seed=4)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert session.match.pending.kind == "choose-dice"
            assert "one die allowed: the open tiles add up to 6" in screen_text(app, "#turn")
            shoot(app, "dice-choice")
            await pilot.click("#one-die")
            await settle(app, pilot)
            dice = [e for e in session.match.events if e["type"] == "dice"]
            assert dice[-1]["dice"] == 1
            rolls = [e for e in session.match.events if e["type"] == "roll"]
            assert len(rolls[-1]["roll"]) == 1

    asyncio.run(play())


def test_a_battle_against_the_computer_to_the_end() -> None:
    async def play() -> None:
        session = session_of(("CPU 1 (medium)", "You"), {0: "medium"}, rules=Rules(tiles=5),
                             game_format="battle", seed=6)   # the computer knocks, You stand
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            shot = clicked = False
            while not session.match.is_over:
                pending = session.match.pending
                assert pending.turn is not None
                if pending.kind == "choose-dice":
                    await pilot.press("2")
                else:
                    move = pending.turn.legal_actions()[-1]
                    assert pending.role == "stand"
                    if not shot:
                        assert "stand up" in screen_text(app, "#selection")
                        shoot(app, "battle")
                        shot = True
                    for tile in tiles_of(move):   # clicks once, then keys (quicker)
                        if clicked:
                            await pilot.press(KEY_OF[tile])
                        else:
                            await pilot.click(f"#tile-{tile}")
                            clicked = True
                    await pilot.press("enter")
                await settle(app, pilot)
            assert shot
            winner = session.match.players[session.match.winners[0]]
            assert ("You win!" if winner == "You" else f"{winner} wins!") in \
                screen_text(app, "#turn")

    asyncio.run(play())


def test_quitting_saves_and_the_game_resumes_dice_and_all(data_folder: Path) -> None:
    async def play() -> GameSession:
        session = session_of(("Ann", "Bob"), {}, game_format="rounds:2", seed=8)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("q")
        assert app.return_value is Outcome.QUIT
        return session

    session = asyncio.run(play())
    pending = session.match.pending
    saved = find_game(None)
    assert saved.path == session.path
    resumed = GameSession.resume(saved)
    again = resumed.match.pending
    assert (again.kind, again.seat, again.turn) == (pending.kind, pending.seat, pending.turn)
    assert again.turn is not None and again.turn.roll is not None   # the dice are back

    async def finish() -> None:
        app = ShutTheBoxApp(resumed, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert format_move(0) == "-"
            await pilot.press("ctrl+c")
        assert app.return_value is Outcome.INTERRUPTED

    asyncio.run(finish())
    assert not replay(load_log(session.path)).is_over


def test_computer_turns_are_paced_and_space_skips_them() -> None:
    async def play() -> None:
        session = session_of(("CPU 1 (easy)", "CPU 2 (medium)"), {0: "easy", 1: "medium"},
                             game_format="rounds:3", seed=9, games=2)
        app = ShutTheBoxApp(session)   # the readable pace
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            assert not session.match.is_over
            assert "(space skips)" in screen_text(app, "#selection")
            await pilot.press("space")
            await settle(app, pilot, seconds=10)
            assert session.match.is_over
            assert "n: next game" in screen_text(app, "#selection")
            first = session.path
            await pilot.press("n")
            assert session.number == 2 and session.path != first
            await pilot.press("q")

    asyncio.run(play())


def test_twelve_tiles_fit_80x24_and_a_larger_terminal_gets_bigger_tiles() -> None:
    async def look(size: tuple[int, int]) -> tuple[int, int]:
        session = session_of(("Ann",), {}, rules=Rules(tiles=12), game_format="solo")
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            tiles = list(app.query(Tile))
            assert len(tiles) == 12
            for tile in tiles:
                region = tile.region
                assert region.right <= size[0] and region.bottom <= size[1], tile.number
            footer = app.query_one("Footer").region
            assert footer.bottom == size[1]
            if size == (120, 40):
                shoot(app, "twelve-tiles-120x40")
            return tiles[0].region.width, tiles[0].region.height

    small = asyncio.run(look((80, 24)))
    large = asyncio.run(look((120, 40)))
    assert large[0] > small[0] and large[1] > small[1]


@pytest.mark.parametrize("language", ["fr", "de", "es", "ar"])
def test_the_footer_and_the_players_table_speak_the_readers_language(language: str) -> None:
    from rich.console import Console

    from shutthebox.language import _, speaking
    from shutthebox.match import Match
    from shutthebox.terminal.app import key_bindings
    from shutthebox.terminal.board import render

    english = {b.description for b in key_bindings(lambda words: words)
               if isinstance(b, Binding) and b.description}
    match = Match(MatchConfig(Rules(), GameFormat.parse("rounds:3"), ("You", "Ann")))
    with speaking(language):
        app = ShutTheBoxApp.speaking()
        said = {b.description for b in app.BINDINGS if isinstance(b, Binding) and b.description}
        console = Console(width=100, record=True)
        console.print(render(match))
        board = console.export_text()
        headings = [_(words) for words in ("player", "score", "total", "You")]
    assert said and not said & english, said
    assert issubclass(app, ShutTheBoxApp) and app.CSS_PATH == ShutTheBoxApp.CSS_PATH
    assert all(heading in board for heading in headings), board
    for english_words in ("player", "You", "Round", "round 1"):
        assert english_words not in board, board
