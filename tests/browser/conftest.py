"""Browser tests: headless Chromium (Debian's package) driven by Playwright against the live server.

One Chromium for the whole session, a fresh browser context (cookies, storage, viewport) for each
test. Every test here is marked `browser`; each test that uses the live server gets a transactional
database with the real catalogue, set back to the suite's starting rows after it
(tests/starting_data.py).
"""

import contextlib
import datetime
import functools
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import Resolver404, resolve
from playwright._impl._sync_base import EventInfo
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Response, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apps.apiprices.loading import api_prices_load
from apps.projects.models import Project, Scenario
from tests.factories import TRANSLATION_INFERENCE, load_ecb, make_manager, make_scenario

# Playwright's sync API runs an asyncio event loop in the main thread (in a greenlet) from the
# moment it starts until it stops, so for the rest of the session asyncio.get_running_loop()
# answers in the test thread. Django's async_unsafe guard then raises SynchronousOnlyOperation on
# every ORM call made here (catalogue loading, creating users) and in any test that runs after the
# session browser started. Nothing here is async: the ORM runs in the test thread and in the live
# server's thread, never in the event loop, so the guard is a false alarm. The variable is set at
# import time because the browser lives for the whole session, past the last browser test.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]
AXE_JS = Path(settings.BASE_DIR) / "static" / "vendor" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_NODES_SHOWN = 3
DEFAULT_TIMEOUT_MS = 10_000

# The two widths every page must work at: a laptop and a phone (iPhone 12-15 CSS pixels).
VIEWPORTS = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}
# Usage: @BOTH_VIEWPORTS on a test that uses `page` (ids: desktop-1280x900, phone-390x844), for
# what a person does differently at each width (the keyboard, what is in view). A test that only
# audits a page at both widths loads it once and calls assert_no_axe_violations_at_each_width
# (each run of a test costs its set-up, its sign-in and its page loads again).
BOTH_VIEWPORTS = pytest.mark.parametrize(
    "viewport",
    list(VIEWPORTS),
    ids=[f"{name}-{size['width']}x{size['height']}" for name, size in VIEWPORTS.items()],
    indirect=True,
)


def languages_each_at_a_width(first: str, second: str):
    """Parametrizes `language` and `viewport` together: `first` at 1280 px, `second` at 390 px.

    For a flow whose every step works in both languages at both widths: each language clicks
    through it at one width, and audits each page at both (assert_no_axe_violations_at_each_width),
    where BOTH_VIEWPORTS times two languages ran the whole flow four times."""
    return pytest.mark.parametrize(
        ("language", "viewport"),
        [(first, "desktop"), (second, "phone")],
        ids=[f"{first}-desktop-1280x900", f"{second}-phone-390x844"],
        indirect=["viewport"],
    )


# Where `login` signs in: LOGIN_PATH when the URLconf serves it (the app's own page, served by
# apps.accounts since it landed), otherwise the Django admin's form, which only accepts staff.
# To switch, edit LOGIN_PATH.
LOGIN_PATH = "/accounts/login/"
ADMIN_LOGIN_PATH = "/admin/login/"

BROWSER_DIR = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: runs in headless Chromium against the live server (tests/browser)"
    )


# A browser test that fails is run once more (pytest-rerunfailures), as Playwright's own test
# runner does in CI: a real browser under a loaded 2-core machine has timings no wait can bound.
# A test that fails twice fails the run; one that passes the second time shows as "R" and in the
# summary ("RERUN"), and each seen is a race to find (as the fold closed by the live preview was).
BROWSER_RERUNS = 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees the items of the whole session: mark only the ones in this folder.
    for item in items:
        if item.path.resolve().is_relative_to(BROWSER_DIR):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))


