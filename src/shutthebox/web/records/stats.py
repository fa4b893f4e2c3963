"""A player's statistics: the results each finished game records, the claimed players who
have them, and from a player's results the record, the turn scores and the solo games, all
counted under the rules the player played most. Only claimed players have statistics: a
result counts under the player who held its seat (``results.player_id``), never under a
name, so a rename follows the player and no one adds to another's record by playing under
their name."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from shutthebox.language import _
from shutthebox.rules import Rules
from shutthebox.web.play.memory import GameNotFoundError, read_game
from shutthebox.web.records.players import Player, holder_of
from shutthebox.web.storage import RESULTS
from shutthebox.web.storage.schema import PLAYERS


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
        record = {
            "player": self.name, "games": len(rows), "matches": len(matches),
            "wins": sum(r.won for r in matches), "turns": len(turns),
            "average_score": sum(turns) / len(turns) if turns else None,
            "shut_rate": sum(r.shut_boxes for r in rows) / len(turns) if turns else None,
            "best_score": better(same) if same else None, "rules": self.rules.to_dict(),
            "personal_best": better(solo) if solo else None,
            "solo": {"games": sum(1 for r in rows if r.format == "solo"),
                     "personal_best": better(solo) if solo else None, "scores": solo},
            "scores": histogram, "optimal": optimal}
        return {**record, "words": stats_words(record)}


def _count(count: int, one: str, more: str, **values: object) -> str:
    # a sentence for one and one for more, whole, as a translator reads them
    return (one if count == 1 else more).format(count=count, **values)


def stats_words(record: dict[str, Any]) -> dict[str, Any]:
    """A player's statistics (:meth:`PlayerStats.to_dict`'s ``record``) in the words the
    page shows: ``rows`` (each fact's label and value), ``solo`` (their best and their
    scores in sentences; None without a solo game) and ``chart`` (the chart of their turn
    scores against perfect play: its heading, axes, legend, description, caption, and a
    title for each bar and dot by score).

    >>> words = stats_words({"player": "Ann", "games": 1, "matches": 0, "wins": 0.0,
    ...     "turns": 2, "average_score": 6.0, "shut_rate": 0.5, "best_score": 0,
    ...     "solo": {"games": 1, "personal_best": 0, "scores": [12, 0]},
    ...     "scores": {"12": 1, "0": 1}, "optimal": {"0": 0.0976}})
    >>> words["rows"][5], words["solo"]["best"]
    (['Shut the box', '50.0 % of turns'], 'Personal best: 0 over 1 solo game.')
    >>> words["chart"]["dots"]["0"], words["chart"]["caption"][:22]
    ('score 0: 9.76 % under perfect play', 'From 2 turns under the')
    """
    matches, wins = record["matches"], record["wins"]
    average, rate = record["average_score"], record["shut_rate"]
    rows = [
        [_("Games"), str(record["games"])],
        [_("Matches against others"), str(matches) if matches else "–"],
        [_("Wins in those matches"), (f"{wins:.0f}" if float(wins).is_integer()
                                      else f"{wins:.1f}") if matches else "–"],
        [_("Turns"), str(record["turns"])],
        [_("Average score"), f"{average:.2f}" if average is not None else "–"],
        [_("Shut the box"), _("{percent} % of turns").format(percent=f"{rate * 100:.1f}")
         if rate is not None else "–"],
        [_("Best score"), str(record["best_score"]) if record["best_score"] is not None
         else "–"]]
    played = record["solo"]
    solo = None
    if played["games"]:
        solo = {"title": _("Solo"),
                "best": _count(played["games"],
                               _("Personal best: {best} over {count} solo game."),
                               _("Personal best: {best} over {count} solo games."),
                               best=played["personal_best"]),
                "scores": _("Scores in order: {scores}").format(
                    scores=", ".join(str(s) for s in played["scores"]))}
    scores, optimal = record["scores"], record["optimal"] or {}
    total = sum(scores.values())
    chart = {
        "heading": _("Scores against perfect play"),
        "x_label": _("Score of a turn"), "y_label": _("Share of turns"),
        "yours": _("your turns"), "perfect": _("perfect play"),
        "description": _("Share of turns at each score: {player}'s turns as bars, perfect "
                         "play as dots").format(player=record["player"]),
        "caption": _count(total, _("From {count} turn under the rules this player used most. "
                                   "Bars: their turns at each score; dots: the exact share "
                                   "under perfect play."),
                          _("From {count} turns under the rules this player used most. "
                            "Bars: their turns at each score; dots: the exact share under "
                            "perfect play.")),
        "bars": {score: _("score {score}: {count} of your turns").format(
            score=score, count=scores.get(score, 0)) for score in {*scores, *optimal}},
        "dots": {score: _("score {score}: {percent} % under perfect play").format(
            score=score, percent=f"{optimal.get(score, 0.0) * 100:.2f}")
            for score in {*scores, *optimal}}}
    return {"rows": rows, "solo": solo, "chart": chart}


def finished_players(engine: Engine) -> list[dict[str, Any]]:
    """Every claimed player with a finished game: their name, games, last played; most
    games first. Results of seats no claimed player held are left out (anyone may play
    under a name of the table's, unrated and uncounted)."""
    games = func.count(RESULTS.c.game_id)
    with engine.connect() as db:
        rows = db.execute(
            select(PLAYERS.c.name, games, func.max(RESULTS.c.finished))
            .join(PLAYERS, PLAYERS.c.id == RESULTS.c.player_id)
            .group_by(PLAYERS.c.id, PLAYERS.c.name).order_by(games.desc(), PLAYERS.c.name)
            .limit(500)).all()
    return [{"name": name, "games": count, "last_played": last.isoformat() + "Z"}
            for name, count, last in rows]


def claimed_player(engine: Engine, name: str) -> Player:
    """The claimed player of ``name`` (or of a name that looks the same).

    :raises GameNotFoundError: no player claimed it.
    """
    with engine.connect() as db:
        player = holder_of(db, name)
    if player is None:
        raise GameNotFoundError(_("no player has claimed the name {name!r} on this server: "
                                  "the statistics count claimed players only").format(
                                  name=name))
    return player


def player_results(engine: Engine, player: Player) -> list[Any]:
    """The claimed player's results, oldest first.

    :raises GameNotFoundError: the player has no finished game.
    """
    with engine.connect() as db:
        rows = db.execute(select(RESULTS).where(RESULTS.c.player_id == player.id)
                          .order_by(RESULTS.c.finished)).all()
    if not rows:
        raise GameNotFoundError(_("{name!r} has no finished games yet: finish a game "
                                  "and the statistics appear here").format(name=player.name))
    return list(rows)


RECENT = 20
"""How many of a player's last finished games their accuracy covers."""


def recent_logs(engine: Engine, player: Player, count: int = RECENT
                ) -> tuple[list[dict[str, Any]], list[int]]:
    """The logs of the claimed player's last ``count`` finished games, oldest first, and
    their seat in each (a game's log keeps the name it was played under)."""
    finished = func.max(RESULTS.c.finished)
    with engine.connect() as db:
        games = db.execute(
            select(RESULTS.c.game_id, func.min(RESULTS.c.seat), finished)
            .where(RESULTS.c.player_id == player.id)
            .group_by(RESULTS.c.game_id).order_by(finished.desc(), RESULTS.c.game_id.desc())
            .limit(count)).all()
        logs, seats = [], []
        for game_id, seat, _when in reversed(games):
            match = read_game(db, game_id).match
            if match is not None:
                logs.append(match.to_log())
                seats.append(int(seat))
        return logs, seats
