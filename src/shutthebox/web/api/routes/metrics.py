"""``/metrics``: the server's figures in the Prometheus text format
(:mod:`shutthebox.web.metrics`), for the addresses and the token the host names; 404 while
the metrics are off, 403 to anyone else."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from shutthebox.language import _
from shutthebox.web import metrics as figures
from shutthebox.web.api.hosting import Hosting
from shutthebox.web.storage.schema import GAMES

router = APIRouter(include_in_schema=False)


def games_by_status(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        rows = connection.execute(select(GAMES.c.status, func.count()).group_by(GAMES.c.status))
        return {str(status): int(count) for status, count in rows}


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    hosting: Hosting = request.app.state.hosting
    if not hosting.metrics:
        return JSONResponse({"detail": _("the metrics are off: start the server with "
                                         "--metrics")}, status_code=404)
    if not hosting.may_scrape(request):
        return JSONResponse({"detail": _("the metrics are not for this address: see "
                                         "--metrics-from and --metrics-token")},
                            status_code=403)
    engine: Engine = request.app.state.service.engine
    counts = await run_in_threadpool(games_by_status, engine)
    body, kind = await run_in_threadpool(figures.scrape, lambda: counts)
    return Response(body, media_type=kind)
