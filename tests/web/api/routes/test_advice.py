"""The advisor of a real table through the API: the moves of a box tapped in ranked as the
coach ranks them (by the expected score, or by the chance to win in a match), the dice choice
before a roll, and a clear 4xx for every position or match that cannot be.

The advice touches no database, but the client runs on both (SQLite and PostgreSQL) as every
API test does."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.coach import aim, rank
from shutthebox.coach.situations import table_position, table_situation
from shutthebox.match import GameFormat
from shutthebox.rules import OneDie, Rules, preset
from shutthebox.tiles import tiles_of


def ranked(rules: Rules, open_tiles: list[int], roll: list[int] | None,
           fmt: str | None = None, totals: tuple[int, ...] = (0, 0),
           posted: tuple[int, ...] = ()) -> list[tuple[list[int], float]]:
    situation = (table_situation(rules, GameFormat.parse(fmt), totals, posted)
                 if fmt else None)
    hint = rank(table_position(rules, open_tiles, roll), aim(rules, situation))
    return [(list(tiles_of(c.action)), c.value) for c in hint.choices]


def test_the_moves_of_a_box_tapped_in_are_the_coach_s(client: TestClient) -> None:
    answer = client.post("/api/advice", json={"open": [1, 3, 4, 5, 6, 7, 8],
                                              "roll": [5, 3]}).json()
    assert answer["phase"] == "shut" and answer["measure"] == "expected score"
    assert [(o["tiles"], o["value"]) for o in answer["options"]] == [
        (tiles, pytest.approx(value)) for tiles, value in
        ranked(Rules(), [1, 3, 4, 5, 6, 7, 8], [3, 5])]
    assert answer["options"][0]["loss"] == 0 and answer["options"][1]["loss"] > 0
    in_a_match = client.post("/api/advice", json={
        "open": list(range(1, 10)), "roll": [4, 4], "format": "single", "totals": [0, 0, 0],
        "posted": [6]}).json()
    assert in_a_match["measure"] == "chance to win" and in_a_match["chance"]
    assert [o["value"] for o in in_a_match["options"]] == [
        pytest.approx(v) for _t, v in ranked(Rules(), list(range(1, 10)), [4, 4], "single",
                                             (0, 0, 0), (6,))]


def test_a_match_beyond_the_server_s_tables_is_ranked_by_expected_score_saying_so(
        client: TestClient) -> None:
    answer = client.post("/api/advice", json={
        "preset": "box-12", "open": list(range(1, 13)), "roll": [6, 6],
        "format": "loser-at:10000", "totals": [40, 30]}).json()
    assert answer["measure"] == "expected score" and not answer["chance"]
    assert "Ranked by expected score for now" in answer["note"]
    assert [o["value"] for o in answer["options"]] == [
        pytest.approx(v) for _t, v in ranked(preset("box-12"), list(range(1, 13)), [6, 6])]


def test_before_the_roll_the_dice_choice_or_what_to_roll(client: TestClient) -> None:
    choice = client.post("/api/advice", json={"rules": {"one_die": "low-sum"},
                                              "open": [1, 4]}).json()
    rules = Rules(one_die=OneDie.LOW_SUM)
    assert choice["phase"] == "choose-dice"
    assert sorted(o["dice"] for o in choice["options"]) == list(rules.dice_choices(0b1001))
    rolling = client.post("/api/advice", json={"open": [1, 2, 3]}).json()
    assert rolling["options"] == [] and "roll 2 dice" in rolling["message"]
    stuck = client.post("/api/advice", json={"open": [1], "roll": [6, 6]}).json()
    assert stuck["phase"] == "over" and "score 1" in stuck["message"]


REFUSED: list[tuple[dict[str, Any], int, str]] = [
    ({"open": []}, 422, "open"),
    ({"open": [1, 13]}, 422, "open"),
    ({"open": [1, 1], "roll": [3, 4]}, 400, "tile 1 is named twice"),
    ({"preset": "classic", "rules": {"tiles": 6}, "open": [9], "roll": [3, 6]}, 400,
     "open tiles [9]"),
    ({"open": [1, 2], "roll": [7, 1]}, 422, "roll"),
    ({"open": [1, 2], "roll": [3]}, 400, "the rules roll 2 dice"),
    ({"preset": "nope", "open": [1]}, 400, "nope"),
    ({"open": [1, 2], "roll": [1, 2], "format": "nope"}, 400, "unknown format 'nope'"),
    ({"open": [1, 2], "roll": [1, 2], "format": "elimination:45", "totals": [50, 3]}, 400,
     "total 50"),
    ({"open": [1, 2], "roll": [1, 2], "format": "single", "totals": [0, 0],
      "posted": [99]}, 400, "posted score 99"),
    ({"open": [1, 2], "roll": [1, 2], "format": "single", "totals": [0, 0],
      "posted": [1, 2]}, 400, "2 posted scores"),
    ({"open": [1, 2], "roll": [1, 2], "format": "rounds:3", "round": 4}, 400, "round 4"),
    ({"open": [1, 2], "roll": [1, 2], "format": "battle"}, 400, "role"),
    ({"open": [1, 2], "roll": [1, 2], "format": "single", "totals": [0] * 13}, 422, "totals"),
    ({"open": [1, 2], "roll": [1, 2], "format": "single", "totals": [10**16, 0]}, 422,
     "totals"),
]
"""Positions and matches that cannot be: the status and a part of the sentence answered."""


def test_a_position_that_cannot_be_is_a_clear_4xx(client: TestClient) -> None:
    for body, status, says in REFUSED:        # (one app for them all: they touch no table)
        answer = client.post("/api/advice", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert says in answer.json()["detail"], body
