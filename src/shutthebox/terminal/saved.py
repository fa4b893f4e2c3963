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

import contextlib
import json
import os
import socket
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shutthebox.errors import LogError, ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import FormatKind, Match, PendingKind, load_log, replay
from shutthebox.names import name_of
from shutthebox.paths import (
    ADVICE,
    DataFolderError,
    data_home,
    games_dir,
    make_folder,
    reason,
)
from shutthebox.phrases import join_words
from shutthebox.rules import Rules


class SavedGameError(ShutTheBoxError):
    """A saved game that does not exist or cannot be resumed."""


class SaveError(DataFolderError):
    """A game that could not be written (a full disk, a read-only folder); the file keeps the
    game as it was last saved."""


class GameInUseError(DataFolderError):
    """A game another window (another process) is playing: one game, one writer."""


class GameLock:
    """The one writer of a game: an exclusive lock on ``locks/NAME.lock`` in the data folder,
    held while a window plays the game and let go when it ends (the system lets go of it too
    when the process dies, so a crash never leaves a game locked).

    The lock file says who holds it, for the window that is refused. It is removed when the
    lock is let go; a process that locked a file removed meanwhile locks again.
    """

    def __init__(self, game: Path) -> None:
        self.game = game
        self.path = data_home() / "locks" / f"{game.stem}.lock"
        self._file: Any = None

    def acquire(self) -> bool:
        """Take the lock; False when another process holds it.

        :raises DataFolderError: the lock file cannot be made (a read-only data folder).
        """
        import fcntl

        make_folder(self.path.parent)
        while True:
            try:
                file = open(self.path, "a+b", buffering=0)  # noqa: SIM115 - held open
            except OSError as error:
                raise DataFolderError(_("cannot lock the game {game!r} in {folder!r}: "
                                        "{why}; {advice}").format(
                    game=self.game.stem, folder=str(self.path.parent),
                    why=reason(error), advice=_(ADVICE))) from None
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                file.close()
                return False
            try:
                same = os.stat(self.path).st_ino == os.fstat(file.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            file.close()   # the holder let go and removed the file: lock the new one
        try:
            file.truncate(0)
            file.write(f"pid {os.getpid()} on {socket.gethostname()}, since "
                       f"{datetime.now():%Y-%m-%d %H:%M}\n".encode())
        except OSError:
            pass   # the lock is held; only the note for the refused window is missing
        self._file = file
        return True

    def holder(self) -> str:
        """Who holds the lock, as its file says."""
        try:
            return self.path.read_text(encoding="utf-8").strip() or _("another process")
        except (OSError, UnicodeDecodeError):
            return _("another process")

    def release(self) -> None:
        """Let go of the lock (and remove its file)."""
        if self._file is None:
            return
        with contextlib.suppress(OSError):   # a read-only folder keeps the file, unlocked
            self.path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self._file.close()
        self._file = None


def lock_game(path: Path) -> GameLock:
    """The lock of a saved game, taken for this window.

    :raises GameInUseError: another window is playing the game.
    """
    lock = GameLock(path)
    if not lock.acquire():
        raise GameInUseError(_("the game {game!r} is open in another window ({holder}): "
                               "finish or quit it there first").format(
                                   game=path.stem, holder=lock.holder()))
    return lock


def new_game_path(match: Match) -> tuple[Path, GameLock]:
    """A fresh file name for a game, its start time (UTC) and format, locked for this window.
    Nothing is written in the games folder until the game is saved.

    :raises DataFolderError: the games folder or the lock cannot be made.
    """
    name = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{match.config.format.kind.value}"
    folder = games_dir()
    number = 1
    while True:
        path = folder / (f"{name}.json" if number == 1 else f"{name}-{number}.json")
        number += 1
        if os.path.lexists(path):
            continue
        lock = GameLock(path)
        if not lock.acquire():
            continue   # another window started a game in the same second
        if not os.path.lexists(path):
            return path, lock
        lock.release()


def save_game(match: Match, path: Path, seed: int | None, computers: dict[int, str]) -> Path:
    """Write the game's log with its computer seats: whole or not at all. The log goes to a
    temporary file, to the disk, then in place of the old one; if any step fails the
    temporary file is removed and the old file is left as it was.

    :raises SaveError: the file cannot be written (a full disk, a read-only folder).
    """
    log = match.to_log(seed)
    log["computers"] = {str(seat): kind for seat, kind in sorted(computers.items())}
    text = json.dumps(log, indent=1).encode("utf-8")
    partial = path.with_suffix(".json.part")
    try:
        make_folder(path.parent)
        with open(partial, "wb") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        partial.replace(path)
    except (OSError, DataFolderError) as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        why = reason(error) if isinstance(error, OSError) else str(error)
        kept = _("the file keeps the game as it was last saved") if path.exists() else \
            _("nothing was saved")
        raise SaveError(_("cannot save the game to {path!r}: {why} ({kept})").format(
            path=str(path), why=why, kept=kept)) from None
    return path


def describe_state(match: Match) -> str:
    """A game's state in a few words: who won, or whose turn it is."""
    names = [name_of(name) for name in match.players]
    if match.is_over:
        winners = [names[s] for s in match.winners]
        if match.config.format.kind is FormatKind.SOLO:
            return _("finished: score {score}").format(score=match.round_scores.get(0, "-"))
        if len(winners) > 1:
            return _("finished: tie between {names}").format(names=join_words(winners))
        return _("finished: {name} won").format(name=winners[0])
    pending = match.pending
    who = names[pending.seat] if pending.seat is not None else "?"
    if pending.kind is PendingKind.ROLL_OFF:
        return _("unfinished: roll-off, {name} to roll").format(name=who)
    if match.config.format.kind in (FormatKind.BATTLE, FormatKind.SOLO):
        return _("unfinished: {name} to play").format(name=who)
    return _("unfinished: round {round}, {name} to play").format(round=max(match.round, 1),
                                                                name=who)


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
            _("unreadable: {problem}").format(problem=self.problem)

    @classmethod
    def load(cls, path: Path) -> SavedGame:
        """Read and replay a saved game; a bad file gives a SavedGame with its problem."""
        try:
            log = load_log(path)
            match = replay(log)
            computers = {int(seat): str(kind)
                         for seat, kind in dict(log.get("computers", {})).items()}
            seed = log.get("seed")
        except LogError as error:
            return cls(path, problem=str(error).replace(f"{str(path)!r} ", _("the file") + " ",
                                                        1))
        except (ValueError, TypeError, AttributeError, KeyError) as error:
            return cls(path, problem=str(error) or type(error).__name__)
        return cls(path, match, computers, seed if isinstance(seed, int) else None)


def _game_files(folder: Path) -> list[tuple[float, Path]]:
    """The game files in ``folder`` with their times, none if it does not exist yet.

    A link that leads nowhere (or round in a loop) is listed, its time its own: loading it
    says what is wrong. An empty file is a name claimed by an older version, not a game.

    :raises DataFolderError: the folder cannot be read.
    """
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return []
    except OSError as error:
        raise DataFolderError(_("cannot read the saved games in {folder!r}: {why}").format(
            folder=str(folder), why=reason(error))) from None
    files: list[tuple[float, Path]] = []
    for entry in entries:
        if not entry.name.endswith(".json"):
            continue
        try:
            status = entry.stat()
        except OSError:
            try:
                status = entry.stat(follow_symlinks=False)
            except OSError:
                continue   # removed while listing
        if status.st_size or entry.is_symlink():
            files.append((status.st_mtime, Path(entry.path)))
    return files


def saved_games() -> list[SavedGame]:
    """Every saved game, the latest first.

    :raises DataFolderError: the games folder cannot be read.
    """
    files = sorted(_game_files(games_dir(create=False)), key=lambda f: f[0], reverse=True)
    return [SavedGame.load(path) for _time, path in files]


def find_game(name: str | None) -> SavedGame:
    """The game to resume: by name (the file name, with or without ``.json``, or a path),
    or the latest unfinished one.

    :raises SavedGameError: there is no such game, or it cannot be resumed.
    :raises DataFolderError: the games folder cannot be read.
    """
    if name is None:
        for game in saved_games():
            if game.match is not None and not game.match.is_over:
                return game
        raise SavedGameError(_("no unfinished game to resume in {folder!r}").format(
            folder=str(games_dir(create=False))))
    path = Path(name)
    if not path.exists():
        path = games_dir(create=False) / (name if name.endswith(".json") else f"{name}.json")
    if not path.is_file():
        raise SavedGameError(_("no saved game {name!r}: `shutthebox games` lists "
                               "them").format(name=name))
    game = SavedGame.load(path)
    if game.match is None:
        raise SavedGameError(_("cannot resume {name!r}: {problem}").format(
            name=name, problem=game.problem))
    if game.match.is_over:
        raise SavedGameError(_("game {name!r} is finished: {state}").format(
            name=name, state=game.state))
    return game


def personal_best(rules: Rules, player: str, excluding: Path | None = None) -> int | None:
    """The best score ``player`` has posted in a finished solo game with these rules (the
    game at ``excluding``, the one being played, left out). Files that cannot be read are
    passed over: a personal best is a note, not worth stopping a game for."""
    best: int | None = None
    wanted = rules.to_dict()
    try:
        files = _game_files(games_dir(create=False))
    except DataFolderError:
        return None
    for _time, path in files:
        if excluding is not None and path == excluding:
            continue
        try:
            log = load_log(path)
            if log.get("format") != "solo" or log.get("rules") != wanted \
                    or log.get("players") != [player]:
                continue
            scores = [e["score"] for e in log["events"] if e.get("type") == "turn-end"]
        except (ValueError, TypeError, AttributeError, KeyError):
            continue
        if scores and isinstance(scores[-1], int) and (
                best is None or rules.better(scores[-1], best)):
            best = scores[-1]
    return best
