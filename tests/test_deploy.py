"""The service files of ``deploy/``, tested as far as this machine allows: the systemd units
checked by ``systemd-analyze verify`` (skipped where Debian's systemd package is absent),
the container recipe's install and start commands run in a fresh virtual environment the
way the image would (its base image lives on a registry these machines cannot reach), the
compose file's and the Caddyfile's settings read back. nginx's sites run in
tests/web/test_proxy.py and tests/web/test_tls.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from shutthebox.web.settings import ServerSettings, read_settings
from tests.web.webserver import free_port

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
SERVE_LINE = re.compile(r"shutthebox serve((?: --?[a-z-]+(?: [^\s\\-][^\s\\]*)?| \\\n#\s+)*)")


def serve_options(text: str) -> list[str]:
    """The options of every ``shutthebox serve`` command line a file's comments show."""
    options = []
    for found in SERVE_LINE.finditer(text):
        options += re.findall(r"--([a-z-]+)", found.group(1))
    return options


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed "
                    "(Debian's systemd package)")
def test_the_systemd_units_verify(tmp_path: Path) -> None:
    bin_folder = Path(sys.executable).parent
    for name in ("shutthebox.service", "shutthebox-health.service",
                 "shutthebox-health.timer"):
        text = (DEPLOY / name).read_text()
        (tmp_path / name).write_text(text.replace("/opt/shutthebox/bin/shutthebox",
                                                  f"{sys.executable} -m shutthebox")
                                     .replace("/opt/shutthebox/bin", str(bin_folder)))
    checked = subprocess.run([str(SYSTEMD_ANALYZE), "verify", *sorted(
        str(path) for path in tmp_path.iterdir())], capture_output=True, text=True,
        timeout=60, cwd=tmp_path)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
    unit = (DEPLOY / "shutthebox.service").read_text()
    for line in ("Restart=on-failure", "StateDirectory=shutthebox",
                 "Environment=SHUTTHEBOX_HOME=/var/lib/shutthebox",
                 "ExecStartPost=/opt/shutthebox/bin/shutthebox health --wait"):
        assert line in unit


def dockerfile() -> tuple[dict[str, str], list[str], list[str], list[str]]:
    """The recipe's ENV, RUN commands, HEALTHCHECK command and CMD."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    environment: dict[str, str] = {}
    runs: list[str] = []
    health: list[str] = []
    command: list[str] = []
    for line in text.splitlines():
        word, _space, rest = line.strip().partition(" ")
        if word == "ENV":
            environment |= dict(pair.split("=", 1) for pair in rest.split())
        elif word == "RUN":
            runs.append(rest.strip())
        elif word == "HEALTHCHECK":
            health = json.loads(rest.split("CMD", 1)[1])
        elif word == "CMD":
            command = json.loads(rest)
    return environment, runs, health, command


def sees_the_tests_packages(venv: Path) -> None:
    """Let a new virtual environment see the packages of the one running the tests (a
    ``.pth`` line: the folders are searched, their own ``.pth`` files not run, so the
    checkout's editable install stays out), as ``--system-site-packages`` lets it see the
    base interpreter's: the install then builds shutthebox alone instead of installing
    every dependency again."""
    folders = [folder for folder in site.getsitepackages() if Path(folder).is_dir()]
    [inside] = (venv / "lib").glob("python3*/site-packages")
    (inside / "tests_packages.pth").write_text("\n".join(folders) + "\n")


@pytest.mark.slow
def test_the_container_recipe_installs_and_starts_in_a_fresh_environment(
        tmp_path: Path) -> None:
    environment, runs, health, command = dockerfile()
    source = tmp_path / "src"
    caches = shutil.ignore_patterns(".*cache", "__pycache__", "*.egg-info")

    def left_out(folder: str, names: list[str]) -> set[str]:
        """What the image needs not (what a .dockerignore would leave out)."""
        if Path(folder) == ROOT:
            return {name for name in names if name.startswith(".") or name in (
                "build", "tests", "docs", "benchmarks", "examples")}
        return set(caches(folder, names))

    shutil.copytree(ROOT, source, ignore=left_out)
    venv = tmp_path / "opt"

    def here(text: str) -> str:
        return text.replace("/opt/shutthebox", str(venv)).replace("/src", str(source))

    for run in runs:
        if run.startswith("useradd"):
            continue        # (the image's own user: the test runs as the one it is)
        if run.startswith("python -m venv"):
            # The machine's packages are seen, not downloaded again: the install
            # builds and installs shutthebox itself, as the image's would.
            run = run.replace("python -m venv", f"{sys.executable} -m venv "
                              "--system-site-packages")
        done = subprocess.run(here(run), shell=True, capture_output=True, text=True,
                              timeout=600, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        if run.startswith(f"{sys.executable} -m venv"):
            sees_the_tests_packages(venv)
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= environment | {"SHUTTHEBOX_HOME": str(tmp_path / "data"),
                          "SHUTTHEBOX_PORT": str(port)}
    (tmp_path / "data").mkdir()
    server = subprocess.Popen([here(word) for word in command], env=env, cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while subprocess.run([here(word) for word in health], env=env, capture_output=True,
                             timeout=30, cwd=tmp_path).returncode != 0:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.5)
        os.kill(server.pid, signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
    assert (tmp_path / "data" / "shutthebox.sqlite").exists()


def test_the_compose_file_runs_the_image_on_postgresql_with_its_health_check() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    _environment, _runs, health, _command = dockerfile()
    server, database = compose["services"]["server"], compose["services"]["database"]
    assert server["healthcheck"]["test"] == ["CMD", *health]
    assert server["depends_on"]["database"]["condition"] == "service_healthy"
    assert "pg_isready" in database["healthcheck"]["test"]
    names = {field_of(name) for name in server["environment"]}
    assert names <= set(ServerSettings.model_fields)
    settings = read_settings(**{field_of(k): v for k, v in server["environment"].items()})
    assert settings.database_url and settings.database_url.startswith("postgresql://")
    assert server["build"]["dockerfile"] == "deploy/Dockerfile"


def field_of(variable: str) -> str:
    return variable.removeprefix("SHUTTHEBOX_").lower()


def test_the_recipes_start_the_server_with_options_it_has() -> None:
    fields = {name.replace("_", "-") for name in ServerSettings.model_fields}
    for name in ("Caddyfile", "nginx-tls.conf", "nginx.conf"):
        options = serve_options((DEPLOY / name).read_text())
        assert options and set(options) <= fields, (name, options)
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert "health_uri /readyz" in caddy and "reverse_proxy 127.0.0.1:8000" in caddy
