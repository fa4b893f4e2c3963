"""Saved terminal games: one JSON log per game in the data folder, written after every step.

A saved log is the match's own log (:meth:`Match.to_log`) with the computer seats added
(``"computers": {"1": "hard"}``), so an unfinished game resumes with the same players, the
dice of a pending roll included. The solo personal best is read from the finished solo games.

>>> from shutthebox.match import GameFormat, MatchConfig
>>> from shutthebox.rules import Rules
>>> match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "CPU 1 (hard)")))
>>> describe_state(match)
'unfinished: round 1, Ann to play'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.match import FormatKind, Match, replay
from shutthebox.paths import games_dir
from shutthebox.rules import Rules


class SavedGameError(ShutTheBoxError):
    """A saved game that does not exist or cannot be resumed."""


def new_game_path(match: Match) -> Path:
    """A fresh file name for a game: its start time (UTC) and format."""
    name = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{match.config.format.kind.value}"
    folder = games_dir()
    path, number = folder / f"{name}.json", 1
    while path.exists():
        number += 1
        path = folder / f"{name}-{number}.json"
    path.touch()   # claim the name
    return path


def save_game(match: Match, path: Path, seed: int | None, computers: dict[int, str]) -> Path:
    """Write the game's log with its computer seats (atomically: a crash never leaves half a
    file)."""
    log = match.to_log(seed)
    log["computers"] = {str(seat): kind for seat, kind in sorted(computers.items())}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(log, indent=1))
    partial.replace(path)
    return path


def describe_state(match: Match) -> str:
    """A game's state in a few words: who won, or whose turn it is."""
    names = match.players
    if match.is_over:
        winners = [names[s] for s in match.winners]
        if match.config.format.kind is FormatKind.SOLO:
            return f"finished: score {match.round_scores.get(0, '-')}"
        if len(winners) > 1:
            return f"finished: tie between {' and '.join(winners)}"
        return f"finished: {winners[0]} won"
    pending = match.pending
    who = names[pending.seat] if pending.seat is not None else "?"
    if pending.kind == "roll-off":
        return f"unfinished: roll-off, {who} to roll"
    where = f"round {max(match.round, 1)}, " if match.config.format.kind not in \
        (FormatKind.BATTLE, FormatKind.SOLO) else ""
    return f"unfinished: {where}{who} to play"


@dataclass
class SavedGame:
    """One saved game: its file, and the match replayed from it (or why it would not)."""

    path: Path
    match: Match | None = None
    computers: dict[int, str] = field(default_factory=dict)
    seed: int | None = None
    problem: str = ""

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def state(self) -> str:
        return describe_state(self.match) if self.match is not None else \
            f"unreadable: {self.problem}"

    @classmethod
    def load(cls, path: Path) -> SavedGame:
        """Read and replay a saved game; a bad file gives a SavedGame with its problem."""
        try:
            log: Any = json.loads(path.read_text())
            match = replay(log)
            computers = {int(seat): str(kind)
                         for seat, kind in dict(log.get("computers", {})).items()}
            seed = log.get("seed")
        except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError,
                KeyError) as error:
            return cls(path, problem=str(error) or type(error).__name__)
        return cls(path, match, computers, seed if isinstance(seed, int) else None)


def saved_games() -> list[SavedGame]:
    """Every saved game, the latest first (a name claimed by a game not yet saved is not
    one)."""
    paths = sorted((p for p in games_dir().glob("*.json") if p.stat().st_size),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    return [SavedGame.load(path) for path in paths]


def find_game(name: str | None) -> SavedGame:
    """The game to resume: by name (the file name, with or without ``.json``, or a path),
    or the latest unfinished one."""
    if name is None:
        for game in saved_games():
            if game.match is not None and not game.match.is_over:
                return game
        raise SavedGameError(f"no unfinished game to resume in {str(games_dir())!r}")
    path = Path(name)
    if not path.exists():
        path = games_dir() / (name if name.endswith(".json") else f"{name}.json")
    if not path.is_file():
        raise SavedGameError(f"no saved game {name!r}: `shutthebox games` lists them")
    game = SavedGame.load(path)
    if game.match is None:
        raise SavedGameError(f"cannot resume {name!r}: {game.problem}")
    if game.match.is_over:
        raise SavedGameError(f"game {name!r} is finished: {game.state}")
    return game


def personal_best(rules: Rules, player: str, excluding: Path | None = None) -> int | None:
    """The best score ``player`` has posted in a finished solo game with these rules (the
    game at ``excluding``, the one being played, left out)."""
    best: int | None = None
    wanted = rules.to_dict()
    for path in games_dir().glob("*.json"):
        if excluding is not None and path == excluding:
            continue
        try:
            log = json.loads(path.read_text())
            if log.get("format") != "solo" or log.get("rules") != wanted \
                    or log.get("players") != [player]:
                continue
            scores = [e["score"] for e in log["events"] if e.get("type") == "turn-end"]
        except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError, KeyError):
            continue
        if scores and isinstance(scores[-1], int) and (
                best is None or rules.better(scores[-1], best)):
            best = scores[-1]
    return best
