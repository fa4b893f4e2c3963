"""The FastAPI app: a JSON API (described at ``/docs`` and ``/openapi.json``) and the page
that uses it.

Seats are held by secret tokens: every action needs ``Authorization: Bearer <token>`` of the
seat to act (401 without a known token, 403 with another seat's, 409 out of turn or against
an old event number). Reading a game is open to anyone with its id. Errors are a JSON
``{"detail": "..."}``: 400 bad input, 401, 403, 404 unknown game or invite, 409, 413 body over
64 KiB, 415 a body that is not JSON, 422 a body of the wrong shape, 429 too many requests,
503 the database is briefly away. Never a 500 for bad input.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from shutthebox import __version__
from shutthebox.language import current_language, speaking
from shutthebox.web.api.checks import (
    LOOPBACK_HOSTS,
    OPEN_PER_CLIENT,
    SECURITY_HEADERS,
    Guard,
)
from shutthebox.web.api.hosting import FinishedGames, Hosting, recent_errors
from shutthebox.web.api.languages import request_language
from shutthebox.web.api.refusals import REFUSALS, REFUSED, malformed, refused
from shutthebox.web.api.routes import API_AREAS, health, metrics, pages
from shutthebox.web.api.sweeping import Sweeper
from shutthebox.web.api.watching import Watcher
from shutthebox.web.asgi import Receive, Scope, Send
from shutthebox.web.limits import RateLimits, claim_limit, miss_limit
from shutthebox.web.live.feeds import LiveFeed, LiveHub
from shutthebox.web.metrics import enable as enable_metrics
from shutthebox.web.metrics import moves_stored, process_ended
from shutthebox.web.play import series
from shutthebox.web.play.clock import ClockKeeper
from shutthebox.web.play.computers import ComputerDriver
from shutthebox.web.play.service import GameService
from shutthebox.web.play.view import Batch
from shutthebox.web.records.server_secrets import server_secret
from shutthebox.web.settings import ServerSettings
from shutthebox.web.social import reactions
from shutthebox.web.solving import workers as advice
from shutthebox.web.solving.work import DEFAULT_BUDGET, SolverWork
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage import make_engine


class WebApp(FastAPI):
    """FastAPI with a front: the guard (hosts, rate limits, body limits, security headers)
    takes every request first, and a refused request costs almost nothing; what it passes
    on goes through FastAPI's own stack (:meth:`behind`)."""

    front: Guard | None = None
    watcher: Watcher | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await super().__call__(scope, receive, send)
            return
        if self.watcher is not None:
            await self.watcher(scope, receive, send)
        else:
            await self.watched(scope, receive, send)

    async def watched(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A request, in its reader's language, through the front."""
        language = request_language(scope)
        if language == current_language():      # (the server's own: nothing to set)
            await self._answer(scope, receive, send)
            return
        with speaking(language):                # every answer in the reader's language
            await self._answer(scope, receive, send)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is None:
            await super().__call__(scope, receive, send)
        else:
            await self.front(scope, receive, send)

    async def behind(self, scope: Scope, receive: Receive, send: Send) -> None:
        """FastAPI's own stack: its middleware, then the routes."""
        await super().__call__(scope, receive, send)


def create_app(database_url: str | None = None, engine: Engine | None = None, *,
               allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
               computer_delay: float = 0.5, limits: RateLimits | None = None,
               pool: SolverPool | None = None, background: SolverPool | None = None,
               solver_budget: float = DEFAULT_BUDGET, open_per_client: int = OPEN_PER_CLIENT,
               headers: tuple[tuple[bytes, bytes], ...] = tuple(SECURITY_HEADERS),
               access_log: bool = True, hosting: Hosting | None = None) -> FastAPI:
    """The app, storing games at ``database_url`` (the default SQLite file if None).

    ``computer_delay`` is the pause before each step of a computer seat in a game played at
    a watchable pace; ``limits`` the rate limits (requests a second per client address and
    per seat token); ``pool`` the solver worker process for interactive work and
    ``background`` the one for match tables (each its own if None); ``solver_budget`` the
    seconds of solver time the server spends on one match table (see
    :mod:`shutthebox.web.solving.work`); ``open_per_client`` the requests and live feeds
    one client may hold open, and ``headers`` those added to every answer (see
    :class:`~shutthebox.web.api.checks.Guard`). ``access_log``: a line in the log per
    request; ``hosting``: who may see the metrics and the admin view (nobody if None).

    The routes (:mod:`shutthebox.web.api.routes`) find what they share in ``app.state``
    (through :mod:`shutthebox.web.api.deps`).
    """
    own_engine = engine is None
    limits = limits if limits is not None else RateLimits()   # (the server's shared table)
    engine = engine or make_engine(database_url)
    hub = LiveHub(engine)
    work = SolverWork(hub.watching, solver_budget, pool, background)
    driver_box: list[ComputerDriver] = []
    finished = FinishedGames()

    def notify(game_id: str, waiting: str, batch: Batch | None) -> None:
        hub.publish(game_id, batch)
        if batch is not None:
            moves_stored()
            if batch.over:
                finished.tell(game_id)
        if waiting == "server" and driver_box:
            driver_box[0].wake(game_id)

    service = GameService(engine, notify)
    driver = ComputerDriver(service, work, computer_delay, progress=hub.progress)
    driver_box.append(driver)
    clock = ClockKeeper(service)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # the daily dice's key: made by the first process ever started on this data, and
        # read by every other, so that all deal the same dice
        app.state.daily_secret = await run_in_threadpool(server_secret, engine)
        hub.start()
        work.start()
        driver.start()
        clock.start()
        sweeper.start()
        warm = asyncio.create_task(work.interactive.run(advice.warm_up))
        yield
        warm.cancel()
        await sweeper.stop()
        await clock.stop()
        await driver.stop()
        await work.stop()
        await hub.stop()
        await service.aclose()
        if own_engine:
            engine.dispose()
        process_ended()

    app = WebApp(title="Shut the Box", version=__version__, lifespan=lifespan,
                 docs_url=None, redoc_url=None, responses=REFUSED,
                 description="Play Shut the Box with every rule variant and exact hints. "
                 "Actions need the acting seat's token: `Authorization: Bearer <token>`.")
    app.state.service = service
    app.state.hub = hub
    app.state.driver = driver
    app.state.work = work
    app.state.hosting = hosting or Hosting()
    app.state.errors = recent_errors()
    if app.state.hosting.metrics:
        enable_metrics()
    app.state.misses = miss_limit(limits.table)
    app.state.claims = claim_limit(limits.table)
    app.state.reactions = reactions.Reactions(service)
    app.state.series = series.Series(service)
    hub.speakers.update(reaction=reactions.speak, rematch=series.speak)
    for kind in REFUSALS:
        app.add_exception_handler(kind, refused)
    app.exception_handler(RequestValidationError)(malformed)
    for area in API_AREAS:
        app.include_router(area, prefix="/api")
    app.include_router(pages.router)
    app.include_router(health.router)
    app.include_router(metrics.router)
    pages.mount_files(app)
    app.state.live = LiveFeed(service, hub)
    front = app.front = Guard(app.behind, allowed_hosts=allowed_hosts, limits=limits,
                              headers=headers, open_per_client=open_per_client)
    sweeper = Sweeper(lambda: front.ended)      # (started by the lifespan above)
    app.watcher = Watcher(app.watched, access_log=access_log, queue=work.queued)
    return app


def app_from_environment() -> FastAPI:
    """The app as ``shutthebox serve`` configures it through the environment (its
    :class:`~shutthebox.web.settings.ServerSettings`, read again in each worker process);
    uvicorn adds the security headers to every answer, so the app does not.

    The garbage collector: the start-up objects are frozen out of it, and the young
    generation is collected often, in short passes: a pass scans every young object alive
    (the games and connections in play), so rare passes are long pauses of every answer.
    The middle generation is collected rarely (its passes scan all the objects of games in
    play). The manual's architecture page gives the pauses measured.

    The solver's modules (numba and all) are loaded here, before the first request, not by
    the first computer step: an import holds up every request meanwhile. So are the
    look-alike tables names are checked against (:func:`shutthebox.names.name_key`), and
    frozen with the rest: loaded by the first named seat, their tens of thousands of
    objects would be scanned by every full pass of the collector, the larger part of it.
    """
    settings = ServerSettings()
    rate = settings.rate_limit
    app = create_app(settings.database_url, allowed_hosts=settings.hosts,
                     computer_delay=settings.computer_delay,
                     limits=RateLimits(per_client=rate, per_token=rate / 2.5),
                     solver_budget=settings.solver_budget,
                     open_per_client=settings.max_connections_per_client, headers=(),
                     access_log=settings.access_log, hosting=Hosting.of(settings))
    import shutthebox.solver.matchplay  # noqa: F401  (loaded now: see above)
    from shutthebox.names import name_key
    name_key("Ann")                     # (its look-alike tables loaded now: see above)

    gc.freeze()
    gc.set_threshold(2_000, 1_000, 20)
    return app
