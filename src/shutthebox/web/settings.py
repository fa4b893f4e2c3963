"""The web server's settings: one object, read from ``shutthebox serve``'s options and the
``SHUTTHEBOX_*`` environment variables (an option given wins over its variable).

``serve`` checks them once, then hands them to the server's worker processes through the
same variables (:meth:`ServerSettings.environment`), where
:func:`shutthebox.web.app.app_from_environment` reads them again.

>>> ServerSettings(port=8080, allowed_hosts="games.example, localhost").hosts
('games.example', 'localhost')
>>> ServerSettings(trusted_proxies="10.0.0.0/8").proxies
['10.0.0.0/8']
"""

from __future__ import annotations

import ipaddress
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _

PREFIX = "SHUTTHEBOX_"


class SettingsError(ShutTheBoxError):
    """A setting whose value cannot be used (from an option or an environment variable)."""


class ServerSettings(BaseSettings):
    """Every setting of ``shutthebox serve``; each field ``name`` is the option
    ``--name`` (with dashes) and the variable ``SHUTTHEBOX_NAME``."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, extra="ignore", frozen=True)

    host: str = Field(default="127.0.0.1", description=N_("address to listen on"))
    port: int = Field(default=8000, ge=1, le=65535, description=N_("port to listen on"))
    database_url: str | None = Field(
        default=None, description=N_("SQLAlchemy URL of the database (default: a SQLite file "
        "in the data folder); PostgreSQL: postgresql://user@host/db"))
    workers: int = Field(default=1, ge=1, le=16, description=N_("server processes (they share the "
                         "database and the rate limits)"))
    allowed_hosts: str = Field(
        default="127.0.0.1,localhost,::1,[::1]",
        description=N_("comma-separated host names the server answers for (the Host header); "
        "* for any. Add your machine's name or address to let friends on your network join"))
    computer_delay: float = Field(default=0.5, ge=0.0, le=10.0, description=N_("seconds between a "
                                  "computer player's steps, so they can be watched"))
    rate_limit: float = Field(
        default=50.0, ge=0.0, le=1_000_000.0,
        description=N_("requests a second per client address, "
        "across all the server's processes (a seat token gets 40 % of it; 0: no limit)"))
    solver_budget: float = Field(
        default=60.0, ge=0.0, le=86_400.0,
        description=N_("seconds of solver time the server spends "
        "working out one match table; a new game whose computers need a dearer one is "
        "refused with what fits (or played approximately if its creator asks)"))
    trusted_proxies: str = Field(
        default="", description=N_("comma-separated addresses of reverse proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto headers are believed (default: none; "
        "behind nginx on this machine: 127.0.0.1)"))
    max_connections: int = Field(
        default=0, ge=0, le=1_000_000, description=N_("open connections per server process, 503 "
        "beyond (0: three quarters of the file descriptors it may open)"))
    max_connections_per_client: int = Field(
        default=256, ge=0, le=1_000_000,
        description=N_("requests and live feeds one client address "
        "(an IPv6 /64) may hold open in a server process, 429 beyond (0: no limit)"))
    http: Literal["h11", "httptools"] = Field(
        default="httptools", description=N_("HTTP parser: h11 refuses a request head over 16 KiB; "
        "httptools is a little faster and bounds nothing (behind a proxy that bounds heads, as the "
        "manual's nginx does)"))

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: str) -> str:
        for proxy in split(value):
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(_("{proxy!r} is not an IP address or network").format(
                    proxy=proxy)) from None
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _some_host(cls, value: str) -> str:
        if not split(value):
            raise ValueError(_("name at least one host (or * for any)"))
        return value

    @property
    def hosts(self) -> tuple[str, ...]:
        """The host names allowed."""
        return tuple(split(self.allowed_hosts))

    @property
    def proxies(self) -> list[str]:
        """The trusted proxies' addresses."""
        return split(self.trusted_proxies)

    def environment(self) -> dict[str, str]:
        """The settings as the ``SHUTTHEBOX_*`` variables that give them (unset ones out)."""
        return {PREFIX + name.upper(): str(value)
                for name, value in self.model_dump().items() if value is not None}


def split(text: str) -> list[str]:
    """The items of a comma-separated list, stripped."""
    return [item.strip() for item in text.split(",") if item.strip()]


def read_settings(**given: Any) -> ServerSettings:
    """The settings from the options ``given`` (None: not given) and the environment.

    :raises SettingsError: a value that cannot be used, in one line naming its option and
        variable and quoting it.
    """
    try:
        return ServerSettings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "?"
        reason = first["msg"].removeprefix("Value error, ")
        where = f"--{name.replace('_', '-')}"
        if first["type"] != "value_error":          # (ours quote the input themselves)
            where += f" {str(first['input'])!r}"
            reason = _(PLAIN[reason]) if reason in PLAIN else \
                reason.replace("Input should be", "should be")
        raise SettingsError(_("serve: {option} (or {variable}): {reason}").format(
            option=where, variable=PREFIX + name.upper(), reason=reason)) from None


PLAIN = {
    "Input should be a valid integer, unable to parse string as an integer":
        N_("not a whole number"),
    "Input should be a valid number, unable to parse string as a number": N_("not a number"),
}
"""pydantic's reasons, in the words of the command line's other errors."""


def describe(name: str) -> str:
    """A field's help for ``--help``: its description, variable and default."""
    field = ServerSettings.model_fields[name]
    default, variable = field.default, PREFIX + name.upper()
    if default in (None, ""):
        return _("{description} (variable: {variable})").format(
            description=_(field.description or ""), variable=variable)
    return _("{description} (variable: {variable}; default: {default})").format(
        description=_(field.description or ""), variable=variable, default=default)
