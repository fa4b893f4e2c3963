"""The server's solver work: what it accepts, where it runs, and what it drops.

Two kinds of work, in two worker processes, so that neither waits on the other:

- **interactive** work, that a person waits for: a hint, the coach, a review, a computer's
  move in a game with a human at the table. It runs in :attr:`SolverWork.interactive`, each
  call short (no match table dearer than :data:`~shutthebox.web.solving.tables.INLINE_SECONDS` is
  worked out there: the answer says it is approximate until the table is built), and a
  client may have :data:`PER_CLIENT` such calls under way at once (429 beyond);
- **background** work: a match table a game's exact play needs, one at a time, in
  :attr:`SolverWork.background`, whose worker runs only when the processor is otherwise idle;
  and the moves of games without a human at the table.

A table is accepted only if :func:`~shutthebox.solver.cost.table_seconds` says it fits the
server's budget (``shutthebox serve --solver-budget``); a new game whose computers would
need a dearer one is refused with a 400 saying what fits, or, if its creator asks for it,
played by computers that play each turn for the best expected score (no table needed). A
client may have one table waiting or being built at a time, the server
:data:`MAX_WAITING_BUILDS`; a table that no game anyone watches still needs is dropped, even
while it is being built (its worker is ended).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import FormatKind, GameFormat
from shutthebox.rules import Rules
from shutthebox.web import metrics
from shutthebox.web.solving.pool import SolverPool, WorkDroppedError
from shutthebox.web.solving.shared import SharedAnswers
from shutthebox.web.solving.tables import table_ready
from shutthebox.web.solving.workers import prepare_match

T = TypeVar("T")

DEFAULT_BUDGET = 60.0
"""Seconds of solver time the server spends on one match table, by default (measured on the
reference machine; see :mod:`shutthebox.solver.cost`)."""
PER_CLIENT = 2
"""Interactive calls one client address (or seat token) may have under way at once."""
MAX_INTERACTIVE = 64
"""Interactive calls waiting in all; beyond, 503 (the server is busy)."""
MAX_WAITING_BUILDS = 8
"""Tables waiting or being built in all; beyond, 503."""
WANTED_FOR = 60.0
"""Seconds a game counts as wanted after someone last asked about it (with no live
watcher): a table only such games need is dropped after that."""
SWEEP_EVERY = 5.0
APPROXIMATE = "optimal:round"
"""The computer that plays a match too large to solve: each turn for its best expected
score (and to win in a deciding single round, which is solved exactly and cheaply)."""
EXACT_COMPUTERS = ("hard", "optimal")
"""Computer strategies that play a multi-round match from its exact table."""


class BeyondBudgetError(ShutTheBoxError):
    """A game whose exact match table is dearer than the server's budget (400)."""


class TooMuchWorkError(ShutTheBoxError):
    """A client with as much solver work under way as it may have (429)."""


class ServerBusyError(ShutTheBoxError):
    """The server's solver queues are full (503)."""


class TableDroppedError(ShutTheBoxError):
    """A table was dropped before it was built (nobody watches the games that need it)."""


def fits_text(rules: Rules, fmt: GameFormat, budget: float) -> str:
    """What this server solves exactly of the format, in a sentence.

    >>> fits_text(Rules(tiles=12), GameFormat.parse("loser-at:10000"), 60.0)
    'loser-at on 12 tiles is solved exactly up to a limit of 220 on this server'
    """
    from shutthebox.solver.cost import largest_limit, table_seconds

    where = f"{fmt.kind.value} on {rules.tiles} tiles" + (
        f" with {rules.scoring.value} scoring" if rules.scoring.value != "sum" else "")
    if fmt.kind is FormatKind.BATTLE:
        other = GameFormat.parse("battle:turns" if not fmt.by_turns else "battle:rolls")
        fits = table_seconds(rules, other) <= budget
        return (f"{fmt} on {rules.tiles} tiles is beyond what this server solves exactly"
                + (f" ({other} fits)" if fits else ""))
    largest = largest_limit(rules, fmt.kind.value, budget)
    if largest is None:
        return f"{where} is beyond what this server solves exactly at any limit"
    what = "rounds" if fmt.kind is FormatKind.ROUNDS else "a target" \
        if fmt.kind is FormatKind.RACE else "a limit"
    return (f"{where} is solved exactly up to {largest} rounds on this server"
            if what == "rounds" else
            f"{where} is solved exactly up to {what} of {largest} on this server")


