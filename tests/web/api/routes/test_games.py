"""Games as the API makes, lists and describes them: a new game's bounds (stakes, formats), the
list of a reader's games, and the choices, presets and sentences the page is sent.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from shutthebox.match import GameFormat
from shutthebox.narration import format_text
from shutthebox.rules import Rules
from tests.web.client import bearer, new_game, play_out
from tests.web.legal import first_legal


def test_the_game_list_shows_only_the_games_of_the_tokens_presented(client: TestClient) -> None:
    mine = new_game(client, players=[{"name": "Ann"}])
    new_game(client, players=[{"name": "Someone"}])
    assert client.get("/api/games").json() == []
    listed = client.get("/api/games", headers=bearer(mine["tokens"]["0"])).json()
    assert [g["id"] for g in listed] == [mine["id"]]


@pytest.mark.parametrize("stake", ["NaN", "Infinity", "-Infinity", "1e999999"])
def test_stakes_that_are_not_finite_amounts_are_400(client: TestClient, stake: str) -> None:
    for raw in (f'"{stake.lower()}"', stake):   # as a string and as a bare JSON number
        body = '{"players": [{"name": "A"}, {"name": "B"}], "stake": ' + raw + "}"
        response = client.post("/api/games", content=body,
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 400, (raw, response.text)
        assert "stake" in response.json()["detail"]


@pytest.mark.parametrize("fmt", ["rounds:101", "elimination:99999999999999999999",
                                 "race:1000000", "loser-at:0", "nonsense"])
def test_format_numbers_beyond_a_sane_bound_are_400(client: TestClient, fmt: str) -> None:
    response = client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}],
                                               "format": fmt})
    assert response.status_code == 400 and response.json()["detail"]


def test_the_new_game_forms_choices_are_the_rules_own_words(client: TestClient) -> None:
    from shutthebox.rules import MoveRule, OneDie

    choices = client.get("/api/choices").json()
    one_die = {c["value"]: c["text"] for c in choices["one_die"]}
    assert set(one_die) == {v.value for v in OneDie}
    for value, words in one_die.items():
        described = dict(Rules(one_die=OneDie(value)).describe())["one die"]
        assert described.startswith(words)
    moves = {c["value"]: c["text"] for c in choices["moves"]}
    assert moves == {v.value: dict(Rules(moves=v).describe())["moves"] for v in MoveRule}
    formats = [c["value"] for c in choices["format"]]
    assert "single" in formats and "battle" in formats
    assert all(c["text"] == format_text(GameFormat.parse(c["value"]), None)
               for c in choices["format"])


def test_the_sentences_the_page_completes_come_once_with_the_choices(
        client: TestClient) -> None:
    """What the tiles picked add up to, why a pick is refused, a round's end, a tile's name
    for a screen reader, the hint's captions: the page fills in numbers and names in the
    server's templates (sent once, not with every move)."""
    from shutthebox.narration import page_sentences

    sentences = client.get("/api/choices").json()["sentences"]
    assert sentences == page_sentences()
    assert sentences["pick_wrong"].format(target=8) == (
        "Those tiles do not make a move for 8: pick tiles adding up to 8.")
    assert sentences["picked_legal"].format(tiles="3 + 5", sum=8) == "Picked 3 + 5 = 8 ✓ adds up."
    assert sentences["round_over"].format(round=2) == "Round 2 is over"
    state = new_game(client, players=[{"name": "Ann"}])
    path, body = first_legal(state)
    rolled = client.post(path, json=body, headers=bearer(state["tokens"]["0"])).json()
    assert not any(key in rolled for key in ("sentences", "picked"))   # a move stays small


def test_the_server_says_a_games_status_a_rule_set_and_the_invite_lines(
        client: TestClient) -> None:
    """The list of a reader's games says each one's status, the rule sets come named with
    their tiles, and the invite lines and a missing game's sentences come with the page's
    templates: the page shows them as sent."""
    from shutthebox.narration import GameStatusError, status_text
    from shutthebox.rules import PRESETS

    sentences = client.get("/api/choices").json()["sentences"]
    assert sentences["invite_waiting"].format(name="Bo") == "Waiting for Bo to join."
    assert sentences["invite_seat"].format(seat=2, name="Bo", code="ABCD") == (
        "Invite a friend to seat 2 (Bo): send them the link, or the code ABCD to type on the "
        "start page.")
    assert sentences["game_not_found_title"] == "Game not found"
    missing = client.get("/api/games/no-such-game")
    assert missing.status_code == 404 and sentences["game_not_found"].startswith(
        "There is no game at this address.")
    presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["classic"]["text"] == "classic (9 tiles)"
    assert presets["classic"]["summary"] == PRESETS["classic"].summary
    waiting = new_game(client, players=[{"name": "Ann"}, {"name": "Bo", "kind": "open"}])
    solo = new_game(client, players=[{"name": "Ann"}])
    held = f"{waiting['tokens']['0']},{solo['tokens']['0']}"
    listed = {g["id"]: g for g in client.get("/api/games",
                                             headers={"X-Seat-Tokens": held}).json()}
    assert listed[waiting["id"]]["status_text"] == "waiting for players"
    assert listed[solo["id"]]["status_text"] == "not finished"
    play_out(client, solo, solo["tokens"])
    listed = {g["id"]: g for g in client.get("/api/games",
                                             headers={"X-Seat-Tokens": held}).json()}
    assert listed[solo["id"]]["status_text"] == status_text("over") == "finished"
    with pytest.raises(GameStatusError, match="no game status 'lost'"):
        status_text("lost")
    # a rule's bounds are checked once, by the rules: the page shows the server's refusal
    refused = client.post("/api/games", json={"players": [{"name": "Ann"}],
                                              "rules": {"tiles": "13x"}})
    assert refused.status_code == 400
    assert refused.json()["detail"] == "tiles must be a whole number from 2 to 12, not '13x'"


