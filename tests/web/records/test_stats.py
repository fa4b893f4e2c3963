"""The players' list and their statistics, with the statistics in the server's words.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.client import claimed, new_game, play_out, player


def test_claimed_players_are_listed_and_any_claimed_name_has_statistics(
        client: TestClient) -> None:
    token = claimed(client, "Al/Bo")
    for players in ([{"name": "You"}], [{"name": "You"}],
                    [{"name": "You"}, {"name": "Bot", "computer": "easy"}]):
        made = client.post("/api/games", json={"players": players}, headers=player(token))
        assert made.status_code == 201, made.text
        play_out(client, made.json(), made.json()["tokens"])
    unclaimed = new_game(client, players=[{"name": "Cy"}])
    play_out(client, unclaimed, unclaimed["tokens"])
    names = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert names == {"Al/Bo": 3}        # Cy claimed no name: played, not counted
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
    for name in ("Nobody", "Cy"):
        missing = client.get("/api/stats", params={"player": name})
        assert missing.status_code == 404 and "claimed" in missing.json()["detail"]
    claimed(client, "Di")
    missing = client.get("/api/stats", params={"player": "Di"})
    assert missing.status_code == 404 and "no finished games" in missing.json()["detail"]
