"""Ratings on the statistics: each player name's Elo rating from its finished games, through
the API, on SQLite and PostgreSQL; computer seats at their fixed ratings."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.coach import analyse
from shutthebox.coach.ratings import COMPUTER_RATINGS, START, K, expected, likeness
from tests.web.client import new_game, play_out, stored_match


def rating(client: TestClient, name: str) -> Any:
    answer = client.get("/api/stats", params={"player": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["rating"]


def share(final: dict[str, Any], seat: int) -> float:
    """The seat's head-to-head result in a two-player game: 1, 1/2 or 0."""
    winners = final["winners"]
    return 1.0 if winners == [seat] else 0.5 if seat in winners else 0.0


def test_ratings_move_the_right_way_after_a_won_and_a_lost_game(
        client: TestClient) -> None:
    before = {"Ann": START, "Bo": START}
    for game in range(1, 4):
        state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
        final = play_out(client, state, state["tokens"])
        ann = share(final, 0)
        change = K * (ann - expected(before["Ann"], before["Bo"]))
        now = {"Ann": rating(client, "Ann"), "Bo": rating(client, "Bo")}
        assert now["Ann"]["rating"] == pytest.approx(before["Ann"] + change)
        assert now["Bo"]["rating"] == pytest.approx(before["Bo"] - change)
        if ann == 1.0:
            assert now["Ann"]["rating"] > before["Ann"] and now["Bo"]["rating"] < before["Bo"]
        elif ann == 0.0:
            assert now["Ann"]["rating"] < before["Ann"] and now["Bo"]["rating"] > before["Bo"]
        for name in ("Ann", "Bo"):
            assert now[name]["games"] == game
            assert now[name]["history"][0] == START
            assert now[name]["history"][-1] == pytest.approx(now[name]["rating"])
            assert len(now[name]["history"]) == game + 1
            assert now[name]["text"].startswith(f"{name}'s rating is ")
            assert now[name]["text"].endswith(f"{name} {likeness(now[name]['rating'])}.")
        before = {name: now[name]["rating"] for name in before}


def test_a_computer_seat_stands_at_its_fixed_rating(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Cy"}, {"name": "Bot", "computer": "easy"}])
    final = play_out(client, state, state["tokens"])
    cy = share(final, 0)
    found = rating(client, "Cy")
    assert found["rating"] == pytest.approx(
        START + K * (cy - expected(START, COMPUTER_RATINGS["random"])))
    assert rating(client, "Bot") is None          # a computer's rating never moves
    accuracy = client.get("/api/stats", params={"player": "Cy"}).json()["accuracy"]
    (cy_played,) = [p for p in analyse(stored_match(client, final["id"]).to_log()).players
                    if p.player == "Cy"]
    if cy_played.decisions:
        assert accuracy["history"] == pytest.approx([cy_played.accuracy])
        assert accuracy["text"].startswith("Cy's accuracy over the last 1 game")
    else:
        assert accuracy is None


def test_solo_games_are_not_rated(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Di"}])
    play_out(client, state, state["tokens"])
    assert rating(client, "Di") is None
    missing = client.get("/api/stats", params={"player": "Nobody at all"})
    assert missing.status_code == 404
