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
import contextlib
import functools
import gc
import io
import json
import math
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from starlette.concurrency import run_in_threadpool

from shutthebox.errors import ShutTheBoxError
from shutthebox.match import parse_stake
from shutthebox.names import clean_name
from shutthebox.rules import PRESETS, Rules, preset
from shutthebox.strategies import STRENGTHS
from shutthebox.web import advice
from shutthebox.web.advice import SolverPool
from shutthebox.web.codec import dumps
from shutthebox.web.computers import ComputerDriver
from shutthebox.web.connections import configure as configure_connections
from shutthebox.web.guard import (
    LOOPBACK_HOSTS,
    Guard,
    MissLimit,
    RateLimits,
    Receive,
    Scope,
    Send,
    client_key,
)
from shutthebox.web.lane import ActionLane
from shutthebox.web.live import LiveFeed, LiveHub
from shutthebox.web.seats import (
    ForbiddenError,
    InviteNotFoundError,
    SeatKind,
    SeatTakenError,
    TooManyGuessesError,
    UnauthorizedError,
    bearer_tokens,
)
from shutthebox.web.service import (
    Batch,
    GameNotFoundError,
    GameService,
    NotYourTurnError,
    SeatSpec,
)
from shutthebox.web.storage import make_engine
from shutthebox.web.work import (
    DEFAULT_BUDGET,
    EXACT_COMPUTERS,
    ServerBusyError,
    SolverWork,
    TooMuchWorkError,
    check_computers,
    rules_of,
    table_format,
)

STATIC = Path(__file__).parent / "static"
DOCS = Path(__file__).parent / "docs"
PAGE_ROUTES = ("/", "/join/{code}", "/games/{game_id}", "/history", "/stats",
               "/review/{game_id}", "/how-to-play/{game_id}")

Authorization = Annotated[str | None, Header(description="Bearer <seat token>")]
IdempotencyKey = Annotated[str | None, Header(
    alias="Idempotency-Key", max_length=128,
    description="a fresh random id per action; the same key again answers the first answer")]


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    kind: SeatKind | None = Field(
        default=None, description="here (a human at this device), computer, or open (for "
        "a friend to join); default: computer if `computer` is given, else here")
    computer: str | None = Field(default=None, max_length=40,
                                 description="easy, medium, hard or a strategy name")


class NewGame(BaseModel):
    players: list[SeatIn] = Field(min_length=1, max_length=12)
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict,
                                  description="rule fields changing the preset")
    format: str | None = Field(default=None, max_length=40,
                               description="single, solo, rounds:R, ...")
    stake: str | float | None = Field(default=None, description="each player's ante, e.g. "
                                      "\"0.50\"; a finite amount in whole cents")
    pace: str = Field(default="watch", pattern="^(watch|instant)$",
                      description="computer turns at a watchable pace, or at once")
    approximate: bool = Field(
        default=False, description="let hard computers play a match too large for this "
        "server to solve exactly (each turn for its best expected score); without it such a "
        "game is refused with a 400 that says what fits")


class Action(BaseModel):
    event: int | None = Field(default=None, ge=0, le=10**9, description="the game's event "
                              "number the action was made against (needed without an "
                              "Idempotency-Key)")
    seat: int | None = Field(default=None, ge=0, le=11,
                             description="the seat acting (checked against the token)")


class DiceChoice(Action):
    dice: int = Field(ge=1, le=2)


class Shut(Action):
    tiles: list[int] = Field(min_length=1, max_length=12)


class Join(BaseModel):
    invite: str = Field(min_length=1, max_length=32)
    name: str = Field(min_length=1, max_length=40)


class Refusal(BaseModel):
    """Every refusal's body: a sentence saying what was wrong."""

    detail: str = Field(description="what was wrong, in a sentence")


class Malformed(Refusal):
    """A body or parameter of the wrong shape (422): the sentence, and the problems found."""

    errors: list[dict[str, Any]] = Field(default_factory=list,
                                         description="the first five problems, one each")