@pytest.fixture(scope="session")
def browser(django_db_setup) -> Iterator[Browser]:
    """Chromium, closed before the test database is dropped: a page's keep-alive connection holds
    a live-server thread, and that thread's database session, until the browser lets it go."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"The browser tests need Debian's Chromium at {CHROMIUM}: run "
            "`apt-get install chromium` (`playwright install` cannot download a browser here).",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()
    # The live server's request threads end once their connections are closed, each closing its
    # database session as it goes (daemon threads: nothing else waits for them).
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=30)


@pytest.fixture(scope="session")
def live_server(django_db_setup, live_server):
    """pytest-django's live server, started only once the test database exists.

    The server decides when it starts whether to share the test thread's in-memory SQLite
    connection with its request threads; started before the test database is set up (which
    happens when a test gets the server before its database fixtures), each request thread
    opens its own connection that is never closed (ResourceWarning, an error here).
    """
    return live_server


@pytest.fixture
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    """The window size: desktop unless the test is parametrized (see BOTH_VIEWPORTS).

    Accepts a name from VIEWPORTS or a {"width": …, "height": …} dict.
    """
    wanted = getattr(request, "param", "desktop")
    return dict(VIEWPORTS[wanted]) if isinstance(wanted, str) else dict(wanted)


@pytest.fixture
def real_catalogue(transactional_db) -> None:
    """The real catalogue in a transactional database.

    live_server makes a test transactional; the catalogue is among the suite's starting rows,
    which are put back after each such test (tests/starting_data.py).
    """
    cache.clear()  # throttle counts left by other tests


@pytest.fixture(autouse=True)
def _real_catalogue_with_live_server(request: pytest.FixtureRequest) -> None:
    """The real catalogue for each test that uses live_server (the page fixtures ask for it too)."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("real_catalogue")


# Counts HTMX's settled swaps in every page (see live_preview).
_COUNT_SETTLES = """document.addEventListener("htmx:afterSettle", () => {
    window.__settles = (window.__settles ?? 0) + 1;
});"""
_SETTLES = "window.__settles ?? 0"
_QUIET = "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


@contextlib.contextmanager
def live_preview(page: Page, path: str = "/preview/") -> Iterator[EventInfo[Response]]:
    """Wait for the next live preview's answer (a POST to an address holding `path`) and for
    HTMX to have swapped it in and settled, and for no other request to be under way.

    The answer alone is not enough: HTMX swaps it in a moment later, and a test that reads the
    page in that moment reads the figures about to be replaced (or opens a fold about to be
    swapped out), which passed on a quiet machine and failed in CI under load. Yields
    Playwright's EventInfo, whose .value is the response once the block is left."""
    settled_before = page.evaluate(_SETTLES)
    with page.expect_response(lambda r: path in r.url and r.request.method == "POST") as answer:
        yield answer  # answer.value: the response, once the block is left
    page.wait_for_function(f"(n) => ({_SETTLES}) > n && {_QUIET}", arg=settled_before)


def _new_context(browser: Browser, live_server, viewport: dict, **options) -> BrowserContext:
    context = browser.new_context(base_url=live_server.url, viewport=viewport, **options)
    if options.get("java_script_enabled", True):
        context.add_init_script(_COUNT_SETTLES)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    context.set_default_navigation_timeout(DEFAULT_TIMEOUT_MS)
    return context


@pytest.fixture
def page(browser: Browser, live_server, real_catalogue, viewport: dict) -> Iterator[Page]:
    """A page with JavaScript on, in a fresh context; page.goto("/path/") opens the live server."""
    context = _new_context(browser, live_server, viewport)
    yield context.new_page()
    context.close()


@pytest.fixture
def page_no_js(browser: Browser, live_server, real_catalogue, viewport: dict) -> Iterator[Page]:
    """A page with JavaScript off (java_script_enabled=False), in a fresh context."""
    context = _new_context(browser, live_server, viewport, java_script_enabled=False)
    yield context.new_page()
    context.close()


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def page_js_and_no_js(
    request: pytest.FixtureRequest, browser: Browser, live_server, real_catalogue, viewport: dict
) -> Iterator[Page]:
    """The test runs twice: with JavaScript on (like `page`) and off (like `page_no_js`)."""
    context = _new_context(browser, live_server, viewport, java_script_enabled=request.param)
    yield context.new_page()
    context.close()


@pytest.fixture
def new_page(
    browser: Browser, live_server, real_catalogue, viewport: dict
) -> Iterator[Callable[..., Page]]:
    """Open pages in fresh contexts with other options: new_page(reduced_motion="reduce").

    Takes BrowserContext options (viewport defaults to the `viewport` fixture's); every context
    opened is closed after the test.
    """
    contexts: list[BrowserContext] = []

    def open_page(**options) -> Page:
        contexts.append(
            _new_context(browser, live_server, options.pop("viewport", viewport), **options)
        )
        return contexts[-1].new_page()

    yield open_page
    for context in contexts:
        context.close()


def manager_with_scenario(
    username: str, password: str, *, title: str, name: str, inputs: dict
) -> Scenario:
    """A manager who signs in as `username`, with one project (of Section A) and its baseline
    scenario, stored with `inputs` as they are."""
    project = Project.objects.create(
        owner=make_manager(username, password), title=title, unit="Section A"
    )
    return project.scenarios.create(name=name, inputs=inputs, is_baseline=True)


