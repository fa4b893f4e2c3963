"""The web app's game service: stored games driven by the match engine, no HTTP here.

Every request that acts rebuilds (or reuses) the game's :class:`Match`, applies the action,
lets computer seats play until a human must act, and stores the new events in one
transaction before it answers. Dice are rolled here, never by the client.
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from shutthebox.errors import ShutTheBoxError
from shutthebox.match import Match, MatchConfig, replay
from shutthebox.solver import solve
from shutthebox.solver.advice import rank_dice, rank_moves, review, total_costs
from shutthebox.solver.objectives import SCORE
from shutthebox.solver.players import OptimalStrategy
from shutthebox.strategies import Strategy, make_strategy
from shutthebox.tiles import mask_of, tiles_of
from shutthebox.turn import Phase
from shutthebox.web.storage import (
    GAMES,
    RESULTS,
    GameRow,
    PlayerResultRow,
    append_events,
    load_events,
    now,
    sessions,
)


class GameNotFoundError(ShutTheBoxError):
    """No game has this id."""


class NotYourTurnError(ShutTheBoxError):
    """The action is not the one the game waits for, or not from the seat to act."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat at a new game: a name, and a computer strategy (None for a human)."""

    name: str
    strategy: str | None = None


@dataclass
class _Loaded:
    """A game in memory: its match and its seats' strategies."""

    match: Match
    seats: list[str | None]


