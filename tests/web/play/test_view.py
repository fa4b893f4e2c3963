"""The view of a game the server sends: the sentences it keeps between moves (its lasting
members, each step's words) are always those of this game, its players and the reader's
language (a real game service on a SQLite file)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shutthebox.language import speaking
from shutthebox.rules import Rules
from shutthebox.web.play.seats import SeatKind
from shutthebox.web.play.service import GameService, SeatSpec
from shutthebox.web.storage import make_engine


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite'}")
    found = GameService(engine)
    yield found
    found.close()
    engine.dispose()


def roll(service: GameService, state: dict[str, Any], token: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(service.act(state["id"], token, "roll", None,
                                                    state["event_count"], None))
    return answer


def test_each_game_names_its_own_players(service: GameService) -> None:
    """Two games played in turn, the same steps said of different players."""
    games = [service.create(Rules(), "single", 0, [SeatSpec(a), SeatSpec(b)])
             for a, b in (("Ann", "Bo"), ("Cy", "Di"))]
    tokens = [game["tokens"] for game in games]
    played = 0
    for _ in range(3):
        for index, game in enumerate(games):
            first = ("Ann", "Cy")[index]
            assert game["pending"]["prompt_named"] == f"{first}: roll the dice."
            games[index] = state = roll(service, game, tokens[index]["0"])
            played += 1
            total = sum(state["pending"]["roll"])
            assert state["pending"]["text"].startswith(f"{first} rolled ")
            assert state["pending"]["prompt"].startswith("You rolled ")
            assert state["pending"]["prompt_named"].endswith(f"adding up to {total}.")
            assert state["events_text"][-1].startswith(f"{first} rolls ")
            tiles = state["pending"]["legal"]
            if not tiles:                       # no move: the turn passed on
                return
            games[index] = json.loads(service.act(state["id"], tokens[index]["0"], "shut",
                                                  tiles[0], state["event_count"], None))
            assert games[index]["events_text"][-1].startswith(f"{first} shuts ")
            if games[index]["pending"]["seat"] != 0:
                return
    assert played == 6


def test_the_same_game_is_told_in_each_readers_language(service: GameService) -> None:
    game = service.create(Rules(), "single", 0, [SeatSpec("Ann"), SeatSpec("Bo")])
    english = service.state(game["id"], 0, [])
    with speaking("fr"):
        french = service.state(game["id"], 0, [])
    with speaking("de"):
        state = roll(service, game, game["tokens"]["0"])
    again = service.state(game["id"], 0, [])
    assert english["pending"]["prompt_named"] == "Ann: roll the dice."
    assert french["pending"]["prompt_named"] == "Ann : lancez les dés."
    assert french["format_text"] != english["format_text"]
    assert french["rules_text"] != english["rules_text"]
    assert state["events_text"][-1].startswith("Ann würfelt ")
    assert state["pending"]["text"].startswith("Ann hat ")
    assert again["events_text"][-1].startswith("Ann rolls ")
    assert again["rules_text"] == english["rules_text"]


def test_a_seat_taken_renames_the_view(service: GameService) -> None:
    game = service.create(Rules(), "single", 0, [SeatSpec("Ann"),
                                                 SeatSpec("Friend", SeatKind.OPEN)])
    before = service.state(game["id"], 0, [])
    assert [p["name"] for p in before["players"]] == ["Ann", "Friend"]
    service.join(game["id"], game["invites"][0]["code"], "Bo")
    after = service.state(game["id"], 0, [])
    assert [p["name"] for p in after["players"]] == ["Ann", "Bo"]
    assert [s["name"] for s in after["seats"]] == ["Ann", "Bo"]
    assert after["status"] == "playing"
