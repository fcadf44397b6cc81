"""The load benchmark's simulated users: what each kind does, and the load generator.

Each user is a thread with its own cookies or API token, one connection per request (as
tests/bench/http_bench.py sends them), pausing between steps as people do; all share one budget
of time and requests. Run by tests/bench/load_bench.py.
"""

import contextlib
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode

from tests.bench.http_bench import SEED_000, build_request, http_request

USERS = {"manager": 14, "front office": 6, "board": 6, "integrator": 6}  # 32 at once
REQUEST_TIMEOUT_SECONDS = 30.0
REQUESTS_FIELD = "inference_requests_per_month"
WARM_UP_ESTIMATES = 6  # two a gunicorn worker

# A cost line a manager adds now and then (issue 10's budget), one of these, named by the round.
COST_LINES = (
    {"kind": "staff", "unit": "FTE", "unit_price": "9000.00", "recurrence": "monthly"},
    {"kind": "licence", "unit": "seat", "unit_price": "1200.00", "recurrence": "yearly"},
    {"kind": "storage", "unit": "TB-month", "unit_price": "23.50", "recurrence": "monthly"},
)
COST_LINE_CATEGORY = {"staff": 1, "licence": 7, "storage": 7}
ADD_COST_LINE_SHARE = 0.3  # of a manager's rounds


class Stop(Exception):
    """The run's time or request budget is spent: the simulated user stops."""


@dataclass
class Budget:
    deadline: float
    remaining: int
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> None:
        with self.lock:
            if self.remaining <= 0 or time.monotonic() >= self.deadline:
                raise Stop
            self.remaining -= 1


@dataclass
class Sample:
    label: str
    kind: str  # "page" or "api"
    status: int | None  # None: no answer (refused, reset, timed out)
    seconds: float
    expected: bool  # a status the step expects, 409 and 412 included


@dataclass
class User:
    """One simulated user: its cookies or token, and what it was answered."""

    port: int
    budget: Budget
    address: str = "127.0.0.1"  # a loopback address of its own, as people have their own
    cookie: str = ""
    token: str = ""
    samples: list[Sample] = field(default_factory=list)
    # ("scenario" | "project" | "cost line", id) -> writes answered 2xx
    writes: Counter = field(default_factory=Counter)
    unanswered_writes: int = 0  # no answer: saved or not, the count after the run says

    @property
    def csrf(self) -> str:
        return dict(p.split("=", 1) for p in self.cookie.split("; ")).get("csrftoken", "")

    def send(
        self,
        label: str,
        kind: str,
        method: str,
        path: str,
        *,
        body: bytes = b"",
        content_type: str = "application/json",
        headers: tuple[str, ...] = (),
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, dict, bytes] | None:
        self.budget.take()
        if self.token:
            headers = (*headers, f"Authorization: Bearer {self.token}")
        request = build_request(
            method,
            path,
            self.port,
            body,
            "" if self.token else self.cookie,
            content_type=content_type,
            extra_headers=headers,
        )
        started = time.perf_counter()
        try:
            answer = http_request(
                self.port, request, timeout=REQUEST_TIMEOUT_SECONDS, source=self.address
            )
        except (OSError, ValueError):
            answer = None
        seconds = time.perf_counter() - started
        status = answer[0] if answer else None
        self.samples.append(Sample(label, kind, status, seconds, status in expect))
        return answer

    def count_write(self, answer: tuple[int, dict, bytes] | None, saved: int, key: tuple) -> None:
        """Count a write answered `saved` (2xx), or one that got no answer, whose fate is open."""
        if answer is None:
            self.unanswered_writes += 1
        elif answer[0] == saved:
            self.writes[key] += 1

    def post_form(self, label: str, path: str, fields: dict[str, str], **options):
        return self.send(
            label,
            "page",
            "POST",
            path,
            body=urlencode(fields).encode(),
            content_type="application/x-www-form-urlencoded",
            **options,
        )


