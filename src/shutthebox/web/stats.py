"""A player's statistics: the results each finished game records, the players who have
them, and from a player's results the record, the turn scores and the solo games, all counted
under the rules the player played most."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from shutthebox.match import Match
from shutthebox.rules import Rules
from shutthebox.web.cache import GameNotFoundError, read_game
from shutthebox.web.storage import RESULTS


class Result(Protocol):
    """One finished game's result for the player (a row of the results table)."""

    @property
    def rules(self) -> dict[str, Any]: ...
    @property
    def format(self) -> str: ...
    @property
    def won(self) -> float: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def shut_boxes(self) -> int: ...


def _key(rules: dict[str, Any]) -> str:
    return json.dumps(rules, sort_keys=True)


class PlayerStats:
    """The statistics of ``name`` from ``rows``, their results (at least one).

    >>> from types import SimpleNamespace as Row
    >>> rows = [Row(rules={"tiles": 9}, format="solo", won=0.0, scores=[12, 0],
    ...             shut_boxes=1),
    ...         Row(rules={"tiles": 9}, format="single", won=1.0, scores=[7], shut_boxes=0)]
    >>> found = PlayerStats("Ann", rows)
    >>> found.rules.tiles
    9
    >>> record = found.to_dict(optimal=None)
    >>> record["wins"], record["average_score"], record["personal_best"], record["scores"]
    (1.0, 6.333333333333333, 0, {'12': 1, '0': 1, '7': 1})

    :raises ValueError: no rows.
    :raises ShutTheBoxError: rules that are not valid.
    """

    def __init__(self, name: str, rows: Sequence[Result]) -> None:
        self.name = name
        self.rows = rows
        counts: dict[str, int] = {}
        for row in rows:
            counts[_key(row.rules)] = counts.get(_key(row.rules), 0) + 1
        self._common = max(counts, key=lambda k: counts[k])
        self.rules = Rules.from_dict(json.loads(self._common))
        """The rules the player played most (the first played of equals): the best scores,
        the solo games and the histogram count the games under these."""

    def to_dict(self, optimal: Any) -> dict[str, Any]:
        """The statistics as the API answers them, with ``optimal``, optimal play's
        distribution of turn scores under :attr:`rules`."""
        rows = self.rows
        better = min if self.rules.lower_is_better else max
        same = [s for r in rows if _key(r.rules) == self._common for s in r.scores]
        turns = [s for r in rows for s in r.scores]
        matches = [r for r in rows if r.format != "solo"]
        solo = [s for r in rows if r.format == "solo" and _key(r.rules) == self._common
                for s in r.scores]
        histogram: dict[str, int] = {}
        for score in same:
            histogram[str(score)] = histogram.get(str(score), 0) + 1
        return {
            "player": self.name, "games": len(rows), "matches": len(matches),
            "wins": sum(r.won for r in matches), "turns": len(turns),
            "average_score": sum(turns) / len(turns) if turns else None,
            "shut_rate": sum(r.shut_boxes for r in rows) / len(turns) if turns else None,
            "best_score": better(same) if same else None, "rules": self.rules.to_dict(),
            "personal_best": better(solo) if solo else None,
            "solo": {"games": sum(1 for r in rows if r.format == "solo"),
                     "personal_best": better(solo) if solo else None, "scores": solo},
            "scores": histogram, "optimal": optimal}


def game_results(match: Match) -> list[dict[str, Any]]:
    """Each player's result of the finished ``match``, as
    :func:`~shutthebox.web.storage.record_results` stores them (a battle has none)."""
    if match.config.format.kind.value == "battle":
        return []
    scores: dict[int, list[int]] = {seat: [] for seat in range(len(match.players))}
    shut_boxes = dict.fromkeys(scores, 0)
    for item in match.events:
        if item["type"] == "turn-end":
            scores[item["seat"]].append(item["score"])
            shut_boxes[item["seat"]] += int(item["shut_box"])
    rules, fmt = match.rules.to_dict(), str(match.config.format)
    return [{"seat": seat, "player": name, "rules": rules, "format": fmt,
             "won": 1 / len(match.winners) if seat in match.winners else 0.0,
             "scores": scores[seat], "shut_boxes": shut_boxes[seat]}
            for seat, name in enumerate(match.players)]


def finished_players(engine: Engine) -> list[dict[str, Any]]:
    """Everyone with a finished game: name, games, last played; most games first."""
    with engine.connect() as db:
        rows = db.execute(
            select(RESULTS.c.player, func.count(), func.max(RESULTS.c.finished))
            .group_by(RESULTS.c.player).order_by(func.count().desc(), RESULTS.c.player)
            .limit(500)).all()
    return [{"name": name, "games": games, "last_played": last.isoformat() + "Z"}
            for name, games, last in rows]


def player_results(engine: Engine, name: str) -> list[Any]:
    """The player's results, oldest first.

    :raises GameNotFoundError: the player has no finished game.
    """
    with engine.connect() as db:
        rows = db.execute(select(RESULTS).where(RESULTS.c.player == name)
                               .order_by(RESULTS.c.finished)).all()
    if not rows:
        raise GameNotFoundError(f"{name!r} has no finished games yet: finish a game and "
                                "the statistics appear here")
    return list(rows)


RECENT = 20
"""How many of a player's last finished games their accuracy covers."""


def recent_logs(engine: Engine, name: str, count: int = RECENT) -> list[dict[str, Any]]:
    """The logs of ``name``'s last ``count`` finished games, oldest first."""
    finished = func.max(RESULTS.c.finished)
    with engine.connect() as db:
        games = [game_id for game_id, _ in db.execute(
            select(RESULTS.c.game_id, finished).where(RESULTS.c.player == name)
            .group_by(RESULTS.c.game_id).order_by(finished.desc(), RESULTS.c.game_id.desc())
            .limit(count))]
        logs = []
        for game_id in reversed(games):
            match = read_game(db, game_id).match
            if match is not None:
                logs.append(match.to_log())
        return logs