class GameService:
    """Creates, stores, plays and reports games."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessions(engine)
        self._games: dict[str, _Loaded] = {}
        self._strategies: dict[tuple[str, int], Strategy] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._dice = random.SystemRandom()

    # --- creating and reading ----------------------------------------------------------

    def create(self, config: MatchConfig, seats: list[SeatSpec]) -> dict[str, Any]:
        """Store a new game, play any computer steps, and return its state."""
        for seat in seats:
            if seat.strategy is not None:
                make_strategy(seat.strategy, config.rules, random.Random(0))
        game_id = uuid.uuid4().hex
        match = Match(config)
        strategies = [s.strategy for s in seats]
        with self.sessions.begin() as session:
            session.execute(insert(GAMES).values(
                id=game_id, config=config.to_dict(), seats=strategies, status="playing",
                event_count=0, created=now(), updated=now()))
            self._advance(game_id, match, strategies)
            self._store(session, game_id, match, 0)
        self._games[game_id] = _Loaded(match, strategies)
        return self._state(game_id, match, strategies, 0)

    def state(self, game_id: str, since: int = 0) -> dict[str, Any]:
        with self.sessions() as session:
            loaded = self._load(session, game_id)
            return self._state(game_id, loaded.match, loaded.seats, since)

    def list_games(self) -> list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(select(GameRow).order_by(GameRow.updated.desc()).limit(200))
            return [{"id": r.id, "status": r.status, "players": r.config["players"],
                     "format": r.config["format"], "updated": r.updated.isoformat() + "Z",
                     "events": r.event_count} for r in rows]

    # --- acting ------------------------------------------------------------------------

    def roll(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The human to act rolls the dice (the server draws them)."""
        def act(match: Match) -> None:
            self._check_turn(match, seat, ("roll",))
            match.roll(self._dice)
        return self._act(game_id, act)

    def choose_dice(self, game_id: str, seat: int | None, dice: int) -> dict[str, Any]:
        def act(match: Match) -> None:
            self._check_turn(match, seat, ("choose-dice",))
            match.decide(dice)
            match.roll(self._dice)
        return self._act(game_id, act)

    def shut(self, game_id: str, seat: int | None, tiles: list[int]) -> dict[str, Any]:
        def act(match: Match) -> None:
            self._check_turn(match, seat, ("shut",))
            match.decide(mask_of(tiles))
        return self._act(game_id, act)

    def _check_turn(self, match: Match, seat: int | None, kinds: tuple[str, ...]) -> None:
        pending = match.pending
        if match.is_over:
            raise NotYourTurnError("the game is over")
        if pending.kind not in kinds:
            raise NotYourTurnError(f"the game waits for {pending.kind!r}, not {kinds[0]!r}")
        if seat is not None and seat != pending.seat:
            raise NotYourTurnError(f"it is seat {pending.seat}'s turn, not seat {seat}'s")

    def _act(self, game_id: str, act: Callable[[Match], None]) -> dict[str, Any]:
        with self._lock(game_id), self.sessions.begin() as session:
            loaded = self._load(session, game_id)
            match = loaded.match
            before = len(match.events)
            try:
                act(match)
                self._advance(game_id, match, loaded.seats)
                self._store(session, game_id, match, before)
            except Exception:
                self._games.pop(game_id, None)   # rebuilt from the stored log next time
                raise
            return self._state(game_id, match, loaded.seats, before)

    def _advance(self, game_id: str, match: Match, seats: list[str | None]) -> None:
        """Roll roll-offs and play computer seats until a human must act."""
        while not match.is_over:
            pending = match.pending
            seat = pending.seat
            computer = seat is not None and seats[seat] is not None
            if pending.kind == "roll-off" or (pending.is_chance and computer):
                match.roll(self._dice)
            elif pending.is_decision and computer:
                assert seat is not None and pending.turn is not None
                match.decide(self._strategy(game_id, seat, match, seats[seat] or "")
                             .choose(pending.turn, match.situation()))
            else:
                return

    def _strategy(self, game_id: str, seat: int, match: Match, name: str) -> Strategy:
        key = (game_id, seat)
        if key not in self._strategies:
            self._strategies[key] = make_strategy(name, match.rules, random.Random())
        return self._strategies[key]

    def _store(self, session: Session, game_id: str, match: Match, before: int) -> None:
        status = "over" if match.is_over else "playing"
        if not append_events(session, game_id, before, match.events[before:], status):
            raise NotYourTurnError("the game changed while this request was made: "
                                   "load it again and retry")
        if match.is_over:
            self._record_results(session, game_id, match)

    def _record_results(self, session: Session, game_id: str, match: Match) -> None:
        if match.config.format.kind.value == "battle":
            return
        scores: dict[int, list[int]] = {seat: [] for seat in range(len(match.players))}
        shut_boxes = dict.fromkeys(scores, 0)
        for item in match.events:
            if item["type"] == "turn-end":
                scores[item["seat"]].append(item["score"])
                shut_boxes[item["seat"]] += int(item["shut_box"])
        session.execute(insert(RESULTS), [
            {"game_id": game_id, "seat": seat, "player": name, "rules": match.rules.to_dict(),
             "format": str(match.config.format),
             "won": 1 / len(match.winners) if seat in match.winners else 0.0,
             "scores": scores[seat], "shut_boxes": shut_boxes[seat], "finished": now()}
            for seat, name in enumerate(match.players)])

    # --- coaching ----------------------------------------------------------------------

    def hint(self, game_id: str) -> dict[str, Any]:
        """Every legal action now, ranked by the solver, with its chance to shut."""
        match = self._current(game_id)
        pending = match.pending
        turn = pending.turn
        if turn is None or not pending.is_decision:
            raise NotYourTurnError(f"no decision to hint: the game waits for {pending.kind!r}")
        rules = match.rules
        objective = SCORE
        if pending.role == "turn":
            objective = OptimalStrategy(rules, SCORE).solution_for(match.situation()).objective
        measure = "expected score" if objective is SCORE else "chance to win"
        options: list[dict[str, Any]]
        if pending.kind == "choose-dice":
            shut = {d.dice: d.value for d in rank_dice(rules, "shut", turn.open_tiles)}
            options = [{"dice": d.dice, "value": d.value, "loss": d.loss,
                        "p_shut": shut[d.dice]}
                       for d in rank_dice(rules, objective, turn.open_tiles)]
        else:
            assert turn.roll is not None
            shut = {m.tiles: m.value for m in rank_moves(rules, "shut", turn.open_tiles,
                                                         turn.roll)}
            options = [{"tiles": list(tiles_of(m.tiles)), "value": m.value, "loss": m.loss,
                        "p_shut": shut[m.tiles]}
                       for m in rank_moves(rules, objective, turn.open_tiles, turn.roll)]
        return {"kind": pending.kind, "measure": measure, "options": options}

    def coach(self, game_id: str) -> dict[str, Any]:
        """The exact chance to shut and expected score from the current position."""
        match = self._current(game_id)
        turn = match.pending.turn
        rules = match.rules
        if turn is None:
            return {"p_shut": None, "expected_score": None}
        shut, score = solve(rules, "shut"), solve(rules, "score")
        if turn.phase is Phase.SHUT and turn.roll is not None:
            return {"p_shut": shut.after_roll(turn.open_tiles, turn.roll),
                    "expected_score": score.after_roll(turn.open_tiles, turn.roll)}
        return {"p_shut": shut.value(turn.open_tiles),
                "expected_score": score.value(turn.open_tiles)}

    def review(self, game_id: str) -> dict[str, Any]:
        match = self._current(game_id)
        reviewed = review(match.to_log())
        return {"decisions": [r.to_dict() for r in reviewed],
                "total_cost": total_costs(reviewed)}

    def stats(self, name: str) -> dict[str, Any]:
        """A player's record, and their score distribution beside optimal play's."""
        with self.sessions() as session:
            rows = list(session.scalars(select(PlayerResultRow)
                                        .where(PlayerResultRow.player == name)))
            if not rows:
                raise GameNotFoundError(f"no finished games for player {name!r}")
            turns = [s for r in rows for s in r.scores]
            common = max({tuple(sorted(r.rules.items())) for r in rows},
                         key=lambda key: sum(1 for r in rows
                                             if tuple(sorted(r.rules.items())) == key))
            rules_dict = dict(common)
            same = [s for r in rows if r.rules == rules_dict for s in r.scores]
            from shutthebox.rules import Rules

            rules = Rules.from_dict(rules_dict)
            best = (min if rules.lower_is_better else max)(same)
            histogram: dict[str, int] = {}
            for score in same:
                histogram[str(score)] = histogram.get(str(score), 0) + 1
            optimal = solve(rules, "score").distribution
            solo_best = [s for r in rows if r.format == "solo" and r.rules == rules_dict
                         for s in r.scores]
            return {
                "player": name, "games": len(rows), "wins": sum(r.won for r in rows),
                "turns": len(turns), "average_score": sum(turns) / len(turns),
                "shut_rate": sum(r.shut_boxes for r in rows) / len(turns),
                "best_score": best, "rules": rules_dict,
                "personal_best": (min if rules.lower_is_better else max)(solo_best)
                if solo_best else None,
                "scores": histogram, "optimal": {str(s): p for s, p in optimal.items()}}

    def player_count(self) -> int:
        with self.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(GameRow)) or 0)

    # --- plumbing ----------------------------------------------------------------------

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _load(self, session: Session, game_id: str) -> _Loaded:
        """The game's match: from memory if it is up to date with the database (one small
        query), else rebuilt by replaying the stored log."""
        count = session.scalar(select(GAMES.c.event_count).where(GAMES.c.id == game_id))
        if count is None:
            raise GameNotFoundError(f"no game {game_id!r}")
        cached = self._games.get(game_id)
        if cached is not None and len(cached.match.events) == count:
            return cached
        row = session.get(GameRow, game_id)
        assert row is not None
        match = replay({"version": 1, **row.config, "events": load_events(session, game_id)})
        loaded = self._games[game_id] = _Loaded(match, list(row.seats))
        return loaded

    def _current(self, game_id: str) -> Match:
        with self.sessions() as session:
            return self._load(session, game_id).match

    def _state(self, game_id: str, match: Match, seats: list[str | None],
               since: int) -> dict[str, Any]:
        pending = match.pending
        turn = pending.turn
        legal: list[list[int]] = []
        dice_choices: list[int] = []
        if turn is not None and pending.kind == "shut":
            legal = [list(tiles_of(m)) for m in turn.legal_actions()]
        if turn is not None and pending.kind == "choose-dice":
            dice_choices = list(turn.legal_actions())
        return {
            "id": game_id, "status": "over" if match.is_over else "playing",
            "rules": match.rules.to_dict(), "format": str(match.config.format),
            "players": [{"name": name, "computer": seats[i]}
                        for i, name in enumerate(match.players)],
            "stake": match.config.stake, "pot": match.pot,
            "pending": {
                "kind": pending.kind, "seat": pending.seat, "role": pending.role,
                "human": pending.seat is not None and seats[pending.seat] is None,
                "roll": list(turn.roll) if turn is not None and turn.roll and
                pending.kind == "shut" else None,
                "dice": turn.dice if turn is not None else None,
                "legal": legal, "dice_choices": dice_choices},
            "board": list(tiles_of(match.board)), "round": match.round,
            "round_scores": {str(s): v for s, v in match.round_scores.items()},
            "totals": list(match.totals), "active": list(match.active),
            "winners": list(match.winners), "losers": list(match.losers),
            "payouts": {str(s): v for s, v in match.payouts.items()},
            "event_count": len(match.events), "since": since,
            "events": match.events[since:],
        }
