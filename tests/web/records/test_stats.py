"""The players' list and their statistics, with the statistics in the server's words.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.client import new_game, play_out


def test_players_are_listed_and_any_name_has_statistics(client: TestClient) -> None:
    for _ in range(2):
        state = new_game(client, players=[{"name": "Al/Bo"}])
        play_out(client, state, state["tokens"])
    duel = new_game(client, players=[{"name": "Al/Bo"}, {"name": "Bot", "computer": "easy"}])
    play_out(client, duel, duel["tokens"])
    names = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert names["Al/Bo"] == 3
    stats = client.get("/api/stats", params={"player": "Al/Bo"}).json()
    assert stats["solo"]["games"] == 2 and stats["matches"] == 1
    assert stats["wins"] in (0.0, 0.5, 1.0)
    assert stats["solo"]["personal_best"] == min(stats["solo"]["scores"])
    assert sum(stats["optimal"].values()) == pytest.approx(1.0)
    # the statistics in words come with them, made by the server, not by the page
    from shutthebox.web.records.stats import stats_words

    words = stats["words"]
    assert words == stats_words({k: v for k, v in stats.items() if k != "words"})
    assert dict(words["rows"])["Games"] == "3" and dict(words["rows"])["Matches against others"] \
        == "1"
    assert words["solo"]["best"] == (f"Personal best: {stats['solo']['personal_best']} over 2 "
                                     "solo games.")
    assert set(words["chart"]["bars"]) == set(words["chart"]["dots"]) == {
        *stats["optimal"], *stats["scores"]}
    turns = sum(stats["scores"].values())
    assert words["chart"]["caption"].startswith(f"From {turns} turns under the rules")
    missing = client.get("/api/stats", params={"player": "Nobody"})
    assert missing.status_code == 404 and "no finished games" in missing.json()["detail"]
