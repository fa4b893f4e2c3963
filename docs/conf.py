"""Sphinx configuration of the manual: Markdown pages (MyST), the API reference from the
package's docstrings (autodoc), and the figures the package computes as the manual is built
(``_ext/computed.py``). Nothing is fetched from the network: no intersphinx, no remote fonts
or images (the Furo theme ships its own assets and uses the system's fonts)."""

from __future__ import annotations

import sys
from pathlib import Path

from shutthebox import __version__

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "shutthebox"
author = "the shutthebox engineers"
copyright = "the shutthebox engineers, MIT licence"
release = __version__   # the package's, which is the changelog's latest

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "computed",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "images/README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_inherit_docstrings = False   # Gymnasium's own docstrings are in another dialect
autodoc_default_options = {"members": True, "show-inheritance": True}

html_theme = "furo"
html_title = "shutthebox manual"
html_static_path: list[str] = []
html_show_sourcelink = False
