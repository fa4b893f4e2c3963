"""The README and the manual, as a reader meets them: the manual builds with no warning, every
``>>>`` example in them runs, the README's commands run, and its links and pictures exist."""

from __future__ import annotations

import doctest
import os
import re
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))

FENCE = re.compile(r"^```(?P<language>[\w-]*)[^\n]*\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)

NOT_RUN = {
    "sh play.sh": "installs the package and starts an interactive game",
    "bash .ci/run": "is the whole test run itself",
    "sh docs/build.sh": "installs the docs extra, then is test_the_manual_builds_without_a_warning",
}
"""The README's commands the test does not run, and why."""


def fenced(path: Path, *languages: str) -> list[tuple[int, str]]:
    """The bodies of the fenced blocks of these languages, each with its first line's number."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start("body")) + 1, m.group("body"))
            for m in FENCE.finditer(text) if m.group("language") in languages]


def run_examples(path: Path) -> None:
    """Run every ``>>>`` block of a Markdown file as one doctest session, in order."""
    parser = doctest.DocTestParser()
    globs: dict[str, object] = {"__name__": path.stem}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    examples = 0
    for line, body in fenced(path, "pycon", "python"):
        if not body.lstrip().startswith(">>>"):
            continue
        test = parser.get_doctest(body, globs, f"{path.name}:{line}", str(path), line - 1)
        examples += len(test.examples)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs                 # a DocTest works on a copy: carry its names on
    assert examples, f"{path.name} has no >>> example"
    assert runner.failures == 0, "".join(report)


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; the manual is for the rest"


def test_the_readme_quick_start_is_the_two_commands() -> None:
    quick_start = fenced(README, "bash")[0][1].splitlines()
    assert [line.split("#")[0].strip() for line in quick_start] == ["sh play.sh", "bash .ci/run"]


def test_the_readme_examples_run() -> None:
    run_examples(README)


def test_the_readme_commands_run(tmp_path: Path) -> None:
    """Each ``sh`` block runs as a new user would type it, in a home folder of its own."""
    bin_dirs = [sysconfig.get_path("scripts"), os.path.join(site.getuserbase(), "bin"),
                str(Path(sys.executable).parent)]
    env = {key: value for key, value in os.environ.items()
           if key not in ("SHUTTHEBOX_HOME", "XDG_DATA_HOME")}
    env.update(HOME=str(tmp_path), PYTHONUSERBASE=site.getuserbase(), COLUMNS="100",
               PATH=os.pathsep.join([*bin_dirs, env.get("PATH", "")]))
    blocks = fenced(README, "sh")
    assert blocks
    for line, body in blocks:
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=tmp_path, env=env,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=300)
        assert run.returncode == 0, f"README.md:{line}: {run.stderr[-2000:]}"
    every_command = [command.split("#")[0].strip() for _, body in fenced(README, "bash")
                     for command in body.splitlines()]
    assert set(every_command) == set(NOT_RUN), "a README command is neither run nor excused"


def test_the_readme_links_and_pictures_exist() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert local
    for target in local:
        assert (ROOT / target).exists(), f"README.md links to {target}, which is missing"
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        size = (ROOT / picture).stat().st_size
        assert size < 150_000, f"{picture} is {size:,} bytes: keep the README's pictures small"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_the_manual_examples_run(page: Path) -> None:
    if not any(body.lstrip().startswith(">>>") for _, body in fenced(page, "pycon", "python")):
        pytest.skip(f"{page.name} has no >>> example")
    run_examples(page)


def test_the_manual_builds_without_a_warning(tmp_path: Path) -> None:
    """Sphinx with warnings as errors: a broken link between pages, a bad reference in a
    docstring or a figure that fails to compute fails the build."""
    env = dict(os.environ, SHUTTHEBOX_HOME=str(tmp_path / "home"),
               MPLCONFIGDIR=str(tmp_path / "matplotlib"))
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        env=env, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0 and not build.stderr.strip(), build.stderr[-4000:]
    strategy = (tmp_path / "html" / "strategy.html").read_text(encoding="utf-8")
    assert strategy.count("<table") >= 5 and "_images/score-distribution.png" in strategy
    assert (tmp_path / "html" / "_images" / "score-distribution.png").stat().st_size > 5_000
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").iterdir()), \
        "the build wrote into the data folder"


def test_the_changelog_names_each_release() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## 0.1.0" in changelog and "## 0.2.0" in changelog