@pytest.fixture
def ecb_manager(settings, real_catalogue):
    """Maria, a manager who signs in with OPTIONS_PASSWORD, the ECB's reference rates loaded."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    load_ecb()
    return make_manager("maria", OPTIONS_PASSWORD)


def baseline_scenario(owner, title: str, **project_fields) -> Scenario:
    """A project of `owner`'s titled `title` with `project_fields`, and its baseline "Pilot"."""
    project = Project.objects.create(owner=owner, title=title, **project_fields)
    return make_scenario(project, "Pilot", is_baseline=True)


def _served(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def login_path() -> str:
    """LOGIN_PATH if the app serves it, otherwise the admin's login page."""
    for path in (LOGIN_PATH, ADMIN_LOGIN_PATH):
        if _served(path):
            return path
    pytest.fail(f"No login page: neither {LOGIN_PATH} nor {ADMIN_LOGIN_PATH} is served.")


def login(page: Page, live_server, username: str, password: str, *, next_path: str = "/") -> None:
    """Sign in through the login form, as a person would, and land on next_path.

    Fails with the form's error message if the form refuses the credentials (the admin's form,
    the fallback when LOGIN_PATH is not served, refuses accounts that are not staff).
    """
    path = login_path()
    page.goto(f"{live_server.url}{path}?{urlencode({'next': next_path})}")
    form = page.locator("form", has=page.locator("input[name='password']"))
    form.locator("input[name='username']").fill(username)
    form.locator("input[name='password']").fill(password)
    with page.expect_navigation():
        form.locator("[type='submit']").click()
    session_cookies = [
        cookie
        for cookie in page.context.cookies(live_server.url)
        if cookie["name"] == settings.SESSION_COOKIE_NAME
    ]
    if not session_cookies:
        errors = page.locator(".errornote, .error-summary, .errorlist").all_inner_texts()
        message = " ".join(dict.fromkeys(" ".join(text.split()) for text in errors))
        pytest.fail(
            f"Login as {username!r} at {path} failed: {message or f'no session, at {page.url}'}",
            pytrace=False,
        )


@functools.cache
def _axe_source() -> str:
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page: Page) -> list[dict]:
    """Run axe-core on the page as it is now and return its WCAG 2.x A/AA violations."""
    if not AXE_JS.is_file():
        pytest.fail(f"axe-core is missing at {AXE_JS}: run `npm ci`.", pytrace=False)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Through DevTools, which the page's Content Security Policy does not govern: a script
        # tag (add_script_tag) would be an inline script without the page's nonce, and refused.
        page.evaluate(_axe_source())
    # resultTypes: axe works out a selector for every node of every result it reports; limited
    # to the violations, it builds one for a single node of each pass, incomplete and
    # inapplicable result, which are read nowhere here (the same violations, with less work).
    return page.evaluate(
        """async (tags) => {
            const results = await axe.run(document, {
                runOnly: {type: 'tag', values: tags},
                resultTypes: ['violations'],
            });
            return results.violations.map((violation) => ({
                id: violation.id,
                impact: violation.impact,
                help: violation.help,
                helpUrl: violation.helpUrl,
                nodes: violation.nodes.map((node) => ({
                    target: node.target.map((part) => [].concat(part).join(' >>> ')).join(' '),
                    summary: node.failureSummary || '',
                })),
            }));
        }""",
        AXE_TAGS,
    )


def format_axe_violations(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        nodes = violation["nodes"]
        lines.append(
            f"- {violation['id']} [{violation['impact']}]: {violation['help']} "
            f"({len(nodes)} element{'s' if len(nodes) != 1 else ''}; {violation['helpUrl']})"
        )
        for node in nodes[:AXE_NODES_SHOWN]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}" + (f" — {summary}" if summary else ""))
        if len(nodes) > AXE_NODES_SHOWN:
            lines.append(f"    … and {len(nodes) - AXE_NODES_SHOWN} more")
    return "\n".join(lines)


def assert_no_axe_violations(page: Page, context_label: str) -> None:
    """Fail with a readable list if axe finds WCAG 2.0/2.1/2.2 A or AA violations on the page."""
    violations = axe_violations(page)
    if violations:
        pytest.fail(
            f"axe found {len(violations)} WCAG 2.2 AA rule(s) violated on {context_label} "
            f"({page.url}):\n{format_axe_violations(violations)}",
            pytrace=False,
        )


