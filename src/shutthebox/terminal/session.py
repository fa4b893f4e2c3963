"""A session at the table: the players, the match being played, its save file, the ledger.

Both the full-screen game and the line mode drive a session: they ask it for the computer
steps and apply the humans' decisions to :attr:`GameSession.match`; the session saves the game
and starts the next one. No rules live here: the match decides everything.
"""

from __future__ import annotations

import random
from dataclasses import InitVar, dataclass, field
from pathlib import Path

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.match import FormatKind, Ledger, Match, MatchConfig
from shutthebox.names import about
from shutthebox.players.base import Strategy
from shutthebox.strategies import describe_move, make_strategy
from shutthebox.terminal.saved import (
    GameLock,
    SavedGame,
    SavedGameError,
    lock_game,
    new_game_path,
    personal_best,
    save_game,
)


@dataclass
class GameSession:
    """Games of one configuration, played one after another (``--games N``)."""

    config: MatchConfig
    computers: dict[int, str]
    """The computer seats and their strategy names (``'hard'``, ``'random'``, ...)."""
    rng: random.Random
    seed: int | None = None
    games: int = 1
    keep: bool = True
    """Whether the games are saved (``--no-save``: not, and the data folder is never
    touched)."""
    match: Match = field(init=False)
    path: Path | None = field(init=False, default=None)
    """The game's file (None when it is not kept)."""
    strategies: dict[int, Strategy] = field(init=False)
    ledger: Ledger = field(default_factory=Ledger)
    number: int = 1
    """The number of the game being played in the session, from 1."""
    best_before: int | None = None
    """In solo: the player's best score with these rules before this game."""
    _recorded: bool = False
    _lock: GameLock | None = None
    saved: InitVar[SavedGame | None] = None
    """A saved game to continue (in its own file) instead of starting a new one."""

    def __post_init__(self, saved: SavedGame | None) -> None:
        self.strategies = {seat: make_strategy(kind, self.config.rules,
                                               random.Random(self.rng.random()))
                           for seat, kind in self.computers.items()}
        if saved is not None and saved.match is not None:
            self._start(saved.match, saved.path)
        else:
            self._start(Match(self.config))

    @classmethod
    def resume(cls, saved: SavedGame, seed: int | None = None) -> GameSession:
        """Continue a saved unfinished game, in the same file."""
        if saved.match is None:
            raise ValueError(f"cannot resume {saved.name!r}: {saved.problem}")
        return cls(saved.match.config, saved.computers, random.Random(seed), saved.seed,
                   saved=saved)

    def _start(self, match: Match, path: Path | None = None) -> None:
        """Play ``match``: a new game under a fresh name, or the saved game at ``path``, read
        again once this window holds it (another window may have moved it on)."""
        self.close()
        if path is None and self.keep:
            path, self._lock = new_game_path(match)
        elif path is not None:
            self._lock = lock_game(path)
            again = SavedGame.load(path)
            if again.match is None or again.match.is_over:
                self.close()
                raise SavedGameError(_("cannot resume {name!r}: {problem}").format(
                    name=path.stem, problem=again.state))
            match = again.match
        self.match = match
        self.path = path
        self._recorded = False
        if self.is_solo:
            self.best_before = personal_best(self.config.rules, self.config.players[0],
                                             excluding=self.path)

    def lessons(self) -> list[str]:
        """At a game's end, what the coach says of the people's play: each one's accuracy,
        luck against skill and why their costliest mistake was worse (none with computers
        alone, or when the game cannot be judged)."""
        from shutthebox.coach import analyse

        people = [name for seat, name in enumerate(self.config.players)
                  if seat not in self.computers]
        if not people or not self.match.is_over:
            return []
        try:
            return analyse(self.match.to_log()).summary(people)
        except ShutTheBoxError:   # a match table too large to build here
            return []

    def close(self) -> None:
        """Let go of the game: another window may resume it now."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # --- reading ---------------------------------------------------------------------

    @property
    def is_solo(self) -> bool:
        return self.config.format.kind is FormatKind.SOLO

    @property
    def humans(self) -> int:
        return len(self.config.players) - len(self.computers)

    @property
    def human_to_act(self) -> bool:
        """Whether the match waits for a human's decision."""
        pending = self.match.pending
        return pending.is_decision and pending.seat not in self.strategies

    @property
    def more_games(self) -> bool:
        return self.number < self.games

    def best_note(self) -> str | None:
        """In solo: the personal best with these rules, and whether this game beat it."""
        if not self.is_solo:
            return None
        rules = self.config.rules
        score = self.match.round_scores.get(0)
        best = self.best_before
        if score is None:
            return _("personal best: {best}").format(best=best) if best is not None else \
                _("no personal best yet for these rules")
        if best is None:
            return _("first score for these rules: {score}").format(score=score)
        if rules.better(score, best):
            return _("new personal best: {score} (was {best})").format(score=score, best=best)
        return (_("personal best: {best} (equalled)") if score == best else
                _("personal best: {best}")).format(best=best)

    # --- acting ----------------------------------------------------------------------

    def computer_action(self) -> int:
        """The pending computer's choice (the match is not changed: this may run in a
        thread while the screen is drawn)."""
        match = self.match
        pending = match.pending
        if pending.seat is None or pending.turn is None or pending.seat not in self.strategies:
            raise ValueError(f"no computer to play: the match waits for {pending.kind.value!r}")
        return self.strategies[pending.seat].choose(pending.turn, match.situation())

    def step(self) -> str | None:
        """Roll a pending chance node, or play a computer's decision; return the computer's
        move in words (None for a roll). Refuses when a human is to act."""
        match = self.match
        pending = match.pending
        if pending.is_chance:
            match.roll(self.rng)
            return None
        action = self.computer_action()
        assert pending.seat is not None and pending.turn is not None
        words = about(match.players[pending.seat], N_("You play: {move}"),
                      N_("{name} plays: {move}"), move=describe_move(pending.turn, action))
        match.decide(action)
        return words

    def save(self) -> Path | None:
        """Write the game as it stands (finished or not), if it is kept; its file.

        :raises SaveError: it cannot be written; the file keeps the last save.
        """
        if self.match.is_over and not self._recorded:
            self._recorded = True
            if self.config.stake:
                self.ledger.record(self.match)
        if self.path is None:
            return None
        return save_game(self.match, self.path, self.seed, self.computers)

    def next_game(self) -> None:
        """Start the next game of the session."""
        self.number += 1
        self._start(Match(self.config))
