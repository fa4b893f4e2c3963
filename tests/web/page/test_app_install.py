"""The page as an app on a phone, in Debian's chromium against a real server: the manifest
and its icons, Chromium's own installability check, the service worker that keeps the page's
shell on the device, and the banner shown without a connection. Screenshots go to
the folder named by $SHUTTHEBOX_SCREENSHOTS."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from shutthebox import __version__
from tests.web.page.browsing import ARGS, CHROMIUM, PHONE, shot, watch_console
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

OFFLINE_NOISE = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch")
WORKER_CONTROLS = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    opened = context.new_page()
    opened.set_default_timeout(30_000)
    errors = watch_console(opened)
    yield opened
    context.close()
    # a reload without a connection logs the failed requests the page then does not need
    assert [e for e in errors if not any(noise in e for noise in OFFLINE_NOISE)] == []


def test_the_manifest_names_the_app_and_its_icons(server: Server) -> None:
    from PIL import Image

    page = httpx.get(server.url).text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link is not None
    answer = httpx.get(server.url + link.group(1))
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Shut the Box" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    style = httpx.get(server.url + "/static/style.css").text
    assert manifest["theme_color"] in style and manifest["background_color"] in style
    pngs = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]
            if icon["type"] == "image/png"}
    assert set(pngs) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), src in pngs.items():
        image = httpx.get(server.url + src)
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        side = int(sizes.split("x")[0])
        assert Image.open(io.BytesIO(image.content)).size == (side, side)


def test_the_service_worker_is_served_from_the_root_with_the_shell_and_version(
        server: Server) -> None:
    answer = httpx.get(server.url + "/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert f'const CACHE = "shutthebox-{__version__}-' in answer.text
    shell = re.search(r"const SHELL = (\[.*\]);", answer.text)
    assert shell is not None
    for path in ('"/"', '"/static/index.html"', '"/static/js/main.js"', '"/static/style.css"',
                 '"/static/js/board/playback.js"', '"/static/icons/icon-192.png"'):
        assert path in shell.group(1)
    assert "/api/" not in shell.group(1)


def test_chromium_finds_the_page_installable(server: Server, tmp_path: Path) -> None:
    # a profile on disk: Chromium installs nothing from an incognito context, which is what
    # a plain new context is
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=ARGS, viewport=PHONE)
        try:
            page = context.new_page()
            errors = watch_console(page)
            page.goto(server.url)
            page.wait_for_selector("#preset option", state="attached")
            page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
            session = context.new_cdp_session(page)
            manifest = session.send("Page.getAppManifest")
            assert manifest["url"].endswith("/static/manifest.webmanifest")
            assert manifest.get("errors", []) == []
            assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            assert errors == []
        finally:
            context.close()


def test_the_page_opens_from_the_cache_and_says_when_the_network_is_gone(
        phone: Page, server: Server) -> None:
    phone.goto(server.url + "/stats")
    phone.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    phone.reload()
    phone.wait_for_function(WORKER_CONTROLS)
    assert phone.is_hidden("#offline")
    api_in_cache = phone.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls.filter((url) => new URL(url).pathname.startsWith('/api/'));
    }""")
    assert api_in_cache == []
    phone.context.set_offline(True)
    banner = phone.locator("#offline")
    banner.wait_for(state="visible")
    assert banner.get_attribute("role") == "status"
    assert "No connection" in banner.inner_text()
    phone.reload()
    phone.wait_for_selector("#stats-title")
    assert phone.is_visible("#offline")
    assert phone.is_visible("header .brand")
    phone.wait_for_selector("#stats-players .error")    # the players' list needs the server
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "offline-banner")
    phone.context.set_offline(False)
    banner.wait_for(state="hidden")
    # back online, the page loads by itself what it could not: the players' list
    phone.wait_for_selector("#stats-players .error", state="detached")
    assert phone.inner_text("#stats-players").strip() != ""
    # a game's page opened without a connection says the game needs one: no board, no action
    phone.context.set_offline(True)
    phone.goto(server.url + "/games/" + "0" * 32)
    phone.wait_for_selector("#view-game.unreachable")
    assert phone.locator("#controls button:visible").count() == 0
    assert phone.is_hidden("#tiles") and phone.is_visible("#offline")
    assert "connection" in phone.inner_text("#game-title")
    phone.context.set_offline(False)


def test_a_new_version_gets_a_new_cache() -> None:
    from shutthebox.web.api.routes import pages

    script = pages.service_worker().decode()
    assert "caches.delete" in script and "name !== CACHE" in script


def test_the_banner_shows_while_the_server_is_away_and_leaves_when_it_is_back(
        browser: Browser, tmp_path: Path) -> None:
    away = Server(tmp_path).start()
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(away.url + "/history")
        page.wait_for_selector("#history-title")
        assert page.is_hidden("#offline")
        away.kill()
        page.click("nav [data-nav=stats]")
        page.locator("#offline").wait_for(state="visible")
        page.wait_for_selector("#stats-players .error")
        away.start()
        page.locator("#offline").wait_for(state="hidden")
        page.wait_for_selector("#stats-players .error", state="detached")
    finally:
        context.close()
        away.kill()