def at_each_width(page: Page) -> Iterator[str]:
    """The page at each width of VIEWPORTS in turn, resized in place rather than loaded again:
    yields "1280x900" and "390x844", the page's own size last (so that it need not be put back
    after, which it is when the page had another size or the loop stopped early).

    The layout is CSS's (no script of the app reads the window's width), so a resized page is
    the page loaded at that width, for axe and for what fits: one page load, and one test's
    set-up, audit both widths where a test parametrized by BOTH_VIEWPORTS needed two."""
    own = page.viewport_size
    sizes = sorted(VIEWPORTS.values(), key=lambda size: size == own)  # False (other) first
    try:
        for size in sizes:
            if page.viewport_size != size:
                page.set_viewport_size(size)
                _settled(page)
            yield f"{size['width']}x{size['height']}"
    finally:
        if own and page.viewport_size != own:
            page.set_viewport_size(own)
            _settled(page)


# True once the document is no wider than the window (what a page loaded at this width shows).
_FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def _settled(page: Page) -> None:
    """Wait for a resized page to lay itself out again, as it would have loaded at this width.

    CSS lays the page out at once; Chart.js redraws its canvases from a ResizeObserver, which a
    headless page under load may run late or (seen on the scenario page) not at all before the
    test looks, leaving a 1280 px canvas in a 390 px window. So the charts are asked to fit their
    boxes now (what the observer would do), then two animation frames, then, for up to ten
    seconds (at once where it fits), the document no wider than the window; once more if it is
    not (seen once in CI under load). A page that still does not fit is reported by
    assert_fits_the_screen, with the elements that make it wider."""
    for _ in range(2):  # a chart resized before its box had its new width is resized again
        page.evaluate(_CHARTS_RESIZED)
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(_FITS, timeout=10_000)
            return


_CHARTS_RESIZED = """() => new Promise((done) => {
    for (const chart of Object.values(window.Chart?.instances ?? {})) chart.resize();
    requestAnimationFrame(() => requestAnimationFrame(done));
})"""


def assert_fits_the_screen(page: Page, context_label: str) -> None:
    """Fail if the page scrolls sideways at its present width."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, (
        f"{context_label} is {overflow} px wider than the screen ({page.url}); reaching past it: "
        + page.evaluate(_PAST_THE_EDGE)
    )


# The first elements whose right edge is past the window's and that make the page wider (not
# those a scrolling box, such as a wide table's region, keeps to itself), named as a selector
# would, with their width and right edge.
_PAST_THE_EDGE = """() => {
    const scrolled = (element) => {
        for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
            if (getComputedStyle(box).overflowX !== 'visible') return true;
        }
        return false;
    };
    return [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((element) => !scrolled(element))
        .slice(0, 5)
        .map((element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
            + (element.classList.length ? '.' + [...element.classList].join('.') : '')
            + ' ' + Math.round(element.getBoundingClientRect().width) + 'px wide to '
            + Math.round(element.getBoundingClientRect().right) + 'px')
        .join(', ') || '(no element: the page was still being laid out)';
}"""


def assert_no_axe_violations_at_each_width(
    page: Page, context_label: str, *, fits: bool = False
) -> None:
    """assert_no_axe_violations at 1280 and at 390 px (at_each_width); with fits=True the page
    must also fit the screen at both."""
    for size in at_each_width(page):
        assert_no_axe_violations(page, f"{context_label} at {size}")
        if fits:
            assert_fits_the_screen(page, f"{context_label} at {size}")


OPTIONS_PASSWORD = "a-long-test-password"
# The browser context's options for each language a test reads the pages in.
LANGUAGE_CONTEXTS = {
    "en": {},
    "fr": {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr"}},
}


@pytest.fixture
def translation_scenario(real_catalogue, settings) -> Scenario:
    """Maria's translation assistant, served by an external API over 2027–2028: the decision
    page's scenario, with the API price catalogue loaded."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()
    project = Project.objects.create(
        owner=make_manager("maria", OPTIONS_PASSWORD),
        title="Translation assistant",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )
    return project.scenarios.create(name="Wider use", inputs={"inference": TRANSLATION_INFERENCE})


def reveal(target: Locator) -> Locator:
    """Brings a scenario input into view as a user does: opens the folded "More assumptions" it
    is in, and switches on its section's ranges when it is a range. Returns `target`."""
    page = target.page
    element = target.first
    folded = page.locator("details.more-assumptions:not([open])").filter(has=element)
    if folded.count():
        folded.first.locator(":scope > summary").click()
    if element.count() and element.is_hidden():
        section = page.locator("fieldset.input-section").filter(has=element)
        toggle = section.locator(".ranges-toggle")
        if toggle.count() and not toggle.is_checked():
            toggle.check()
    return target
