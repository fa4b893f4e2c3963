"""The daily box's records (:mod:`shutthebox.web.records.daily`,
:mod:`shutthebox.web.records.server_secrets`): the server's secret made once and shared, its
dice not the public ones, a claimed player's one turn a day whose decisions are stored one at
a time (compare and set: never two at once, never taken back), the finished turn stored as
the player's game, and the day's table of claimed players only.

Every test here that touches a database runs twice: on a SQLite file and on a fresh
PostgreSQL schema (skipped, saying so, when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from shutthebox.coach.daily import DAILY_PRESETS, DailyBox, DailyDateError, daily_box
from shutthebox.match import Match
from shutthebox.web.records import daily
from shutthebox.web.records.players import Player, claim, rename_player
from shutthebox.web.records.server_secrets import DAILY, server_secret
from shutthebox.web.storage import RESULTS, load_events, make_engine
from shutthebox.web.storage.schema import DAILY_TURNS, SERVER_SECRETS

DAY = date(2026, 11, 24)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    yield made
    made.dispose()


@pytest.fixture
def box(engine: Engine) -> DailyBox:
    return daily.box_of(DAY.isoformat(), server_secret(engine), now=DAY)


def claimed(engine: Engine, name: str) -> Player:
    with engine.begin() as db:
        return claim(db, name).player


def first_legal(match: Match) -> Any:
    """The first legal decision where the turn waits: a dice count, or the tiles to shut."""
    turn = match.pending.turn
    assert turn is not None
    if match.pending.kind.value == "choose-dice":
        return turn.legal_actions()[0]
    from shutthebox.tiles import tiles_of

    return list(tiles_of(turn.legal_actions()[0]))


def play_out(engine: Engine, box: DailyBox, player: Player) -> daily.DailyTurn:
    """The player's whole turn, the first legal decision each time, as stored."""
    with engine.begin() as db:
        turn = daily.started_turn(db, box, player)
    while turn.game_id is None:
        match = daily.replayed(box, turn.moves)
        with engine.begin() as db:
            turn = daily.decide(db, box, player, turn.decisions, first_legal(match))
    return turn


def test_the_servers_secret_is_made_once_and_read_the_same_by_every_engine(
        database_url: str) -> None:
    engines = [make_engine(database_url) for _ in range(3)]
    try:
        secrets = [server_secret(e) for e in engines]
        assert len(set(secrets)) == 1 and len(secrets[0]) == 32
        with engines[0].connect() as db:
            assert db.execute(select(func.count()).select_from(SERVER_SECRETS)).scalar() == 1
            assert db.execute(select(SERVER_SECRETS.c.name)).scalar() == DAILY
    finally:
        for made in engines:
            made.dispose()


def test_processes_starting_at_once_agree_on_one_secret(database_url: str) -> None:
    engines = [make_engine(database_url) for _ in range(4)]
    found: list[bytes] = []
    start = threading.Barrier(len(engines))

    def read(engine: Engine) -> None:
        start.wait()
        found.append(server_secret(engine))

    threads = [threading.Thread(target=read, args=(e,)) for e in engines]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(found) == 4 and len(set(found)) == 1
    finally:
        for made in engines:
            made.dispose()


def test_the_servers_dice_are_not_the_public_dice_of_the_day() -> None:
    public, keyed = daily_box(DAY), daily_box(DAY, b"k" * 32)
    other = daily_box(DAY, b"j" * 32)
    assert public.preset == keyed.preset and public.rules == keyed.rules
    rolls = [box.rolls(40) for box in (public, keyed, other)]
    assert rolls[0] != rolls[1] and rolls[1] != rolls[2] and rolls[0] != rolls[2]
    assert keyed.rolls(40) == daily_box(DAY, b"k" * 32).rolls(40)   # a secret, one stream
    faces = [f for i in range(6000) for f in keyed.roll(i, 2)]
    for face in range(1, 7):
        assert faces.count(face) == pytest.approx(2000, rel=0.1)
    assert "k" * 32 not in repr(keyed)


def test_a_turn_is_one_a_day_and_deals_a_roll_only_after_its_decision(
        engine: Engine, box: DailyBox) -> None:
    ann = claimed(engine, "Ann")
    with engine.begin() as db:
        turn = daily.started_turn(db, box, ann)
    with engine.begin() as db:
        again = daily.started_turn(db, box, ann)
    assert turn == again and turn.moves == [] and turn.game_id is None
    match = daily.replayed(box, turn.moves)
    rolls = [e for e in match.events if e["type"] == "roll"]
    assert len(rolls) <= 1                # the first roll, if the turn does not begin with dice
    with engine.begin() as db:
        moved = daily.decide(db, box, ann, 0, first_legal(match))
    assert moved.decisions == 1
    with engine.connect() as db:
        assert db.execute(select(func.count()).select_from(DAILY_TURNS)).scalar() == 1


