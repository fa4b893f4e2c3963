"""The API speaks each reader's language: the rules, the format, the events, what the game
waits for, the hints and the refusals come in the language the request asks for (its
``lang`` query parameter, else its ``lang`` cookie, else its Accept-Language header),
English by default; the page's own words come from ``/api/words``; odd languages asked for
are answered in English, never with a 5xx. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.formats import GameFormat
from shutthebox.language import LANGUAGES, _, speaking
from shutthebox.match import Match, MatchConfig
from shutthebox.narration import format_text, rules_text, tell
from shutthebox.rules import Rules

HOSTS = ("testserver",)
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def rolled_game(client: TestClient, **headers: str) -> dict[str, Any]:
    """A game of Ann and Bo after Ann's first roll (in the language of ``headers``)."""
    created = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}],
                                              "format": "rounds:3"}).json()
    token = {"Authorization": f"Bearer {created['tokens']['0']}"}
    rolled = client.post(f"/api/games/{created['id']}/roll",
                         json={"event": created["event_count"]}, headers={**token, **headers})
    assert rolled.status_code == 200, rolled.text
    state: dict[str, Any] = rolled.json()
    state["tokens"] = created["tokens"]
    return state


def said(code: str, rules: dict[str, Any]) -> dict[str, Any]:
    """What the game's sentences are in ``code``, made by narration itself."""
    match = Match(MatchConfig(Rules(), GameFormat.parse("rounds:3"), ("Ann", "Bo")))
    with speaking(code):
        return {"rules": rules_text(Rules.from_dict(rules)), "format": format_text(
            GameFormat.parse("rounds:3"), 1),
            "turn": tell({"type": "turn", "seat": 0, "round": 1}, match)}


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_request_in_a_language_gets_the_game_in_it(client: TestClient, code: str) -> None:
    state = rolled_game(client)
    english = client.get(f"/api/games/{state['id']}").json()
    spoken = client.get(f"/api/games/{state['id']}", params={"lang": code}).json()
    expected = said(code, english["rules"])
    assert spoken["rules_text"] == expected["rules"] != english["rules_text"]
    assert spoken["format_text"] == expected["format"] != english["format_text"]
    assert expected["turn"].text in spoken["events_text"]
    assert spoken["pending"]["prompt"] != english["pending"]["prompt"]
    assert spoken["pending"]["text"] != english["pending"]["text"]
    with speaking(code):
        assert _("Your turn") not in english["events_text"]
    choices = client.get("/api/choices", params={"lang": code}).json()
    with speaking(code):
        assert choices["one_die"][0]["text"] == _("never: two dice always")
        assert choices["sentences"]["round_over"] == _("Round {round} is over")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_refusal_comes_in_the_language_asked(client: TestClient, code: str) -> None:
    state = rolled_game(client)
    roll = f"/api/games/{state['id']}/roll"
    bo = {"Authorization": f"Bearer {state['tokens']['1']}"}
    out_of_turn = client.post(roll, json={"event": state["event_count"]},
                              headers={**bo, "Accept-Language": code})
    assert out_of_turn.status_code == 409
    with speaking(code):
        expected = _("it is {whose}'s turn, not yours (seat {seat})").format(whose="Ann",
                                                                            seat=1)
    assert out_of_turn.json()["detail"] == expected
    bad = client.post("/api/games", params={"lang": code},
                      json={"players": [{"name": "A"}, {"name": "B"}], "format": "nonsense"})
    assert bad.status_code == 400
    english = client.post("/api/games",
                          json={"players": [{"name": "A"}, {"name": "B"}], "format": "nonsense"})
    assert bad.json()["detail"] != english.json()["detail"]
    assert "'nonsense'" in bad.json()["detail"]          # the input is quoted in every language
    malformed = client.post("/api/games", json={"players": []},
                            headers={"Cookie": f"lang={code}"})
    assert malformed.status_code == 422
    with speaking(code):
        assert malformed.json()["detail"].startswith(
            _("the request is not well formed: {problems}").split("{")[0])


def test_english_is_the_default_and_the_query_beats_the_cookie_beats_the_header(
        client: TestClient) -> None:
    state = rolled_game(client)
    path = f"/api/games/{state['id']}"
    english = client.get(path).json()["format_text"]
    with speaking("fr"):
        french = format_text(GameFormat.parse("rounds:3"), 1)
    with speaking("de"):
        german = format_text(GameFormat.parse("rounds:3"), 1)
    with speaking("ar"):
        arabic = format_text(GameFormat.parse("rounds:3"), 1)
    assert english == "Round 1 of 3"
    header = {"Accept-Language": "fr-CH, de;q=0.5"}
    assert client.get(path, headers=header).json()["format_text"] == french
    cookie = {**header, "Cookie": "theme=dark; lang=de"}
    assert client.get(path, headers=cookie).json()["format_text"] == german
    assert client.get(path, headers=cookie, params={"lang": "ar"}).json()["format_text"] \
        == arabic
    assert client.get(path, headers={"Accept-Language": "pt-BR"}).json()["format_text"] \
        == english


def test_the_page_words_come_in_each_language(client: TestClient) -> None:
    english = client.get("/api/words").json()
    assert english["language"] == "en" and english["words"] == {}
    assert english["languages"] == LANGUAGES
    for code in TRANSLATED:
        found = client.get("/api/words", params={"lang": code})
        assert found.headers["cache-control"] == "no-cache"
        words = found.json()
        assert words["language"] == code
        assert words["direction"] == ("rtl" if code == "ar" else "ltr")
        with speaking(code):
            assert words["words"]["Roll one die"] == _("Roll one die")
            assert words["words"]["Skip to the game"] == _("Skip to the game")
        assert "Your turn" not in words["words"]   # a sentence of the server, not the page's
    chosen = client.get("/api/words", headers={"Accept-Language": "es-MX,es;q=0.9"}).json()
    assert chosen["language"] == "es"


