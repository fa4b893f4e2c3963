"""The web app: FastAPI server, SQLAlchemy storage and a page served by the app itself."""

from shutthebox.web.app import create_app

__all__ = ["create_app"]