@dataclass
class _Build:
    """A table waiting or being built, and the games that wait for it."""

    rules: Rules
    format: GameFormat
    done: asyncio.Future[None]
    games: set[str] = field(default_factory=set)
    clients: set[str] = field(default_factory=set)
    running: bool = False


class SolverWork:
    """The two worker processes and the rules above. ``watched(game_id)`` says how many
    live watchers a game has; ``budget`` is seconds of solver time per table."""

    def __init__(self, watched: Callable[[str], int], budget: float = DEFAULT_BUDGET,
                 interactive: SolverPool | None = None,
                 background: SolverPool | None = None, wanted_for: float = WANTED_FOR,
                 sweep_every: float = SWEEP_EVERY) -> None:
        self.watched = watched
        self.budget = budget
        self.wanted_for = wanted_for
        self.sweep_every = sweep_every
        self.interactive = interactive or SolverPool()
        self.background = background or SolverPool(idle=True)
        self._owns = (interactive is None, background is None)
        self.shared = SharedAnswers()
        """Finished games' reviews, worked out once (:mod:`~shutthebox.web.solving.shared`)."""
        self._calls: dict[str, int] = {}
        self._asked: dict[str, float] = {}
        self._builds: dict[tuple[Rules, str], _Build] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._build_tables()),
                       asyncio.create_task(self._sweep())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for build in self._builds.values():
            if not build.done.done():
                build.done.set_exception(TableDroppedError("the server is stopping"))
                build.done.exception()      # retrieved: nobody may be waiting for it
        self._builds.clear()
        if self._owns[0]:
            self.interactive.close()
        if self._owns[1]:
            self.background.close()

    def queued(self) -> int:
        """Solver calls under way and match tables waiting or being built."""
        return self.interactive.busy + len(self._builds)

    def alive(self) -> bool:
        """Whether both worker processes can take work now
        (:meth:`~shutthebox.web.solving.pool.SolverPool.alive`)."""
        return self.interactive.alive() and self.background.alive()

    # --- interactive work -------------------------------------------------------------

    async def ask(self, clients: list[str], function: Callable[..., T], *arguments: Any) -> T:
        """``function(*arguments)`` in the interactive worker, for ``clients`` (the address,
        and the seat token if any), each of which may have :data:`PER_CLIENT` calls under
        way.

        :raises TooMuchWorkError: a client has as many calls under way as it may.
        :raises ServerBusyError: the interactive queue is full.
        """
        for client in clients:
            if self._calls.get(client, 0) >= PER_CLIENT:
                raise TooMuchWorkError(
                    _("{PER_CLIENT} requests for the solver are already under way from "
                      "here: wait for their answers").format(PER_CLIENT=PER_CLIENT))
        if self.interactive.busy >= MAX_INTERACTIVE:
            raise ServerBusyError(_("the server's solver is busy: try again in a moment"))
        for client in clients:
            self._calls[client] = self._calls.get(client, 0) + 1
        try:
            return await self.interactive.run(function, *arguments)
        finally:
            for client in clients:
                left = self._calls[client] - 1
                if left:
                    self._calls[client] = left
                else:
                    del self._calls[client]

    def asked(self, game_id: str) -> None:
        """Someone asked about the game: it counts as wanted for :data:`WANTED_FOR`."""
        self._asked[game_id] = time.monotonic()

    def wanted(self, game_id: str) -> bool:
        """Whether anyone still follows the game (a live watcher, or a recent request)."""
        if self.watched(game_id):
            return True
        asked = self._asked.get(game_id)
        return asked is not None and time.monotonic() - asked < self.wanted_for

    # --- tables -----------------------------------------------------------------------

    def table_status(self, rules: Rules, fmt: GameFormat) -> str:
        """``ready`` (:func:`~shutthebox.web.solving.tables.table_ready`), ``building``, ``fits``
        (within the budget, not started) or ``beyond`` (dearer than the budget)."""
        from shutthebox.solver.cost import table_seconds

        if (rules, str(fmt)) in self._builds:
            return "building"
        if table_ready(rules, fmt):
            return "ready"
        return "fits" if table_seconds(rules, fmt) <= self.budget else "beyond"

    def check_computers(self, rules: Rules, game_format: str, computers: list[str | None],
                        approximate: bool) -> tuple[list[str | None], GameFormat | None]:
        """The computers of a new game as they will play it, and the match table to start
        for them (None: no table to start). Unchanged when their exact play needs no table or
        one within the budget; else, if ``approximate``, playing by :data:`APPROXIMATE`.

        :raises BeyondBudgetError: exact play is beyond the budget and ``approximate`` is
            off; the message says what fits.
        """
        from shutthebox.solver.matchplay import table_needed

        fmt = table_needed(game_format, len(computers))
        if fmt is None or not any(c in EXACT_COMPUTERS for c in computers):
            return computers, None
        status = self.table_status(rules, fmt)
        if status != "beyond":
            return computers, fmt if status == "fits" else None
        if approximate:
            return [APPROXIMATE if c in EXACT_COMPUTERS else c for c in computers], None
        raise BeyondBudgetError(
            _("{why}: choose a lower number, or ask for the computers to play it "
              "approximately (\"approximate\": true: each turn for its best expected "
              "score)").format(why=fits_text(rules, fmt, self.budget)))

    def reserve_table(self, rules: Rules, fmt: GameFormat, client: str | None = None
                      ) -> asyncio.Future[None]:
        """The table's build, started if needed and shared by every game that needs it; a
        client may have one table waiting or being built at a time. The games that wait for
        it are added with :meth:`request_table`.

        :raises TooMuchWorkError: the client has another table waiting or being built.
        :raises ServerBusyError: :data:`MAX_WAITING_BUILDS` tables are waiting.
        :raises BeyondBudgetError: the table is dearer than the budget.
        """
        return self._build(rules, fmt, client).done

    def request_table(self, rules: Rules, fmt: GameFormat, game_id: str,
                      client: str | None = None) -> asyncio.Future[None]:
        """The table's build (:meth:`reserve_table`), which the game waits for."""
        build = self._build(rules, fmt, client)
        build.games.add(game_id)
        self.asked(game_id)
        return build.done

    def _build(self, rules: Rules, fmt: GameFormat, client: str | None) -> _Build:
        key = (rules, str(fmt))
        build = self._builds.get(key)
        if build is None:
            from shutthebox.solver.cost import table_seconds

            if table_seconds(rules, fmt) > self.budget:
                raise BeyondBudgetError(fits_text(rules, fmt, self.budget))
            if client is not None and any(client in b.clients for b in self._builds.values()):
                raise TooMuchWorkError(
                    _("a match table asked for from here is being worked out: wait "
                      "until its game starts before asking for another"))
            if len(self._builds) >= MAX_WAITING_BUILDS:
                raise ServerBusyError(_("the server is working out other match tables: "
                                        "try again in a few minutes"))
            build = self._builds[key] = _Build(rules, fmt,
                                               asyncio.get_running_loop().create_future())
            self._wake.set()
        if client is not None:
            build.clients.add(client)
        return build

    def fraction(self) -> float:
        """How far the table being built is, 0 to 1."""
        return self.background.fraction()

    async def _build_tables(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._builds:
                key, build = next(iter(self._builds.items()))
                build.running = True
                try:
                    await self.background.run(prepare_match, build.rules.to_dict(),
                                              str(build.format))
                except WorkDroppedError:
                    metrics.table_built("dropped")
                    _settle(build, TableDroppedError(f"the table of {build.format} was "
                                                     "dropped: nobody watches its games"))
                except Exception as exc:       # told to every game that waits for it
                    metrics.table_built("failed")
                    _settle(build, exc)
                else:
                    metrics.table_built("built")
                    _settle(build, None)
                self._builds.pop(key, None)

    async def _sweep(self) -> None:
        """Drop the tables that no game anyone follows needs."""
        while True:
            await asyncio.sleep(self.sweep_every)
            for key, build in list(self._builds.items()):
                if any(self.wanted(g) for g in build.games):
                    continue
                if build.running:
                    self.background.kill()      # its caller settles and removes it
                else:
                    self._builds.pop(key, None)
                    _settle(build, TableDroppedError(f"the table of {build.format} was "
                                                     "dropped: nobody watches its games"))
            now = time.monotonic()
            for game_id in [g for g, t in self._asked.items() if now - t > self.wanted_for]:
                del self._asked[game_id]


def _settle(build: _Build, error: BaseException | None) -> None:
    if build.done.done():
        return
    if error is None:
        build.done.set_result(None)
    else:
        build.done.set_exception(error)
        build.done.exception()          # retrieved: the games may all have gone


def rules_of(config: Mapping[str, Any]) -> Rules:
    """The rules of a stored game's config."""
    return Rules.from_dict(dict(config["rules"]))
