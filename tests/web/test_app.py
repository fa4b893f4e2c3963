"""The app as `shutthebox serve` makes it (web/app.py): what it loads and freezes before
its first request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import gc, json, sys
from shutthebox.web.app import app_from_environment
app_from_environment()
from confusable_homoglyphs import confusables
loaded = set(sys.modules)
tracked = {id(o) for o in gc.get_objects()}
from shutthebox.names import name_key
name_key("Zoë")
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "table_tracked": id(confusables.confusables_data) in tracked,
    "first_name_imports": sorted(set(sys.modules) - loaded),
}))
"""


def test_the_look_alike_tables_are_loaded_and_frozen_before_the_first_request(
        tmp_path: Path) -> None:
    """A seat's name is checked against Unicode's look-alike tables: loaded by the first
    named seat, their import held every request up, and their tens of thousands of objects
    were scanned by every full pass of the collector from then on."""
    env = {**os.environ, "SHUTTHEBOX_HOME": str(tmp_path),
           "SHUTTHEBOX_DATABASE_URL": f"sqlite:///{tmp_path / 'games.sqlite'}"}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=300, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 10_000
    assert not found["table_tracked"]           # frozen: never scanned by the collector
    assert found["first_name_imports"] == []    # the first name imports nothing
