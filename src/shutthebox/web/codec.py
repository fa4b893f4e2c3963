"""JSON for the web app's hot paths (a move's answer, its live message, its stored events):
orjson, a tenth of the standard library's time for a game's state. The output is compact
JSON; integer keys become strings, as ``json.dumps`` makes them.

>>> dumps({"tiles": [7, 2], 3: "x"})
'{"tiles":[7,2],"3":"x"}'
>>> loads(b'{"event": 5}')
{'event': 5}
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON text; ``ValueError`` (orjson's ``JSONDecodeError``) if it is not
    JSON."""
    return orjson.loads(text)