class FormFields(HTMLParser):
    """The fields of the scenario form as a browser would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._in_form = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._in_form = a.get("id") == "scenario-form"
        if not self._in_form or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            if a.get("type") not in {"checkbox", "radio"} or "checked" in a:
                self.fields[name] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select" and name:
            self._select = name
        elif (
            tag == "option"
            and self._select
            and ("selected" in a or self._select not in self.fields)
        ):
            self.fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None


def form_fields(html: bytes) -> dict[str, str]:
    parser = FormFields()
    parser.feed(html.decode("utf-8", "replace"))
    return parser.fields


def think(rng: random.Random, low: float, high: float, budget: Budget) -> None:
    pause = rng.uniform(low, high)
    if time.monotonic() + pause >= budget.deadline:
        raise Stop
    time.sleep(pause)


def _save_with_the_page(user: User, target: dict, fields: dict) -> None:
    sid = target["scenario"]
    answer = user.post_form("save (page form)", f"/scenarios/{sid}/", fields, expect=(302, 409))
    user.count_write(answer, 302, ("scenario", sid))


def _save_with_if_match(user: User, rng: random.Random, target: dict) -> None:
    path = f"/api/v1/projects/{target['project']}/scenarios/{target['scenario']}/"
    answer = user.send("read scenario (API)", "api", "GET", path)
    if not answer or answer[0] != 200:
        return
    _, headers, body = answer
    inputs = json.loads(body)["inputs"]
    inputs["inference"]["requests_per_month"] = rng.randint(1_000, 900_000)
    answer = user.send(
        "save with If-Match (API)",
        "api",
        "PATCH",
        path,
        body=json.dumps({"inputs": inputs}).encode(),
        headers=(f"If-Match: {headers.get('etag', '')}",),
        expect=(200, 412),
    )
    user.count_write(answer, 200, ("scenario", target["scenario"]))


def _add_scenario(user: User, rng: random.Random, target: dict, number: int) -> None:
    inputs = {"training": SEED_000["training"], "inference": dict(SEED_000["inference"])}
    inputs["inference"]["requests_per_month"] = rng.randint(1_000, 900_000)
    answer = user.send(
        "add scenario (API)",
        "api",
        "POST",
        f"/api/v1/projects/{target['project']}/scenarios/",
        body=json.dumps({"name": f"Load {number}", "inputs": inputs}).encode(),
        expect=(201,),
    )
    user.count_write(answer, 201, ("project", target["project"]))


def add_cost_line(user: User, rng: random.Random, target: dict, number: int) -> None:
    """One line through the API; it saves a new version of the scenario as well, which the
    check after the run counts with the scenario's other saves."""
    line = rng.choice(COST_LINES)
    body = {
        **line,
        "name": f"Load line {number}",
        "quantity": rng.randint(1, 40),
        "start": "2026-01-01",
        "category": COST_LINE_CATEGORY[line["kind"]],
        "basis": "Load test.",
    }
    answer = user.send(
        "add cost line (API)",
        "api",
        "POST",
        f"/api/v1/scenarios/{target['scenario']}/cost-lines/",
        body=json.dumps(body).encode(),
        expect=(201,),
    )
    user.count_write(answer, 201, ("cost line", target["scenario"]))


def manager(page_user: User, api_user: User, rng: random.Random, target: dict) -> None:
    sid, round_number = target["scenario"], 0
    while True:
        round_number += 1
        page = page_user.send("scenario page", "page", "GET", f"/scenarios/{sid}/")
        if not page or page[0] != 200:
            think(rng, 1, 2, page_user.budget)
            continue
        fields = form_fields(page[2]) | {"csrfmiddlewaretoken": page_user.csrf}
        for _ in range(rng.randint(3, 6)):  # a pause in typing sends the form (HTMX)
            think(rng, 0.5, 1.0, page_user.budget)
            fields[REQUESTS_FIELD] = f"{rng.randint(1_000, 900_000):,}"
            page_user.post_form(
                "live preview (HTMX)",
                f"/scenarios/{sid}/preview/?view=many",
                fields,
                headers=("HX-Request: true", f"X-CSRFToken: {page_user.csrf}"),
            )
        think(rng, 0.5, 1.5, page_user.budget)
        if round_number % 2:
            _save_with_the_page(page_user, target, fields)
        else:
            _save_with_if_match(api_user, rng, target)
        if rng.random() < 0.2:
            _add_scenario(api_user, rng, target, round_number)
        if rng.random() < ADD_COST_LINE_SHARE:
            add_cost_line(api_user, rng, target, round_number)
        think(rng, 1, 2, page_user.budget)


