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

import hashlib
import hmac
import ipaddress
import re
import secrets
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
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info", description=N_("the least important lines the log writes (to stderr): "
        "debug, info (each request and game event), warning or error"))
    access_log: bool = Field(default=True, description=N_("a line in the log per request"))
    log_format: Literal["text", "json"] = Field(
        default="text", description=N_("the log's lines as text or as JSON objects"))
    metrics: bool = Field(default=False, description=N_("answer /metrics (Prometheus) to the "
                          "addresses of --metrics-from, or to the token of --metrics-token"))
    metrics_from: str = Field(
        default="127.0.0.1,::1", description=N_("comma-separated addresses or networks "
        "/metrics answers (the client's address, as the trusted proxy gives it)"))
    metrics_token: str = Field(
        default="", description=N_("the hash of a token that opens /metrics from anywhere "
        "(Authorization: Bearer); make one with `shutthebox admin token`"))
    admin_token: str = Field(
        default="", description=N_("the hash of the admin token (make one with `shutthebox "
        "admin token`); without it the admin view is off"))
    admin_from: str = Field(
        default="127.0.0.1,::1", description=N_("comma-separated addresses or networks the "
        "admin view answers (with the admin token)"))

    @field_validator("metrics_token", "admin_token")
    @classmethod
    def _hashed(cls, value: str) -> str:
        if value and not HASHED.fullmatch(value):
            raise ValueError(_("give the token's hash (sha256: and 64 hex digits), not the "
                               "token: `shutthebox admin token` makes both"))
        return value

    @field_validator("trusted_proxies", "metrics_from", "admin_from")
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

    @property
    def metrics_networks(self) -> list[str]:
        """The addresses and networks /metrics answers."""
        return split(self.metrics_from)

    @property
    def admin_networks(self) -> list[str]:
        """The addresses and networks the admin view answers."""
        return split(self.admin_from)

    def environment(self) -> dict[str, str]:
        """The settings as the ``SHUTTHEBOX_*`` variables that give them (unset ones out)."""
        return {PREFIX + name.upper(): str(value)
                for name, value in self.model_dump().items() if value is not None}


HASHED = re.compile(r"sha256:[0-9a-f]{64}")
"""A token's hash as the settings hold it (:func:`hash_token`)."""


def hash_token(token: str) -> str:
    """A token's hash, as ``--admin-token`` and ``--metrics-token`` take it: the token is
    random (:func:`new_token`), so one round of SHA-256 is as good as a slow hash.

    >>> hash_token("abc")[:20]
    'sha256:ba7816bf8f01c'
    """
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh random token (43 characters, 256 bits)."""
    return secrets.token_urlsafe(32)


def token_matches(token: str | None, hashed: str) -> bool:
    """Whether ``token`` is the one whose hash is ``hashed`` (never, if either is empty).

    >>> token_matches("abc", hash_token("abc")), token_matches("abd", hash_token("abc"))
    (True, False)
    """
    if not token or not hashed:
        return False
    return hmac.compare_digest(hash_token(token), hashed)


def address_in(address: str | None, networks: list[str]) -> bool:
    """Whether ``address`` is one of ``networks`` (addresses or networks).

    >>> address_in("10.1.2.3", ["10.0.0.0/8"]), address_in("::1", ["127.0.0.1"])
    (True, False)
    """
    if not address:
        return False
    try:
        found = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        found = found.ipv4_mapped
    return any(found in ipaddress.ip_network(network, strict=False) for network in networks)


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