REFUSED: dict[int | str, dict[str, Any]] = {
    status: {"model": Malformed if status == 422 else Refusal, "description": description}
    for status, description in [
        (400, "bad input: a bad value, an unknown host (the Host header), a bad name"),
        (401, "no seat token, or an unknown one"),
        (403, "another seat's token, or a live feed asked for by a page of another site"),
        (404, "no such game or invite"),
        (408, "the request's headers or body did not arrive in time"),
        (409, "out of turn, against an old event number, or a seat already taken"),
        (413, "a body over 64 KiB"),
        (415, "a body that is not JSON"),
        (422, "a body or parameter of the wrong shape"),
        (429, "too many requests, connections, unknown invites or solver requests from "
              "this client: wait for Retry-After seconds"),
        (431, "request headers over 16 KiB"),
        (503, "the database is briefly away, or the server's solver or connections are "
              "full: try again after Retry-After seconds"),
    ]}
"""Every refusal the API (and the front that every request passes) answers, as the API's
description documents it on each route."""

REFUSALS: dict[type[Exception], tuple[int, str | None, dict[str, str] | None]] = {
    GameNotFoundError: (404, None, None),
    InviteNotFoundError: (404, None, None),
    NotYourTurnError: (409, None, None),
    SeatTakenError: (409, None, None),
    UnauthorizedError: (401, None, {"WWW-Authenticate": "Bearer"}),
    ForbiddenError: (403, None, None),
    IntegrityError: (409, "the game changed while this request was made: load it again and "
                          "retry", None),
    DBAPIError: (503, "the database is not answering: try again in a moment",
                 {"Retry-After": "1"}),
    TooMuchWorkError: (429, None, {"Retry-After": "1"}),
    TooManyGuessesError: (429, None, {"Retry-After": "1"}),
    ServerBusyError: (503, None, {"Retry-After": "5"}),
    ShutTheBoxError: (400, None, None),
}
"""The answer to each refusal the service raises: status, detail (None: the error's own
message) and extra headers. The most specific class of an error decides."""


def refusal(exc: Exception) -> tuple[int, str, dict[str, str] | None]:
    """The status, detail and headers of the answer to ``exc`` (which must be in
    :data:`REFUSALS`, or a subclass of one)."""
    for kind in type(exc).__mro__:
        if kind in REFUSALS:
            status, detail, headers = REFUSALS[kind]
            return status, detail or str(exc), headers
    raise exc


def _stake(value: str | float | None) -> int:
    if value is None or value == "":
        return 0
    return parse_stake(str(value))


