"""A Sphinx extension: the ``computed`` directive puts a figure that the package computes
into a page as the manual is built.

In a page::

    ```{computed} rules-of-thumb
    ```

calls ``figures.FIGURES["rules-of-thumb"]`` and parses the Markdown it answers
(tables, sentences carrying numbers, links to plots) in place. Plots are written beside the
build's doctrees, never into the source folder, and Sphinx copies them into the HTML.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.statemachine import StringList
from figures import FIGURES, Plots
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


class ComputedDirective(SphinxDirective):
    """Compute the named figure and parse its Markdown into the page."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in FIGURES:
            raise self.error(f"unknown computed figure {name!r}: known are "
                             f"{', '.join(sorted(FIGURES))}")
        folder = Path(self.env.app.doctreedir).parent / "computed"
        folder.mkdir(parents=True, exist_ok=True)
        page_folder = Path(self.env.doc2path(self.env.docname)).parent
        link = Path(os.path.relpath(folder, page_folder)).as_posix()
        markdown = FIGURES[name](Plots(folder, link))
        container = nodes.container(classes=["computed", f"computed-{name}"])
        self.state.nested_parse(StringList(markdown.splitlines(), source=f"<computed {name}>"),
                                self.content_offset, container)
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("computed", ComputedDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
