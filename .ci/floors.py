"""The floors check: are the lowest versions that pyproject.toml declares true?

Every direct dependency, and those of the ``postgres`` extra, is pinned at its lowest declared
version (a constraints file made from pyproject.toml, so a dependency added there is checked
with no change here), installed with the package in a fresh virtual environment that sees no
other package, and a game is played through ``shutthebox serve`` on 127.0.0.1: a human seat
played over the HTTP API against the computer, watched through the game's live feed
(``/api/games/{id}/live``). On SQLite always, and on PostgreSQL too when it answers at
``SHUTTHEBOX_TEST_POSTGRES`` (as for the tests).

    python3 .ci/floors.py            # what .ci/run runs; exit 0 when the floors hold
    python3 .ci/floors.py --keep     # keep the virtual environment and the logs, and say where
    python3 .ci/floors.py --try uvicorn==0.35   # one floor raised: is that one true?

It needs only the standard library; the game's client runs inside the new environment (the
same file, with ``--play``), where uvicorn's WebSocket library is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("postgres",)
"""The optional dependencies a server installs, checked at their floors too."""
POSTGRES = os.environ.get("SHUTTHEBOX_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REQUIREMENT = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<specifiers>[^;]*)"
    r"(?:;(?P<marker>.*))?$")
FLOOR = re.compile(r"^\s*(?:>=|==|~=)\s*(?P<version>[^\s,]+)\s*$")


class FloorsFailed(Exception):
    """A step of the check failed; the message says which and why."""


def say(message: str) -> None:
    print(f"== floors: {message}", flush=True)


def floors(pyproject: Path = ROOT / "pyproject.toml") -> list[tuple[str, str, str]]:
    """Each direct dependency's (name, lowest version, environment marker), from
    ``[project] dependencies`` and the extras in :data:`EXTRAS`.

    :raises FloorsFailed: for a dependency that declares no lowest version.
    """
    with pyproject.open("rb") as file:
        project = tomllib.load(file)["project"]
    declared = list(project["dependencies"])
    for extra in EXTRAS:
        declared += project["optional-dependencies"][extra]
    found = []
    for text in declared:
        parts = REQUIREMENT.match(text)
        if parts is None:
            raise FloorsFailed(f"cannot read the requirement {text!r} in pyproject.toml")
        lowest = [m.group("version") for spec in parts.group("specifiers").split(",")
                  if (m := FLOOR.match(spec))]
        if not lowest:
            raise FloorsFailed(f"{text!r} in pyproject.toml declares no lowest version "
                               "(>=, == or ~=): its floor cannot be checked")
        found.append((parts.group("name"), lowest[0], (parts.group("marker") or "").strip()))
    return found


def constraints(pins: list[tuple[str, str, str]]) -> str:
    """A pip constraints file pinning each dependency at its floor (extras are not allowed in
    a constraints file, and the name alone pins the package whatever extras are asked)."""
    return "".join(f"{name}=={version}{f'; {marker}' if marker else ''}\n"
                   for name, version, marker in pins)


def run_logged(command: list[str], log: Path, what: str, timeout: float) -> None:
    """Run ``command`` with its output in ``log``; on failure show the log's end.

    :raises FloorsFailed: if it fails or takes longer than ``timeout`` seconds.
    """
    with log.open("w") as out:
        try:
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, timeout=timeout,
                                    check=False).returncode
        except subprocess.TimeoutExpired:
            status = None
    if status != 0:
        lines = log.read_text(errors="replace").splitlines()
        tail = "\n".join(lines[-40:])
        why = f"took over {timeout:.0f} s" if status is None else f"exited {status}"
        raise FloorsFailed(f"{what} {why}; the end of {log}:\n{tail}")


def install(folder: Path, pins: list[tuple[str, str, str]]) -> Path:
    """A fresh virtual environment in ``folder`` with the package at its floors; its Python.

    :raises FloorsFailed: if pip cannot install them together (its resolver says which).
    """
    (folder / "constraints.txt").write_text(constraints(pins))
    venv = folder / "venv"
    # without --system-site-packages: the check sees no other environment's packages
    run_logged([sys.executable, "-m", "venv", str(venv)], folder / "venv.log",
               "making the virtual environment", 300)
    python = venv / "bin" / "python"
    # --no-compile: a module is compiled when first imported, and most never are here
    run_logged([str(python), "-m", "pip", "install", "--disable-pip-version-check",
                "--no-compile", "-c", str(folder / "constraints.txt"),
                f"{ROOT}[{','.join(EXTRAS)}]", "websockets"],
               folder / "pip.log", "pip install at the floors", 1200)
    return python


def installed_versions(python: Path, names: list[str]) -> dict[str, str]:
    """The versions of ``names`` installed for ``python``."""
    script = ("import importlib.metadata as m, json, sys; "
              "print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))")
    out = subprocess.run([str(python), "-c", script, *names], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    versions: dict[str, str] = json.loads(out)
    return versions


def release(version: str) -> tuple[int, ...]:
    """The numbers of a version, without trailing zeros: 1.26 and 1.26.0 are one release.

    >>> release("1.26") == release("1.26.0"), release("0.29.0") < release("0.35")
    (True, True)
    """
    numbers = [int(part) for part in re.findall(r"\d+", version.split("+")[0])]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def serve_and_play(python: Path, folder: Path, database_url: str | None, name: str) -> str:
    """Start ``shutthebox serve`` from the environment of ``python``, play a game through it,
    stop it with SIGTERM; what the game's client said.

    :raises FloorsFailed: if the server does not start, the game fails, or the server writes
        a traceback.
    """
    home = folder / f"home-{name}"
    home.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [str(python.parent / "shutthebox"), "serve", "--host", "127.0.0.1",
               "--port", str(port), "--computer-delay", "0"]
    if database_url:
        command += ["--database-url", database_url]
    log = folder / f"serve-{name}.log"
    env = {**os.environ, "SHUTTHEBOX_HOME": str(home)}
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not answers(f"{url}/api/presets"):
            if server.poll() is not None or time.monotonic() > deadline:
                raise FloorsFailed(f"`shutthebox serve` on {name} did not start; {log}:\n"
                                   + log.read_text(errors="replace")[-4000:])
            time.sleep(0.2)
        game = subprocess.run([str(python), __file__, "--play", url], capture_output=True,
                              text=True, timeout=300, check=False)
        if game.returncode != 0:
            raise FloorsFailed(f"the game through `shutthebox serve` on {name} failed:\n"
                               + (game.stdout + game.stderr)[-4000:]
                               + f"\nthe server's log ({log}):\n"
                               + log.read_text(errors="replace")[-4000:])
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
    said = log.read_text(errors="replace")
    if "Traceback" in said:
        raise FloorsFailed(f"the server on {name} wrote a traceback ({log}):\n{said[-4000:]}")
    return game.stdout.strip()


COMMANDS = (["rules"], ["hint", "--open", "1,2,4,7,8", "--roll", "3,5"], ["play", "--help"],
            ["serve", "--help"], ["review", "--help"], ["simulate", "--help"])
"""Commands run at the floors besides the server: the rules' words, the solver, and the help
of commands with options of every kind (which is where an old typer and a new click part)."""


def imports_and_commands(python: Path, folder: Path) -> str:
    """Import every module of the package, and run :data:`COMMANDS`, with the environment of
    ``python``; what was found.

    :raises FloorsFailed: for a module that does not import or a command that fails.
    """
    imported = subprocess.run([str(python), __file__, "--imports"], capture_output=True,
                              text=True, timeout=300, check=False)
    if imported.returncode != 0:
        raise FloorsFailed("the package's modules do not all import at the floors:\n"
                           + (imported.stdout + imported.stderr)[-4000:])
    env = {**os.environ, "SHUTTHEBOX_HOME": str(folder / "home-commands")}
    for arguments in COMMANDS:
        run = subprocess.run([str(python.parent / "shutthebox"), *arguments], env=env,
                             capture_output=True, text=True, timeout=300, check=False,
                             stdin=subprocess.DEVNULL)
        if run.returncode != 0 or "Traceback" in run.stderr:
            raise FloorsFailed(f"`shutthebox {' '.join(arguments)}` exited {run.returncode}:"
                               f"\n{(run.stdout + run.stderr)[-4000:]}")
    return (imported.stdout.strip() + "; " + ", ".join(
        f"`shutthebox {' '.join(arguments)}`" for arguments in COMMANDS) + " ran")


def postgres_schema(python: Path, action: str, schema: str) -> str | None:
    """Create or drop a schema of :data:`POSTGRES` with the environment's psycopg; None if
    that worked, else why not."""
    statement = (f"CREATE SCHEMA {schema}" if action == "create"
                 else f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    script = ("import sys, psycopg\n"
              "with psycopg.connect(sys.argv[1], autocommit=True, connect_timeout=3) as c:\n"
              "    c.execute(sys.argv[2])\n")
    run = subprocess.run([str(python), "-c", script, POSTGRES, statement],
                         capture_output=True, text=True, timeout=60, check=False)
    return None if run.returncode == 0 else (run.stderr.strip().splitlines() or ["?"])[-1]


def check(keep: bool, tried: list[str]) -> None:
    """The whole check, with the floors of ``tried`` (``name==version``) in place of
    pyproject.toml's; raises :class:`FloorsFailed` at the first step that fails."""
    began = time.monotonic()
    pins = floors()
    for pin in tried:
        name, _, version = pin.partition("==")
        known = [n for n, _, _ in pins if n.lower() == name.strip().lower()]
        if not version or not known:
            raise FloorsFailed(f"--try {pin}: give name==version for a dependency of "
                               "pyproject.toml")
        pins = [(n, version.strip() if n == known[0] else v, m) for n, v, m in pins]
    say(f"{len(pins)} direct dependencies at their lowest versions: "
        + ", ".join(f"{name}=={version}" for name, version, _ in pins))
    folder = Path(tempfile.mkdtemp(prefix="shutthebox-floors-"))
    try:
        python = install(folder, pins)
        versions = installed_versions(python, [name for name, _, _ in pins])
        wrong = [f"{name} {versions[name]} (floor {version})" for name, version, _ in pins
                 if release(versions[name]) != release(version)]
        if wrong:
            raise FloorsFailed(f"installed above the floor: {', '.join(wrong)}")
        say(f"installed in a fresh virtual environment in {time.monotonic() - began:.0f} s")
        say(imports_and_commands(python, folder))
        say("SQLite: " + serve_and_play(python, folder, None, "sqlite"))
        schema = f"floors_{uuid.uuid4().hex[:12]}"
        problem = postgres_schema(python, "create", schema)
        if problem is None:
            try:
                url = f"{POSTGRES}?options=-csearch_path%3D{schema}"
                say("PostgreSQL: " + serve_and_play(python, folder, url, "postgresql"))
            finally:
                postgres_schema(python, "drop", schema)
        else:
            say(f"PostgreSQL not checked: it does not answer at {POSTGRES} ({problem})")
    finally:
        if keep:
            say(f"kept the environment and the logs in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    say(f"the floors hold ({time.monotonic() - began:.0f} s in all)")


# Run inside the floors' environment: the imports (``--imports``) and the game's client
# (``--play URL``).

def import_every_module() -> None:
    """Import each module of the installed package (the Alembic scripts apart, which only
    Alembic loads). A module that needs a package of another extra (OpenSpiel, say) is
    skipped and named; any other failure is raised.

    :raises FloorsFailed: naming each module that failed and why.
    """
    import importlib
    import importlib.util
    import pkgutil

    import shutthebox

    names = [module.name for module in pkgutil.walk_packages(
        shutthebox.__path__, "shutthebox.", onerror=lambda name: None)
        if ".migrations" not in module.name]
    failed, skipped = [], []
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            missing = (error.name or "").split(".")[0]
            if missing and importlib.util.find_spec(missing) is None:
                skipped.append(f"{name} (needs {missing})")
            else:
                failed.append(f"{name}: {type(error).__name__}: {error}")
        except Exception as error:   # any import-time failure is the finding
            failed.append(f"{name}: {type(error).__name__}: {error}")
    if failed:
        raise FloorsFailed("modules that do not import: " + "; ".join(failed))
    print(f"{len(names) - len(skipped)} modules imported"
          + (f", {len(skipped)} of other extras skipped: {', '.join(skipped)}"
             if skipped else ""))



def request(url: str, body: dict[str, Any] | None = None,
            token: str | None = None) -> dict[str, Any]:
    """GET (or POST ``body``) and the JSON answer.

    :raises FloorsFailed: for an answer that is not 200/201.
    """
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers),
                                    timeout=60) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as error:
        raise FloorsFailed(f"{'POST' if data else 'GET'} {url} answered {error.code}: "
                           f"{error.read()[:500]!r}") from None


