"""The chat page in Debian's chromium, served by a real Daphne. Its WebSocket is either played by
the test (``fake_socket``, the ``test_page_*`` modules) or the real consumer (``live_page``, the
``test_live_*`` modules and the screenshots).

Browsers cannot be downloaded here, so Playwright drives ``/usr/bin/chromium``. Without it the
browser tests are skipped on a developer's machine, but they fail when ``OMNIFORGE_BROWSER_TESTS=1``
(CI sets it): a missing browser must never turn the suite green.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connections
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.browser.fake_socket import FakeChatServer
from tests.conftest import World
from tests.live import Server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class FewRoundsPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's default hasher with few rounds: the server (its own settings) can verify it."""

    iterations = 1000


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # Overrides the suite's MD5 hasher: the live server signs people in with its own settings,
    # which know PBKDF2 (and read the rounds from the stored hash) but not MD5.
    settings.PASSWORD_HASHERS = ["tests.browser.conftest.FewRoundsPBKDF2PasswordHasher"]


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("OMNIFORGE_BROWSER_TESTS") == "1":
        pytest.fail(f"OMNIFORGE_BROWSER_TESTS=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API, for one test module.

    It keeps its asyncio loop marked as running on this thread while it is started, and Django
    refuses ORM calls under a running loop. The test's ORM calls run between Playwright calls,
    never inside the loop, so Django's escape hatch is opened exactly while Playwright runs.
    """
    _require_chromium()
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            yield p
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def daphne(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    """One Daphne for the browser tests, on the test database; DEBUG for cookies over plain http."""
    with django_db_blocker.unblock():
        connections.close_all()
        server = Server(env={"DEBUG": "true"})
    yield server
    server.stop()


@pytest.fixture
def new_context(browser: Browser, tmp_path: Path) -> Iterator[Callable[..., BrowserContext]]:
    """Contexts made by the test (a phone, dark mode); each ends with a screenshot per page."""
    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        options.setdefault("viewport", DESKTOP)
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        made.append(context)
        return context

    yield make
    for number, context in enumerate(made):
        for index, page in enumerate(context.pages):
            if not page.is_closed():
                page.screenshot(path=tmp_path / f"end-{number}-{index}.png")
        context.close()


@pytest.fixture
def context(new_context: Callable[..., BrowserContext]) -> BrowserContext:
    return new_context()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page of the default context; an uncaught script error on it fails the test."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def fake(page: Page) -> FakeChatServer:
    """The chat socket, played by the test: routed before the page opens."""
    return FakeChatServer(page)


@pytest.fixture
def shot(tmp_path: Path) -> Callable[[Page, str], Path]:
    """Save a screenshot in the test's output directory (and in OMNIFORGE_SCREENSHOT_DIR if set)."""

    def save(page: Page, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=path)
        extra = os.environ.get("OMNIFORGE_SCREENSHOT_DIR")
        if extra:
            Path(extra).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(extra) / path.name)
        return path

    return save


def sign_in(page: Page, server: Server, username: str, password: str, path: str = "/") -> None:
    """Through the real form, as a person would."""
    page.goto(f"{server.url}/accounts/login/?next={path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.url}{path}")


@pytest.fixture
def olivia(world: World) -> World:
    """The world, written and committed before the server reads it."""
    connections.close_all()
    return world
