"""The score sheets of real tables through the API: begun, rounds entered and taken back by
the holder of the sheet's token only, the format's eliminations, winners, pot and ledger
answered in words, the sheet kept and read again, and a clear 4xx for every bad request.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.client import bearer


def begin(client: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    answer = client.post("/api/sheets", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["sheet"]["id"], data["token"], data["sheet"]


def test_an_elimination_for_a_pot_is_kept_round_by_round(client: TestClient) -> None:
    sheet_id, token, sheet = begin(client, players=["Ann", " Bo ", "Cy"],
                                   format="elimination:20", stake="1")
    assert sheet["players"] == ["Ann", "Bo", "Cy"] and sheet["pot"] == 300
    assert sheet["next"]["heading"] == "Game 1, round 1"
    rounds = f"/api/sheets/{sheet_id}/rounds"
    for scores in ([12, 5, 9], [9, 3, 4]):
        sheet = client.post(rounds, json={"scores": scores}, headers=bearer(token)).json()
    assert sheet["games"][0]["rounds"][1]["lines"] == ["Ann is out with 21"]
    assert sheet["next"]["playing"] == [False, True, True]
    sheet = client.post(rounds, json={"scores": [None, 16, 2], "rounds": 2},
                        headers=bearer(token)).json()
    game = sheet["games"][0]
    assert game["over"] and game["winners"] == [2] and game["payouts"] == [0, 0, 300]
    assert game["rounds"][-1]["lines"] == ["Bo is out with 24", "Cy wins!", "Cy takes 3.00"]
    assert sheet["ledger"] == {"games": 1, "net": [-100, -100, 200],
                               "text": "Money won so far: Ann -1.00, Bo -1.00, Cy +2.00."}
    assert sheet["next"] == {"game": 2, "round": 1, "playing": [True, True, True],
                             "heading": "Game 2, round 1"}
    sheet = client.post(rounds, json={"scores": [1, 2, 3]}, headers=bearer(token)).json()
    assert len(sheet["games"]) == 2 and sheet["rounds"] == 4
    taken = client.delete(f"{rounds}/last", headers=bearer(token)).json()
    assert len(taken["games"]) == 1 and taken["rounds"] == 3
    read = client.get(f"/api/sheets/{sheet_id}", params={"lang": "fr"}).json()
    assert read["rounds"] == 3 and read["created"] <= read["updated"]
    assert read["games"][0]["rounds"][-1]["lines"][0] != "Bo is out with 24"   # in French


def test_only_the_sheet_s_token_changes_it(client: TestClient) -> None:
    sheet_id, token, _sheet = begin(client, players=["Ann", "Bo"])
    _other_id, other_token, _other = begin(client, players=["Cy", "Di"])
    rounds = f"/api/sheets/{sheet_id}/rounds"
    assert client.post(rounds, json={"scores": [1, 2]}).status_code == 401
    assert client.post(rounds, json={"scores": [1, 2]},
                       headers=bearer(other_token)).status_code == 403
    assert client.delete(f"{rounds}/last", headers=bearer("x" * 32)).status_code == 403
    assert client.get(f"/api/sheets/{sheet_id}").json()["rounds"] == 0
    assert client.post(rounds, json={"scores": [1, 2]}, headers=bearer(token)).status_code == 200
    stale = client.post(rounds, json={"scores": [1, 2], "rounds": 0}, headers=bearer(token))
    assert stale.status_code == 409 and "changed meanwhile" in stale.json()["detail"]


def test_bad_sheets_and_rounds_are_clear_4xx(client: TestClient) -> None:
    refused: list[tuple[dict[str, Any], int, str]] = [
        ({"players": []}, 422, "players"),
        ({"players": ["A"] * 13}, 422, "players"),
        ({"players": ["x" * 41]}, 422, "players"),
        ({"players": ["Ann", "Ann"]}, 400, "player names must differ"),
        ({"players": ["Ann\u202e"]}, 400, "bidirectional"),
        ({"players": ["Ann", "Bo"], "format": "battle"}, 400, "a battle has no scores"),
        ({"players": ["Ann", "Bo"], "format": "race"}, 400, "covered scoring"),
        ({"players": ["Ann", "Bo"], "format": "rounds:0"}, 400, "rounds"),
        ({"players": ["Ann", "Bo"], "stake": "-1"}, 400, "stake '-1'"),
        ({"players": ["Ann"], "stake": "1"}, 400, "at least two players"),
        ({"players": ["Ann", "Bo"], "preset": "nope"}, 400, "nope"),
        ({"players": ["Ann", "Bo"], "rules": {"tiles": 40}}, 400, "tiles"),
    ]
    for body, status, says in refused:
        answer = client.post("/api/sheets", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert says in answer.json()["detail"], (body, answer.json()["detail"])
    sheet_id, token, _sheet = begin(client, players=["Ann", "Bo"], format="rounds:2")
    rounds = f"/api/sheets/{sheet_id}/rounds"
    bad_rounds: list[tuple[dict[str, Any], int, str]] = [
            ({"scores": [1]}, 400, "1 scores for 2 players"),
            ({"scores": [1, 46]}, 400, "Bo's score 46"),
            ({"scores": [1, None]}, 400, "no score for Bo"),
            ({"scores": [1, -1]}, 422, "scores"),
            ({"scores": [1, "a"]}, 422, "scores"),
            ({"scores": [0] * 13}, 422, "scores")]
    for body, status, says in bad_rounds:
        answer = client.post(rounds, json=body, headers=bearer(token))
        assert answer.status_code == status, (body, answer.text)
        assert says in answer.json()["detail"], (body, answer.json()["detail"])
    assert client.delete(f"{rounds}/last", headers=bearer(token)).status_code == 400
    assert client.get(f"/api/sheets/{'0' * 32}").status_code == 404
    assert client.get("/api/sheets/not-an-id").status_code == 422
    assert client.post(f"/api/sheets/{'0' * 32}/rounds", json={"scores": [1]},
                       headers=bearer(token)).status_code == 404