class WebApp(FastAPI):
    """FastAPI with a front: the guard (hosts, rate limits, body limits, security headers)
    and the action lane (see :mod:`shutthebox.web.lane`) take every request first, before
    FastAPI's own layers (its error pages, telemetry check, body limit and routing, about a
    hundredth of a millisecond together), which a move or a live feed, the requests a server
    answers most, then skip. What the front passes on goes through them (:meth:`behind`)."""

    front: Guard | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is None or scope["type"] == "lifespan":
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
               solver_budget: float = DEFAULT_BUDGET) -> FastAPI:
    """The app, storing games at ``database_url`` (the default SQLite file if None).

    ``computer_delay`` is the pause before each step of a computer seat in a game played at
    a watchable pace; ``limits`` the rate limits (requests a second per client address and
    per seat token); ``pool`` the solver worker process for interactive work and
    ``background`` the one for match tables (each its own if None); ``solver_budget`` the
    seconds of solver time the server spends on one match table (see
    :mod:`shutthebox.web.work`).
    """
    own_engine = engine is None
    engine = engine or make_engine(database_url)
    hub = LiveHub(engine)
    work = SolverWork(hub.watching, solver_budget, pool, background)
    driver_box: list[ComputerDriver] = []

    def notify(game_id: str, waiting: str, batch: Batch | None) -> None:
        hub.publish(game_id, batch)
        if waiting == "server" and driver_box:
            driver_box[0].wake(game_id)

    service = GameService(engine, notify)
    driver = ComputerDriver(service, work, computer_delay, progress=hub.progress)
    driver_box.append(driver)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start()
        work.start()
        driver.start()
        warm = asyncio.create_task(work.interactive.run(advice.warm_up))
        yield
        warm.cancel()
        await driver.stop()
        await work.stop()
        await hub.stop()
        service.close()
        if own_engine:
            engine.dispose()

    app = WebApp(title="Shut the Box", version="0.2.0", lifespan=lifespan,
                 docs_url=None, redoc_url=None, responses=REFUSED,
                 description="Play Shut the Box with every rule variant and exact hints. "
                 "Actions need the acting seat's token: `Authorization: Bearer <token>`.")
    app.state.service = service
    app.state.hub = hub
    app.state.driver = driver
    app.state.work = work

    async def refused(_: Request, exc: Exception) -> JSONResponse:
        status, detail, headers = refusal(exc)
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)

    for kind in REFUSALS:
        app.add_exception_handler(kind, refused)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for item in exc.errors()[:5]:
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where or 'the body'}: {item.get('msg', 'is not valid')}")
        return JSONResponse({"detail": "the request is not well formed: " + "; ".join(problems),
                             "errors": json.loads(json.dumps(exc.errors()[:5], default=str))},
                            status_code=422)

    inline = engine.dialect.name == "sqlite"
    """On SQLite a request's database work takes a fraction of a millisecond: it is done on
    the event loop itself, which spares the hand-over to a thread and back (on PostgreSQL,
    over a network, it runs in the thread pool)."""

    async def blocking(function: Any, *arguments: Any) -> Any:
        call = functools.partial(function, *arguments)
        return call() if inline else await run_in_threadpool(call)

    # --- games -------------------------------------------------------------------------

    @app.get("/api/presets")
    def presets() -> list[dict[str, Any]]:
        """The named rule sets."""
        return [{"name": p.name, "summary": p.summary, "source": p.source,
                 "rules": p.rules.to_dict()} for p in PRESETS.values()]

    @app.get("/api/strengths")
    def strengths() -> dict[str, str]:
        """Computer players by strength."""
        return dict(STRENGTHS)

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGame, request: Request) -> JSONResponse:
        """Start a game. The answer holds, once, a token for each seat at this device and an
        invite for each open seat. Computer seats play in the background."""
        return JSONResponse(await start(body, client_key(request.scope)), status_code=201)

    async def start_fast(body: bytes, client: str) -> str | None:
        """A new game for the action lane: its answer as JSON, or None for a body that the
        model refuses (the route says why, 422)."""
        try:
            found = NewGame.model_validate_json(body)
        except ValidationError:
            return None
        return dumps(await start(found, client))

    async def start(body: NewGame, client: str) -> dict[str, Any]:
        base = preset(body.preset) if body.preset else Rules()
        rules = base.replace(**body.rules) if body.rules else base
        seats = [SeatSpec(s.name, s.kind or (SeatKind.COMPUTER if s.computer else
                                             SeatKind.HERE),
                          s.computer if (s.kind or SeatKind.COMPUTER) is SeatKind.COMPUTER
                          else None) for s in body.players]
        for seat in seats:
            if seat.kind is SeatKind.COMPUTER and not seat.computer:
                raise ShutTheBoxError(f"the computer seat {seat.name!r} needs a strength: "
                                      f"one of {', '.join(STRENGTHS)}")
        fmt = body.format or ("solo" if len(seats) == 1 else "single")
        computers = await run_in_threadpool(check_computers, rules, fmt,
                                            [s.computer for s in seats], work.budget,
                                            body.approximate)
        seats = [SeatSpec(s.name, s.kind, c) for s, c in zip(seats, computers, strict=True)]
        table = table_format(rules, fmt, len(seats))
        build = None
        if table is not None and any(c in EXACT_COMPUTERS for c in computers) and \
                await run_in_threadpool(work.table_status, rules, table) == "fits":
            build = work.reserve_table(rules, table, client)
        state: dict[str, Any] = await blocking(service.create, rules, fmt, _stake(body.stake),
                                               seats, body.pace)
        if build is not None and table is not None:
            work.request_table(rules, table, state["id"])
        return state

    @app.get("/api/games")
    def games(authorization: Authorization = None,
              x_seat_tokens: Annotated[str | None, Header(
                  description="comma-separated seat tokens")] = None) -> list[dict[str, Any]]:
        """The games the presented tokens hold seats in, newest first (never all games)."""
        return service.list_games(bearer_tokens(authorization, x_seat_tokens))

    @app.get("/api/games/{game_id}")
    async def game(game_id: str, since: Annotated[int, Query(ge=0, le=10**9)] = 0,
                   authorization: Authorization = None) -> JSONResponse:
        """A game's state, with its events from position ``since``; ``you`` lists the seats
        of the token sent, if any."""
        return JSONResponse(await blocking(service.state, game_id, since,
                                           bearer_tokens(authorization)))

    async def perform(game_id: str, authorization: str | None, kind: str, argument: Any,
                      event: int | None, key: str | None, seat: int | None) -> str:
        tokens = bearer_tokens(authorization)
        answer: str = await blocking(service.act, game_id, tokens[0] if tokens else None,
                                     kind, argument, event, key, seat)
        return answer

    async def act(game_id: str, kind: str, argument: Any, body: Action,
                  authorization: str | None, key: str | None) -> Response:
        answer = await perform(game_id, authorization, kind, argument, body.event, key,
                               body.seat)
        return Response(answer, media_type="application/json")

    @app.post("/api/games/{game_id}/roll")
    async def roll(game_id: str, body: Action, authorization: Authorization = None,
             idempotency_key: IdempotencyKey = None) -> Response:
        """Roll the dice (the server rolls them)."""
        return await act(game_id, "roll", None, body, authorization, idempotency_key)

    @app.post("/api/games/{game_id}/dice")
    async def dice(game_id: str, body: DiceChoice, authorization: Authorization = None,
             idempotency_key: IdempotencyKey = None) -> Response:
        """Choose one or two dice, and roll them."""
        return await act(game_id, "dice", body.dice, body, authorization, idempotency_key)

    @app.post("/api/games/{game_id}/shut")
    async def shut(game_id: str, body: Shut, authorization: Authorization = None,
             idempotency_key: IdempotencyKey = None) -> Response:
        """Shut tiles for the current roll."""
        return await act(game_id, "shut", body.tiles, body, authorization, idempotency_key)

    misses = MissLimit()

    async def with_invite(request: Request, function: Any, *arguments: Any) -> Any:
        """``function(*arguments)``, an invite's lookup, for a client that has not asked
        about too many unknown invites (each unknown one counts: see
        :data:`~shutthebox.web.guard.INVITE_MISSES`)."""
        client = client_key(request.scope)
        wait = misses.wait(client)
        if wait:
            raise TooManyGuessesError(f"too many unknown invites from here: wait "
                                      f"{math.ceil(wait)} s and check the code")
        try:
            return await run_in_threadpool(function, *arguments)
        except InviteNotFoundError:
            misses.missed(client)
            raise

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request) -> dict[str, Any]:
        """Take an open seat with its invite; the answer holds the seat's token, once."""
        answer: dict[str, Any] = await with_invite(request, service.join, game_id,
                                                   body.invite, body.name)
        return answer

    @app.get("/api/invites/{code}")
    async def invite(code: str, request: Request) -> dict[str, Any]:
        """What an invite is for."""
        answer: dict[str, Any] = await with_invite(request, service.invite, code[:32])
        return answer

    @app.get("/api/invites/{code}/qr.svg", response_class=Response)
    async def invite_qr(code: str, request: Request) -> Response:
        """The invite's join link as a QR code (SVG)."""
        import segno

        found = await with_invite(request, service.invite, code[:32])
        link = f"{str(request.base_url).rstrip('/')}/join/{found['code']}"
        out = io.BytesIO()
        segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                         title=f"Join link {link}")
        return Response(out.getvalue(), media_type="image/svg+xml",
                        headers={"Cache-Control": "private, max-age=3600"})

    # --- live updates ------------------------------------------------------------------

    # --- coaching ----------------------------------------------------------------------

    async def solver_work(request: Request, game_id: str, authorization: str | None,
                          function: Any, need_seat: bool) -> Any:
        tokens = bearer_tokens(authorization)[:1]
        if need_seat:
            await run_in_threadpool(service.seat_of, game_id, tokens)
        log = await run_in_threadpool(service.match_log, game_id)
        work.asked(game_id)
        answer = await work.ask([client_key(request.scope), *tokens], function, game_id, log)
        if isinstance(answer, dict) and (answer.get("message") or answer.get("note")):
            await build_if_it_fits(game_id, log, client_key(request.scope))
        return answer

    async def build_if_it_fits(game_id: str, log: dict[str, Any], client: str) -> None:
        """Start the table an approximate answer lacked, if it fits the budget (and the
        client may ask for one), so that the next answer is exact."""
        rules = rules_of(log)
        table = table_format(rules, log["format"], len(log["players"]))
        if table is None or await run_in_threadpool(work.table_status, rules, table) != "fits":
            return
        with contextlib.suppress(TooMuchWorkError, ServerBusyError):
            work.request_table(rules, table, game_id, client)

    @app.get("/api/games/{game_id}/hint")
    async def hint(game_id: str, request: Request,
                   authorization: Authorization = None) -> dict[str, Any]:
        """Every legal action now, ranked by the exact solver (needs a seat token)."""
        answer: dict[str, Any] = await solver_work(request, game_id, authorization,
                                                   advice.hint, True)
        return answer

    @app.get("/api/games/{game_id}/coach")
    async def coach(game_id: str, request: Request,
                    authorization: Authorization = None) -> dict[str, Any]:
        """The exact chance to shut the box and expected score from here (needs a seat
        token)."""
        answer: dict[str, Any] = await solver_work(request, game_id, authorization,
                                                   advice.coach, True)
        return answer

    @app.get("/api/games/{game_id}/how-to-play")
    async def how_to_play(game_id: str) -> dict[str, Any]:
        """The game's rules and format in words, section by section (the page's "How to
        play" screen)."""
        from shutthebox.guide import how_to_play as guide

        state = await blocking(service.state, game_id, 10**9)
        sections = guide(Rules.from_dict(state["rules"]), state["format"])
        return {"format": state["format"], "sections": [s.to_dict() for s in sections]}

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> dict[str, Any]:
        """Every decision of the game against the best, with what it cost."""
        answer: dict[str, Any] = await solver_work(request, game_id, None, advice.review,
                                                   False)
        return answer

    # --- players -----------------------------------------------------------------------

    @app.get("/api/players")
    def players() -> list[dict[str, Any]]:
        """Everyone with a finished game."""
        return service.players()

    @app.get("/api/stats")
    async def stats(player: Annotated[str, Query(min_length=1, max_length=80)],
                    request: Request) -> dict[str, Any]:
        """A player's record, solo games, and turn scores beside optimal play's."""
        player = clean_name(player)
        rows = await run_in_threadpool(service.results, player)
        return await player_stats(player, rows, client_key(request.scope))

    @app.get("/api/players/{name:path}/stats", include_in_schema=False)
    async def stats_by_path(name: str, request: Request) -> dict[str, Any]:
        name = clean_name(name)
        rows = await run_in_threadpool(service.results, name)
        return await player_stats(name, rows, client_key(request.scope))

    async def player_stats(name: str, rows: list[Any], client: str) -> dict[str, Any]:
        def key(rules: dict[str, Any]) -> str:
            return json.dumps(rules, sort_keys=True)

        counts: dict[str, int] = {}
        for row in rows:
            counts[key(row.rules)] = counts.get(key(row.rules), 0) + 1
        common = max(counts, key=lambda k: counts[k])
        rules = Rules.from_dict(json.loads(common))
        better = min if rules.lower_is_better else max
        same = [s for r in rows if key(r.rules) == common for s in r.scores]
        turns = [s for r in rows for s in r.scores]
        matches = [r for r in rows if r.format != "solo"]
        solo = [s for r in rows if r.format == "solo" and key(r.rules) == common
                for s in r.scores]
        histogram: dict[str, int] = {}
        for score in same:
            histogram[str(score)] = histogram.get(str(score), 0) + 1
        optimal = await work.ask([client], advice.optimal_distribution, rules.to_dict())
        return {
            "player": name, "games": len(rows), "matches": len(matches),
            "wins": sum(r.won for r in matches), "turns": len(turns),
            "average_score": sum(turns) / len(turns) if turns else None,
            "shut_rate": sum(r.shut_boxes for r in rows) / len(turns) if turns else None,
            "best_score": better(same) if same else None, "rules": rules.to_dict(),
            "personal_best": better(solo) if solo else None,
            "solo": {"games": sum(1 for r in rows if r.format == "solo"),
                     "personal_best": better(solo) if solo else None, "scores": solo},
            "scores": histogram, "optimal": optimal}

    # --- the page and the API's documentation ------------------------------------------

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    for route in PAGE_ROUTES:
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse((DOCS / "index.html").read_text())

    import swagger_ui_bundle

    app.mount("/docs-assets/swagger", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
              name="swagger")
    app.mount("/docs-assets/own", StaticFiles(directory=DOCS), name="docs")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.front = Guard(ActionLane(app.behind, perform=perform, refusal=refusal,
                                 live=LiveFeed(service, hub, blocking), start=start_fast),
                      allowed_hosts=allowed_hosts, limits=limits)
    return app