def front_office(user: User, rng: random.Random, projects: list[int]) -> None:
    while True:
        user.send("review queue", "page", "GET", "/reviews/")
        think(rng, 0.5, 1.5, user.budget)
        user.send("review page", "page", "GET", f"/reviews/{rng.choice(projects)}/")
        think(rng, 1, 3, user.budget)


def board(user: User, rng: random.Random, tokens: list[str]) -> None:
    while True:
        view = "?view=single" if rng.random() < 0.3 else ""
        user.send("share link", "page", "GET", f"/s/{rng.choice(tokens)}/{view}")
        think(rng, 1, 3, user.budget)


def integrator(user: User, rng: random.Random) -> None:
    while True:
        body = {"training": SEED_000["training"], "inference": dict(SEED_000["inference"])}
        body["inference"]["requests_per_month"] = rng.randint(1_000, 10_000_000)
        user.send(
            "estimate (API)", "api", "POST", "/api/v1/estimate/", body=json.dumps(body).encode()
        )
        think(rng, 0.2, 0.6, user.budget)


def warm_up(port: int, seeded: dict) -> None:
    """Every page and the API once, not measured: each worker's first request loads code and the
    catalogue, and each page's first rendering fills the cache."""
    budget = Budget(deadline=time.monotonic() + 300, remaining=10_000)
    for target in seeded["edited"]:
        for editor in target["editors"]:
            User(port, budget, cookie=editor["cookies"][0]).send(
                "", "page", "GET", f"/scenarios/{target['scenario']}/"
            )
    reviewer = User(port, budget, cookie=seeded["reviewer_cookies"][0])
    for project in seeded["submitted"]:
        reviewer.send("", "page", "GET", f"/reviews/{project}/")
    for token in seeded["share_tokens"]:
        User(port, budget).send("", "page", "GET", f"/s/{token}/")
    integrator = User(port, budget, token=seeded["integrator_token"])
    for _ in range(WARM_UP_ESTIMATES):
        integrator.send("", "api", "POST", "/api/v1/estimate/", body=json.dumps(SEED_000).encode())


def simulate(
    port: int, seeded: dict, seed: int, limits: tuple[float, int]
) -> tuple[list[User], float]:
    """All users at once until the time or the request budget (`limits`) is spent."""
    seconds, max_requests = limits
    budget = Budget(deadline=time.monotonic() + seconds, remaining=max_requests)
    users: list[User] = []
    runs: list[Callable[[], None]] = []
    edited = seeded["edited"]
    addresses = (f"127.0.0.{10 + n}" for n in range(sum(USERS.values())))
    for n in range(USERS["manager"]):
        target = edited[n % len(edited)]
        editor = target["editors"][(n // len(edited)) % len(target["editors"])]
        address = next(addresses)
        cookie = editor["cookies"][n % len(editor["cookies"])]
        page_user = User(port, budget, address, cookie=cookie)
        api_user = User(port, budget, address, token=editor["token"])
        users += [page_user, api_user]
        rng = random.Random(seed * 1000 + n)
        runs.append(lambda p=page_user, a=api_user, r=rng, t=target: manager(p, a, r, t))
    cookies = seeded["reviewer_cookies"]
    for n in range(USERS["front office"]):
        user = User(port, budget, next(addresses), cookie=cookies[n % len(cookies)])
        users.append(user)
        rng = random.Random(seed * 1000 + 100 + n)
        runs.append(lambda u=user, r=rng: front_office(u, r, seeded["submitted"]))
    for n in range(USERS["board"]):
        user = User(port, budget, next(addresses))
        users.append(user)
        rng = random.Random(seed * 1000 + 200 + n)
        runs.append(lambda u=user, r=rng: board(u, r, seeded["share_tokens"]))
    for n in range(USERS["integrator"]):
        user = User(port, budget, next(addresses), token=seeded["integrator_token"])
        users.append(user)
        rng = random.Random(seed * 1000 + 300 + n)
        runs.append(lambda u=user, r=rng: integrator(u, r))

    def run(step: Callable[[], None]) -> None:
        with contextlib.suppress(Stop):
            step()

    threads = [threading.Thread(target=run, args=(step,), daemon=True) for step in runs]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 2 * REQUEST_TIMEOUT_SECONDS)
    return users, time.perf_counter() - started
