"""A kernel compiles with its cache on disk, and without it where numba has no folder for it
(a read-only installation and home): the package still imports and computes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shutthebox.solver import compiled as compiled_module
from shutthebox.solver.compiled import compiled


def add_one(x: int) -> int:
    return x + 1


def test_a_kernel_is_cached_on_disk_where_it_can_be(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[dict[str, Any]] = []

    def njit(**options: Any) -> Any:
        asked.append(options)
        return lambda function: function

    monkeypatch.setattr(compiled_module, "njit", njit)
    assert compiled(parallel=True)(add_one)(1) == 2
    assert asked == [{"cache": True, "parallel": True}]


def test_a_kernel_compiles_without_a_cache_where_none_can_be_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[dict[str, Any]] = []

    def njit(**options: Any) -> Any:
        asked.append(options)
        if options.get("cache"):
            raise RuntimeError("cannot cache function 'add_one': no locator available")
        return lambda function: function

    monkeypatch.setattr(compiled_module, "njit", njit)
    assert compiled()(add_one)(41) == 42
    assert asked == [{"cache": True}, {}]


def test_every_kernel_of_the_package_is_compiled_through_the_fallback() -> None:
    package = Path(compiled_module.__file__).parents[1]
    direct = [str(path.relative_to(package)) for path in sorted(package.rglob("*.py"))
              if path.name != "compiled.py" and "njit(" in path.read_text(encoding="utf-8")]
    assert direct == []