def app_from_environment() -> FastAPI:
    """The app as ``shutthebox serve`` configures it through the environment (how uvicorn
    starts each worker process).

    The garbage collector: the start-up objects are frozen out of it, and the young
    generation is collected often, in short passes. A pass scans every young object alive
    (the games and connections in play); measured under the benchmark's load, passes
    every 20,000 allocations paused the server 15-45 ms every few seconds, every 2,000 for
    3-10 ms twice a second. The server leaves no cyclic garbage per move or connection
    (:mod:`shutthebox.web.connections`), so the middle generation is collected rarely (its
    passes scan all the objects of games in play).

    The solver's modules (numba and all, a seventh of a second) are loaded here, before the
    first request, not by the first computer step: an import holds up every request
    meanwhile.
    """
    environ = os.environ
    hosts = tuple(h.strip() for h in environ.get("SHUTTHEBOX_ALLOWED_HOSTS", "").split(",")
                  if h.strip()) or LOOPBACK_HOSTS
    rate = float(environ.get("SHUTTHEBOX_RATE_LIMIT", "50"))
    configure_connections(int(environ.get("SHUTTHEBOX_MAX_CONNECTIONS_PER_CLIENT", "256")),
                          int(environ.get("SHUTTHEBOX_MAX_CONNECTIONS", "0")) or None)
    app = create_app(environ.get("SHUTTHEBOX_DATABASE_URL"), allowed_hosts=hosts,
                     computer_delay=float(environ.get("SHUTTHEBOX_COMPUTER_DELAY", "0.5")),
                     limits=RateLimits(per_client=rate, per_token=rate / 2.5),
                     solver_budget=float(environ.get("SHUTTHEBOX_SOLVER_BUDGET",
                                                     str(DEFAULT_BUDGET))))
    import shutthebox.solver.matchplay  # noqa: F401  (loaded now: see above)

    gc.freeze()
    gc.set_threshold(2_000, 1_000, 20)
    return app
