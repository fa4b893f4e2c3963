"""Coaching through the API: hints and the coach's chances for a seat of the game, and the
review of a finished game, worked out once however many pages ask for it at once.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.narration import chances_text
from shutthebox.rules import Rules
from shutthebox.solver import solve
from shutthebox.web.solving.work import PER_CLIENT
from tests.web.client import bearer, new_game, play_out


def test_hints_and_coaching_need_a_seat_of_the_game(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    base = f"/api/games/{state['id']}"
    token = state["tokens"]["0"]
    assert client.get(f"{base}/hint").status_code == 401
    assert client.get(f"{base}/coach", headers=bearer("nope")).status_code == 401
    waiting = client.get(f"{base}/hint", headers=bearer(token)).json()
    assert waiting["options"] == [] and "Roll" in waiting["message"]
    coach = client.get(f"{base}/coach", headers=bearer(token)).json()
    assert coach["p_shut"] == pytest.approx(solve(Rules(), "shut").value())
    assert coach["text"] == chances_text(coach["p_shut"], coach["expected_score"])
    state = client.post(f"{base}/roll", json={"event": state["event_count"]},
                        headers=bearer(token)).json()
    if state["status"] == "over":
        return
    hint = client.get(f"{base}/hint", headers=bearer(token)).json()
    assert sorted(map(tuple, (o["tiles"] for o in hint["options"]))) == sorted(
        map(tuple, state["pending"]["legal"]))
    assert hint["options"][0]["loss"] == 0
    assert [o["text"] for o in hint["options"]] == [     # the moves as the terminal writes them
        " ".join(map(str, sorted(o["tiles"]))) for o in hint["options"]]   # lowest first


def test_review_gives_costs_in_the_unit_of_the_objective_and_a_verdict(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    final = play_out(client, state, state["tokens"])
    review = client.get(f"/api/games/{final['id']}/review").json()
    assert review["unit"] == "points" and review["decisions"]
    assert all(d["unit"] == "points" and d["cost"] >= 0 for d in review["decisions"])
    assert any(d["costly"] for d in review["decisions"]) == (review["mistakes"]["Ann"] > 0)
    assert review["verdict"].startswith("Ann: ")
    assert review["chart"]["table"]["caption"].startswith(
        "Every decision; costs are in points of expected score against perfect play.")


def counted_solver(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions the app's interactive solver worker runs from now on, each
    call held half a second (so that requests sent together overlap)."""
    pool = client.app.state.work.interactive        # type: ignore[attr-defined]
    calls: list[str] = []
    run = pool.run

    async def counted(function: Callable[..., Any], *arguments: Any) -> Any:
        calls.append(function.__name__)
        await asyncio.sleep(0.5)
        return await run(function, *arguments)

    monkeypatch.setattr(pool, "run", counted)
    return calls


def test_a_finished_games_review_is_worked_out_once_for_every_page(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every friend's page asks for the review as the game ends, all from one address:
    each gets it (none is refused for the client's solver calls), from one solver call."""
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    final = play_out(client, state, state["tokens"])
    assert final["status"] == "over"
    calls = counted_solver(client, monkeypatch)
    path = f"/api/games/{final['id']}/review"
    pages = PER_CLIENT + 3
    with ThreadPoolExecutor(pages) as threads:
        answers = list(threads.map(lambda _: client.get(path), range(pages)))
    assert [a.status_code for a in answers] == [200] * pages, answers[-1].text
    assert all(a.json() == answers[0].json() for a in answers)
    assert answers[0].json()["verdict"].startswith("Ann: ")
    assert calls == ["review"]
    assert client.get(path).json() == answers[0].json() and calls == ["review"]   # kept
    french = client.get(path, params={"lang": "fr"})            # its own words, once
    assert french.status_code == 200 and french.json() != answers[0].json()
    assert client.get(path, params={"lang": "fr"}).json() == french.json()
    assert calls == ["review", "review"]


def test_a_review_of_a_game_being_played_is_not_kept(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    state = client.post(f"/api/games/{state['id']}/roll", json={"event": state["event_count"]},
                        headers=bearer(state["tokens"]["0"])).json()
    assert state["status"] == "playing"            # (nine tiles open take any roll)
    calls = counted_solver(client, monkeypatch)
    for _ in range(2):
        assert client.get(f"/api/games/{state['id']}/review").status_code == 200
    assert calls == ["review", "review"]