@pytest.mark.parametrize("odd", ["xx", "FR", "fr-FR", "../../etc/passwd",
                                 pytest.param("é" * 5000, id="long"), "%00", "fr;q=1", ""])
def test_an_odd_language_is_answered_in_english_never_a_5xx(client: TestClient,
                                                             odd: str) -> None:
    state = rolled_game(client)
    path = f"/api/games/{state['id']}"
    raw = odd.encode("utf-8")                          # as a header carries it
    exact = [client.get(path, params={"lang": odd})]
    if b";" not in raw:      # (a cookie header's ";" begins another cookie)
        exact.append(client.get(path, headers={b"cookie": b"lang=" + raw[:200]}))
    for answer in exact:     # the query and the cookie name a language exactly, or none
        assert answer.status_code == 200
        assert answer.json()["format_text"] == "Round 1 of 3"
    for answer in (client.get(path, headers={b"accept-language": raw[:4000]}),
                   client.get("/api/words", params={"lang": odd})):
        assert answer.status_code < 500


def test_many_different_language_headers_stay_bounded(client: TestClient) -> None:
    """Headers read once each are kept in a bounded table: a flood of different ones."""
    from shutthebox.web.api.languages import _negotiated

    state = rolled_game(client)
    path = f"/api/games/{state['id']}"
    for number in range(600):
        header = f"x{number}, es;q=0.{number % 9 + 1}"
        assert client.get(path, headers={"Accept-Language": header}).status_code == 200
    assert _negotiated.cache_info().currsize <= 512


def test_the_live_feed_speaks_each_watcher_s_language_one_message_per_language(
        client: TestClient) -> None:
    """A German player rolls; a French, an Arabic and an English watcher each hear the
    roll in their language; the batch is said in each language once, for all its
    watchers."""
    created = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}],
                                              "format": "rounds:3"}).json()
    live = f"/api/games/{created['id']}/live?since={created['event_count']}"
    token = {"Authorization": f"Bearer {created['tokens']['0']}", "Accept-Language": "de"}
    with client.websocket_connect(live + "&lang=fr") as french, \
            client.websocket_connect(live + "&lang=fr") as french_too, \
            client.websocket_connect(live, headers={"Cookie": "lang=ar"}) as arabic, \
            client.websocket_connect(live) as english:
        for feed in (french, french_too, arabic, english):
            feed.receive_json()
        rolled = client.post(f"/api/games/{created['id']}/roll",
                             json={"event": created["event_count"]}, headers=token)
        assert rolled.status_code == 200
        german_text = rolled.json()["events_text"]
        heard = {name: feed.receive_json()["events_text"] for name, feed in (
            ("fr", french), ("fr too", french_too), ("ar", arabic), ("en", english))}
        batch = client.app.state.hub.batch_after(  # type: ignore[attr-defined]
            created["id"], created["event_count"])
    roll = next(e for e in rolled.json()["events"] if e["type"] == "roll")
    said = "+".join(map(str, roll["roll"])) + f"={sum(roll['roll'])}"
    for code in ("fr", "ar", "en"):
        with speaking(code):
            expected = _("{name} rolls {roll}").format(name="Ann", roll=said)
        assert expected in heard[code], (code, heard[code])
    with speaking("de"):
        assert _("{name} rolls {roll}").format(name="Ann", roll=said) in german_text
    assert heard["fr"] == heard["fr too"]
    assert batch is not None and batch.language == "de"
    assert set(batch.spoken) == {"fr", "ar", "en"}        # each made once


def test_the_solver_workers_answer_in_the_language_asked(client: TestClient) -> None:
    """Hints and the review are made in worker processes, which a context variable does
    not reach: the language is handed to them with the work."""
    created = client.post("/api/games", json={"players": [{"name": "Ann"}],
                                              "format": "solo"}).json()
    seat = {"Authorization": f"Bearer {created['tokens']['0']}"}
    path = f"/api/games/{created['id']}"
    for code in LANGUAGES:
        hint = client.get(f"{path}/hint", params={"lang": code}, headers=seat)
        assert hint.status_code == 200, hint.text
        with speaking(code):
            assert hint.json()["message"] == _("Roll the dice first: hints rank the moves "
                                               "after a roll.")
    how = client.get(f"{path}/how-to-play", params={"lang": "es"}).json()
    with speaking("es"):
        assert _("Your turn") in json.dumps(how, ensure_ascii=False)


def test_a_reaction_reaches_each_watcher_in_their_language(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}],
                                              "format": "rounds:3"}).json()
    live = f"/api/games/{created['id']}/live?since={created['event_count']}"
    seat = {"Authorization": f"Bearer {created['tokens']['1']}", "Accept-Language": "es"}
    with client.websocket_connect(live + "&lang=de") as german, \
            client.websocket_connect(live + "&lang=ar") as arabic:
        german.receive_json()
        arabic.receive_json()
        sent = client.post(f"/api/games/{created['id']}/react", json={"reaction": "cheer"},
                           headers=seat)
        assert sent.status_code == 202, sent.text
        heard = {"de": german.receive_json(), "ar": arabic.receive_json()}
    for code, message in heard.items():
        assert message["type"] == "reaction"
        with speaking(code):
            assert message["text"] == _("{name} cheers.").format(name="Bo")
    assert heard["de"]["sent"] == heard["ar"]["sent"]
