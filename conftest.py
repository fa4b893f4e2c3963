"""The doctests under ``src/``: a module of an optional extra that is not installed is not
collected (its tests in ``tests/`` skip, saying which extra to install)."""

import importlib.util

collect_ignore = ([] if importlib.util.find_spec("pyspiel")
                  else ["src/shutthebox/envs/openspiel.py"])