def play(url: str) -> None:
    """Ann (over the API) against the optimal computer, one game, watched live."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tests.web.legal import first_legal

    state = request(f"{url}/api/games", {"players": [
        {"name": "Ann"}, {"name": "Bot", "computer": "hard"}]})
    tokens: dict[str, str] = state["tokens"]
    heard: list[dict[str, Any]] = []
    closed: list[int | None] = []
    feed = connect(f"ws{url.removeprefix('http')}/api/games/{state['id']}/live?since=0",
                   open_timeout=30)

    def listen() -> None:
        try:
            while True:
                heard.append(json.loads(feed.recv()))
        except ConnectionClosed as error:
            closed.append(error.rcvd.code if error.rcvd is not None else None)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    actions = 0
    deadline = time.monotonic() + 240
    while state["status"] != "over":
        if time.monotonic() > deadline:
            raise FloorsFailed(f"the game was not over after 240 s ({actions} actions)")
        seat = str(state["pending"]["seat"])
        if seat in tokens:
            path, body = first_legal(state)
            state = request(f"{url}{path}", body, token=tokens[seat])
            actions += 1
        else:   # the computer's turn: the server plays it
            time.sleep(0.05)
            state = request(f"{url}/api/games/{state['id']}")
    listener.join(timeout=30)
    feed.close()
    counts = [message["event_count"] for message in heard if "event_count" in message]
    if not counts or max(counts) != state["event_count"]:
        raise FloorsFailed(f"the live feed did not tell the whole game: it heard up to event "
                           f"{max(counts, default=0)} of {state['event_count']}")
    print(f"a game of {state['event_count']} events ({actions} actions over the API against "
          f"the computer), told by {len(heard)} live messages, the feed closed with "
          f"{closed[0] if closed else 'no close'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true",
                        help="keep the virtual environment and the logs, and say where")
    parser.add_argument("--try", metavar="NAME==VERSION", action="append", default=[],
                        dest="tried", help="check with this floor instead of pyproject.toml's "
                        "(to find a true floor); may be given again")
    parser.add_argument("--play", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--imports", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    # stopped (.ci/run stops it when an earlier step fails): the server is stopped and the
    # folder removed on the way out, as after a failure
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    try:
        if arguments.play:
            play(arguments.play)
        elif arguments.imports:
            import_every_module()
        else:
            check(arguments.keep, arguments.tried)
    except FloorsFailed as error:
        inside = arguments.play or arguments.imports   # the caller reports it
        print(error if inside else f"== floors: FAILED: {error}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
