"""What the repository itself holds: no large file but the manual's pictures, a lower bound
for every dependency (the floors check, ``.ci/floors.py``, installs each at it), and one
version, the changelog's latest."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from packaging.requirements import Requirement

import shutthebox

ROOT = Path(__file__).resolve().parent.parent
LARGEST = 1_000_000
"""Bytes: a tracked file past this is a download or a build artefact, which has no place in
the history (every clone carries it for ever)."""
PICTURES = PurePosixPath("docs/images")
PICTURE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}


def tracked_files() -> list[str]:
    """The files git tracks in this checkout (the test is skipped outside one)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    run = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                         check=True, timeout=60)
    return [name for name in run.stdout.decode().split("\0") if name]


def is_a_picture_of_the_manual(name: str) -> bool:
    path = PurePosixPath(name)
    return path.is_relative_to(PICTURES) and path.suffix.lower() in PICTURE_SUFFIXES


def test_no_tracked_file_is_over_a_megabyte_but_a_picture_of_the_manual() -> None:
    sizes = {name: (ROOT / name).stat().st_size for name in tracked_files()
             if (ROOT / name).is_file()}
    assert sizes, "git tracks no file here"
    too_large = [f"{name} ({size:,} bytes)" for name, size in sorted(sizes.items())
                 if size > LARGEST and not is_a_picture_of_the_manual(name)]
    assert not too_large, (f"tracked files over {LARGEST:,} bytes (only the manual's "
                           f"pictures, in {PICTURES}/, may be): {', '.join(too_large)}")


@pytest.mark.parametrize(("name", "picture"), [
    ("docs/images/web-board.png", True),
    ("docs/images/sub/board.JPG", True),
    ("docs/images/notes.txt", False),
    ("docs/web-board.png", False),
    ("babel-2.18.0-py3-none-any.whl", False),
])
def test_only_images_under_docs_images_are_pictures_of_the_manual(
        name: str, picture: bool) -> None:
    assert is_a_picture_of_the_manual(name) is picture


def project_table() -> dict[str, Any]:
    """The ``[project]`` table of ``pyproject.toml``."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def test_every_dependency_declares_its_lowest_version() -> None:
    """The floors check pins each direct dependency, and the postgres extra's, at its lowest
    declared version: one without a lower bound could not be checked."""
    project = project_table()
    declared = [*project["dependencies"], *project["optional-dependencies"]["postgres"]]
    assert declared
    floorless = [text for text in declared
                 if not any(spec.operator in (">=", "==", "~=")
                            for spec in Requirement(text).specifier)]
    assert not floorless, f"dependencies without a lowest version: {floorless}"


def test_the_version_is_the_changelogs_latest() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, flags=re.MULTILINE)
    assert headings, "CHANGELOG.md has no '## X.Y.Z' heading"
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    cited = re.search(r"^version: (\S+)$", citation, flags=re.MULTILINE)
    assert cited is not None, "CITATION.cff names no version"
    assert shutthebox.__version__ == headings[0] == cited.group(1)
    # pyproject.toml reads the version from the package: it is written once
    assert "version" in project_table()["dynamic"]
