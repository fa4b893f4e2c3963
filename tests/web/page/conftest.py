"""The fixtures of the page's browser tests: a real server for the module, and a desktop page
whose console must stay free of errors. (``browser`` is in ``tests/conftest.py``, shared with
the README's pictures; the steps a test takes in the page are in ``browsing.py``.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.page.browsing import open_page
from tests.web.webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web")).start()
    yield running
    running.kill()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened, errors = open_page(browser)
    yield opened
    opened.context.close()
    assert errors == []
