"""The web app: FastAPI server, SQLAlchemy storage and a page served by the app itself.

``create_app`` is loaded on first use: the solver's worker processes import modules of this
package and must not pay for the whole server's imports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shutthebox.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from shutthebox.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
