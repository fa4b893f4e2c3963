"""Alembic's environment: migrations run on the connection the app hands over
(``config.attributes["connection"]``); see :func:`shutthebox.web.storage.upgrade`."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