def test_a_decision_is_never_taken_back_and_a_repeat_changes_nothing(
        engine: Engine, box: DailyBox) -> None:
    bo = claimed(engine, "Bo")
    with engine.begin() as db:
        turn = daily.started_turn(db, box, bo)
    match = daily.replayed(box, turn.moves)
    decision = first_legal(match)
    with engine.begin() as db:
        moved = daily.decide(db, box, bo, 0, decision)
    with engine.begin() as db:
        repeat = daily.decide(db, box, bo, 0, decision)
    assert repeat == moved
    legal = match.pending.turn.legal_actions() if match.pending.turn else []
    if len(legal) > 1:                    # another legal decision at the old count: 409
        from shutthebox.tiles import tiles_of

        other = (legal[1] if match.pending.kind.value == "choose-dice" else
                 list(tiles_of(legal[1])))
        with engine.begin() as db, pytest.raises(daily.DailyTurnChangedError,
                                                 match="made already, differently"):
            daily.decide(db, box, bo, 0, other)
    with engine.begin() as db, pytest.raises(daily.DailyTurnChangedError,
                                             match="has 1 decision, not 5"):
        daily.decide(db, box, bo, 5, decision)
    with engine.begin() as db, pytest.raises(daily.DailyMoveError):
        daily.decide(db, box, bo, 1, [99])
    with engine.connect() as db:
        assert daily.started_turn(db, box, bo).moves == moved.moves


def test_two_decisions_at_once_move_the_turn_once(engine: Engine, box: DailyBox) -> None:
    cy = claimed(engine, "Cy")
    with engine.begin() as db:
        turn = daily.started_turn(db, box, cy)
    match = daily.replayed(box, turn.moves)
    turn_now = match.pending.turn
    assert turn_now is not None
    from shutthebox.tiles import tiles_of

    legal = [a if match.pending.kind.value == "choose-dice" else list(tiles_of(a))
             for a in turn_now.legal_actions()]
    sent = [legal[i % len(legal)] for i in range(6)]
    start = threading.Barrier(len(sent))
    outcomes: list[Any] = []

    def send(decision: Any) -> None:
        start.wait()
        try:
            with engine.begin() as db:
                outcomes.append(daily.decide(db, box, cy, 0, decision).moves)
        except daily.DailyTurnChangedError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=send, args=(d,)) for d in sent]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    with engine.connect() as db:
        stored = daily.started_turn(db, box, cy)
    assert stored.decisions == 1 and len(outcomes) == len(sent)
    for outcome, decision in zip(outcomes, sent, strict=False):
        assert outcome == stored.moves or isinstance(outcome, daily.DailyTurnChangedError), (
            outcome, decision)


def test_the_finished_turn_is_the_players_game_and_the_table_lists_claimed_players(
        engine: Engine, box: DailyBox) -> None:
    dee, eve = claimed(engine, "Dee"), claimed(engine, "Eve")
    dees = play_out(engine, box, dee)
    eves = play_out(engine, box, eve)
    assert dees.game_id and dees.game_id.startswith("da1120261124")
    with engine.begin() as db:
        assert daily.started_turn(db, box, dee) == dees     # finished: answered as stored
        with pytest.raises(daily.DailyMoveError, match="after the turn ended"):
            daily.decide(db, box, dee, dees.decisions, 2)
        rename_player(db, eve, "Evelyn")
    with engine.connect() as db:
        rows = db.execute(select(RESULTS.c.player, RESULTS.c.player_id)
                          .where(RESULTS.c.game_id == dees.game_id)).all()
        table = daily.day_table(db, box, now=date(2026, 11, 26))
        other_day = daily.day_table(db, daily_box(date(2026, 11, 23)))
    assert [tuple(r) for r in rows] == [("Dee", dee.id)]
    assert sorted(r["player"] for r in table["results"]) == ["Dee", "Evelyn"]
    assert {r["game"] for r in table["results"]} == {dees.game_id, eves.game_id}
    with engine.connect() as db:         # while the day's box is played: no one's dice
        while_played = daily.day_table(db, box, now=date(2026, 11, 25))
    assert [r["game"] for r in while_played["results"]] == [None, None]
    assert [r["player"] for r in while_played["results"]] == [
        r["player"] for r in table["results"]]
    scores = [r["score"] for r in table["results"]]
    assert scores == sorted(scores, reverse=not box.rules.lower_is_better)
    assert table["text"].startswith("2 results") and other_day["results"] == []
    result = daily.result(box.day.isoformat(), dees.moves, box.secret)
    assert result["perfect"] == box.perfect_score() and result["lines"][0].startswith("You")
    assert daily.result(box.day.isoformat(), dees.moves, box.secret, "Dee")["lines"][
        0].startswith("Dee scored")


def test_only_today_and_yesterday_are_played_on_the_server() -> None:
    assert daily.box_of("2026-11-23", b"s", now=DAY).day == date(2026, 11, 23)
    for day in ("2026-11-22", "2026-11-25", "24/11/2026"):
        with pytest.raises(DailyDateError):
            daily.box_of(day, b"s", now=DAY)


def test_every_rule_set_of_the_rotation_is_dealt_and_stored(engine: Engine) -> None:
    gil = claimed(engine, "Gil")
    secret = server_secret(engine)
    presets = set()
    for offset in range(len(DAILY_PRESETS)):
        day = DAY + timedelta(days=offset)
        box = daily.box_of(day.isoformat(), secret, now=day)
        turn = play_out(engine, box, gil)
        presets.add(box.preset)
        match = daily.replayed(box, turn.moves)
        assert daily.turn_state(box, match, turn.decisions)["at"] == len(turn.moves)
        with engine.connect() as db:                  # the stored game: the server's dice
            events = load_events(db, str(turn.game_id))
        rolls = [tuple(e["roll"]) for e in events if e["type"] == "roll"]
        assert rolls and rolls == [box.roll(i, len(r)) for i, r in enumerate(rolls)]
        assert [e for e in events if e["type"] == "turn-end"]
    assert presets == set(DAILY_PRESETS)
