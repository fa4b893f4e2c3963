"""The health checks a monitor or a container runtime asks for: ``/healthz`` (the process
answers) and ``/readyz`` (the database answers at the code's schema revision, and the solver
workers are alive; 503 when one is not). Neither is rate-limited nor needs a known Host
(the front lets them through: a monitor asks every few seconds, by address), and neither
costs more than one small query."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from shutthebox import __version__
from shutthebox.web.storage.revisions import code_revision

router = APIRouter(include_in_schema=False)
DATABASE_SECONDS = 5.0
"""Seconds /readyz waits for the database before it calls it unready."""


def database_check(engine: Engine) -> dict[str, Any]:
    """Whether the database answers, and at which revision."""
    try:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except Exception as error:     # any failure is the answer: the database is not ready
        return {"ok": False, "error": type(error).__name__}
    expected = code_revision()
    if found != expected:
        return {"ok": False, "revision": found, "expected": expected}
    return {"ok": True, "revision": found}


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process answers."""
    return {"status": "ok", "version": __version__}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """The database and the solver workers: 200 if both are ready, else 503."""
    engine: Engine = request.app.state.service.engine
    try:
        database = await asyncio.wait_for(run_in_threadpool(database_check, engine),
                                          DATABASE_SECONDS)
    except TimeoutError:
        database = {"ok": False, "error": "timeout"}
    solver = {"ok": bool(request.app.state.work.alive())}
    ready = database["ok"] and solver["ok"]
    return JSONResponse({"status": "ok" if ready else "unavailable", "version": __version__,
                         "checks": {"database": database, "solver": solver}},
                        status_code=200 if ready else 503)
