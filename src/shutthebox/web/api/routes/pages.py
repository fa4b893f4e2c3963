"""The page (one HTML file for every address a person opens: the client routes), its
service worker at ``/sw.js``, the API's documentation at ``/docs`` and the static files they
load."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from shutthebox import __version__

STATIC = Path(__file__).parents[2] / "static"
DOCS = Path(__file__).parents[2] / "docs"
PAGE_ROUTES = ("/", "/join/{code}", "/games/{game_id}", "/history", "/stats",
               "/review/{game_id}", "/how-to-play", "/how-to-play/{game_id}", "/daily")

router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


for route in PAGE_ROUTES:
    router.add_api_route(route, page, methods=["GET"])


@router.get("/table")
def table_page() -> FileResponse:
    """The screen of a real table: the advisor and the score sheet (a page of its own)."""
    return FileResponse(STATIC / "table.html")


@router.get("/admin")
def admin_page() -> FileResponse:
    """The server's admin view (its actions need the admin token: see ``/api/admin``)."""
    return FileResponse(STATIC / "admin.html")


@functools.cache
def service_worker() -> bytes:
    """The service worker's script: ``static/sw.js`` after the page's shell (every static
    file, and ``/`` for the page itself) and the cache's name. The name is the package's
    version and a digest of the shell's files, so a new version (or any changed file) makes
    a new script, which the browser installs in place of the old one with a fresh cache."""
    files = sorted(path for path in STATIC.rglob("*") if path.is_file() and path.name != "sw.js")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0" + path.read_bytes())
    shell = ["/"] + [f"/static/{path.relative_to(STATIC).as_posix()}" for path in files]
    head = (f"const CACHE = {json.dumps(f'shutthebox-{__version__}-{digest.hexdigest()[:12]}')};\n"
            f"const SHELL = {json.dumps(shell)};\n")
    return head.encode() + (STATIC / "sw.js").read_bytes()


@router.get("/sw.js")
def sw() -> Response:
    # no-cache: the browser asks each time whether the script (and so the shell) changed
    return Response(service_worker(), media_type="text/javascript",
                    headers={"cache-control": "no-cache"})


@router.get("/docs")
def docs() -> HTMLResponse:
    return HTMLResponse((DOCS / "index.html").read_text())


def mount_files(app: FastAPI) -> None:
    """Mount the static files of the page and of the documentation on ``app`` (a router's
    mounts are not included with it, so the app takes them itself)."""
    import swagger_ui_bundle

    app.mount("/docs-assets/swagger",
              StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="swagger")
    app.mount("/docs-assets/own", StaticFiles(directory=DOCS), name="docs")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
