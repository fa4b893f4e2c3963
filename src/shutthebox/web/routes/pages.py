"""The page (one HTML file for every address a person opens: the client routes), the API's
documentation at ``/docs`` and the static files they load."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent.parent / "static"
DOCS = Path(__file__).parent.parent / "docs"
PAGE_ROUTES = ("/", "/join/{code}", "/games/{game_id}", "/history", "/stats",
               "/review/{game_id}", "/how-to-play/{game_id}", "/daily")

router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


for route in PAGE_ROUTES:
    router.add_api_route(route, page, methods=["GET"])


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
