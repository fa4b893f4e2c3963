"""The package's layers hold: the import contract in ``pyproject.toml`` (``[tool.importlinter]``)
is kept, so no module imports from a layer above its own (imports inside functions and under
``TYPE_CHECKING`` count too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    # import-linter's own command, without its cache (the run leaves nothing behind)
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
         "--no-cache", "--no-logo"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300


def test_no_module_or_class_grows_past_what_a_reader_takes_in() -> None:
    """No module of the package over 600 lines, no class of the web server over 300."""
    import ast

    too_long = []
    for path in sorted((ROOT / "src" / "shutthebox").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT / "src").as_posix()
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{name}: {text.count(chr(10))} lines")
        if not name.startswith("shutthebox/web/"):
            continue        # (classes: the web server's, as its redesign asked)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > MAX_CLASS_LINES:
                    too_long.append(f"{name}: class {node.name}, {length} lines")
    assert too_long == []


def test_no_module_imports_one_that_imports_it_back() -> None:
    """No import cycle anywhere in the package, between modules of one layer too (where the
    contract allows siblings to import each other): grimp's graph, import-linter's own."""
    import grimp

    graph = grimp.build_graph("shutthebox", cache_dir=None)
    cycles = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycles.append(" -> ".join((module, *back)))
    assert not cycles, "\n".join(cycles)
