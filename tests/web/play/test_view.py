"""The view of a game the server sends: the sentences it keeps between moves (its lasting
members, each step's words) are always those of this game, its players and the reader's
language (a real game service on a SQLite file); and the state the API sends tells the game in
the narration's words, a battle's legend included (through the API, on SQLite and on
PostgreSQL when it answers)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.language import speaking
from shutthebox.rules import Rules
from shutthebox.web.play.seats import SeatKind
from shutthebox.web.play.service import GameService, SeatSpec
from shutthebox.web.storage import make_engine
from tests.web.client import bearer, new_game, play_out, stored_match, wait_for_human
from tests.web.legal import first_legal


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
            if state["pending"]["kind"] != "shut":      # the roll had no move: turn passed
                assert state["pending"]["seat"] != 0 or state["status"] == "over"
                return
            total = sum(state["pending"]["roll"])
            assert state["pending"]["text"].startswith(f"{first} rolled ")
            assert state["pending"]["prompt"].startswith("You rolled ")
            assert state["pending"]["prompt_named"].endswith(f"adding up to {total}.")
            assert state["events_text"][-1].startswith(f"{first} rolls ")
            tiles = state["pending"]["legal"]
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


def test_a_battle_s_legend_says_what_the_marked_tiles_mean(client: TestClient) -> None:
    from shutthebox.narration import legend_text

    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}], format="battle")
    assert state["score_text"] is None
    tokens = state["tokens"]
    legends = set()
    while state["status"] == "playing":
        state = wait_for_human(client, state)
        if state["status"] != "playing":
            break
        match = stored_match(client, state["id"])
        assert state["pending"]["legend"] == legend_text(match)
        legends.add(state["pending"]["legend"])
        path, body = first_legal(state)
        token = tokens[str(state["pending"]["seat"])]
        state = client.post(path, json=body, headers=bearer(token)).json()
    assert any(legend and "knock down" in legend for legend in legends)


def test_the_state_tells_the_game_in_the_narrations_words(client: TestClient) -> None:
    """The title, the rules and every event's sentence are made by shutthebox.narration (as
    the terminal's are) and sent with the state; the page shows them as sent."""
    from shutthebox.narration import ending_text, format_text, rules_text, tell, winners_line
    from shutthebox.rules import preset

    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}], preset="family-12",
                     format="rounds:2", stake="0.50")
    assert state["rules_text"] == rules_text(Rules.from_dict(state["rules"]))
    assert Rules.from_dict(state["rules"]).tiles == preset("family-12").tiles == 12
    assert "6 or less" in state["rules_text"]            # Rules.describe(), not the page's
    assert state["pending"]["text"] == "Waiting for Ann to roll…"
    assert state["pending"]["prompt"] == "Your roll: press Roll or Enter."
    assert state["pending"]["prompt_named"] == "Ann: roll the dice."
    path, body = first_legal(state)   # Ann's roll
    rolled = client.post(path, json=body, headers=bearer(state["tokens"]["0"])).json()
    roll = rolled["pending"]["roll"]
    assert rolled["pending"]["prompt"] == (
        f"You rolled {rolled['pending']['roll_text']}: shut tiles adding up to {sum(roll)}.")
    assert rolled["pending"]["prompt_named"].startswith("Ann rolled ")
    play_out(client, rolled, state["tokens"])
    final = client.get(f"/api/games/{state['id']}").json()
    match = stored_match(client, state["id"])
    seat_events = len(final["events"]) - len(match.events)
    said = [tell(event, match) for event in match.events]
    expected = [None] * seat_events + [t.text if t is not None else None for t in said]
    assert final["events_text"] == expected
    assert "Ann rolls" in " ".join(filter(None, expected)) and "Bo rolls" in " ".join(
        filter(None, expected))
    assert final["title"] == f"{format_text(match.config.format, match.round)} · pot 1.00"
    assert final["pot_text"] == "1.00"
    # the last screen's heading and pot, in the narration's words (the page adds none)
    assert state["ending"] is None and rolled["ending"] is None
    assert final["ending"] == ending_text(match)
    assert final["ending"]["heading"] == winners_line(match)
    payouts = [t.text for e, t in zip(match.events, said, strict=True)
               if e["type"] == "payout" and t is not None]
    assert final["ending"]["pot"] == f"The pot was 1.00: {', '.join(payouts)}."
    later = client.get(f"/api/games/{state['id']}", params={"since": seat_events + 3}).json()
    assert later["events_text"] == expected[seat_events + 3:]
