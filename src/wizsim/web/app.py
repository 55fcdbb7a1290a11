"""The ASGI application: the page at ``/``, ``POST /api/advise``, ``POST /api/review``,
``POST /api/record/check``, ``POST /api/play`` (the practice table, ``practice.py``), ``GET /api/health``, docs at ``/docs``.

For the people at this table only: a request whose ``Host`` header is not one the server was started
for (``LOCAL_HOSTS``, the address it listens on, the names given with ``--allow-host``; any address
written as a number when it listens on every interface) gets 400 before anything else runs, so a
page elsewhere whose name was rebound to this machine's address (DNS rebinding) reads nothing.

Bounds, so that one client cannot hold the machine: a request body of at most ``MAX_BODY_BYTES``
(413 otherwise), the work caps of ``api.check_bounds``, and ``AnswerQueue``: at most ``workers``
answers computed at once in worker threads (the kernels release the GIL, so the event loop keeps
serving the page and the health check meanwhile), first come first served, at most
``WAITING_PER_WORKER`` per worker waiting, each for at most ``QUEUE_WAIT_S``; beyond either bound a
request gets 503 with ``Retry-After`` at once rather than a place in an endless line. The health
check never queues. A review (a whole game: one advice per decision) holds a worker for one decision at
a time: between decisions it gives the worker to the questions waiting and queues again behind them
(``Turn.give_way``), so a long review never starves advice. Every error is ``{"detail": "one line"}``, never a stack trace. The page loads
nothing but its own files: the Content-Security-Policy forbids any other origin.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import re
import time
from importlib.resources import files
from typing import Annotated

import anyio
from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline  # /docs with Swagger's files shipped in a package, not from a CDN
from starlette.exceptions import HTTPException as StarletteHTTPException

from wizsim.web.api import (
    MAX_BODY_BYTES,
    REVIEW_EXAMPLE,
    AdviseRequest,
    RequestError,
    answer,
    check_record,
    review_answer,
    unparsed_body,
    validation_message,
)
from wizsim.web.practice import PLAY_BODY, PLAY_EXAMPLE, PLAY_RESPONSES, PLAY_SUMMARY, play_answer  # POST /api/play

QUEUE_WAIT_S = 15.0  # the longest a question waits for its turn
WAITING_PER_WORKER = 4  # questions waiting per worker, beyond which a new one is turned away at once
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::")
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*")
STATIC = files("wizsim.web") / "static"
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                 b"base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
# /docs (the framework's Swagger page, its files shipped by fastapi-offline) runs an inline script.
_OWN_POLICY_PATHS = ("/docs", "/static-offline-docs")

log = logging.getLogger("wizsim.web")
BODY_KEY = "wizsim.body"


def host_name(text: str) -> str | None:
    """A host as the allow-list compares it (lower case, no brackets, no trailing dot), or None when
    ``text`` is neither a name nor an address."""
    name = text.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    name = name.removesuffix(".")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name if _NAME.fullmatch(name) and len(name) <= 253 else None


def header_host(value: bytes) -> str | None:
    """The host of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), or None when malformed."""
    text = value.decode("latin-1")
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1:] and not re.fullmatch(r":\d{1,5}", text[end + 1:])):
            return None
        return host_name(text[: end + 1])
    name, colon, port = text.partition(":")
    if colon and not re.fullmatch(r"\d{1,5}", port):
        return None
    return host_name(name)


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class AllowedHosts:
    """ASGI middleware: answers 400 to a request whose ``Host`` header names a host not in ``hosts``
    (with ``any_address``, any address written as a number is also accepted: a page can rebind a
    name to this machine, not a number)."""

    def __init__(self, app, hosts=LOCAL_HOSTS, any_address: bool = False):
        self.app, self.any_address = app, any_address
        self.hosts = tuple(dict.fromkeys(h for h in map(host_name, hosts) if h))

    def allows(self, host: str | None) -> bool:
        if host is None:
            return False
        if host in self.hosts:
            return True
        if self.any_address:
            with contextlib.suppress(ValueError):
                ipaddress.ip_address(host)
                return True
        return False

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        value = dict(scope.get("headers", ())).get(b"host")
        host = header_host(value) if value is not None else None
        if self.allows(host):
            return await self.app(scope, receive, send)
        if value is None:
            detail = "the request has no Host header"
        else:
            detail = f"this server does not answer for the host {_clip(value.decode('latin-1'))}"
        served = ", ".join(map(_shown, self.hosts)) + (", any address as a number" if self.any_address else "")
        detail += f" (it answers {served}; wizsim serve --allow-host NAME adds a name)"
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        await JSONResponse({"detail": detail}, status_code=400)(scope, receive, send)


def _clip(text: str, most: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= most else shown[: most - 4] + "...'"


class Busy(Exception):
    """No turn for this question now: ``retry_after`` seconds is when one is likely."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(f"{message}; try again in {retry_after} s")
        self.retry_after = retry_after


class AnswerQueue:
    """Turns for computing answers: at most ``workers`` at once, first come first served; at most
    ``max_waiting`` questions wait, each at most ``wait_s``. A question beyond that, or one whose wait
    runs out, raises ``Busy`` with a retry time from the recent answers' mean time and the line
    ahead, so an overload turns people away for a moment rather than keeping everyone waiting."""

    def __init__(self, workers: int, max_waiting: int, wait_s: float):
        self.limiter = anyio.CapacityLimiter(workers)
        self.workers, self.max_waiting, self.wait_s = workers, max_waiting, wait_s
        self.waiting = 0
        self.mean_s = 0.5  # recent seconds per answer (a running mean)

    @property
    def busy(self) -> int:
        return int(self.limiter.borrowed_tokens)

    def retry_after(self) -> int:
        ahead = self.waiting + 1
        return max(1, min(math.ceil(self.wait_s), math.ceil(self.mean_s * ahead / self.workers)))

    def _timed(self, started: float) -> None:
        self.mean_s += 0.2 * (time.perf_counter() - started - self.mean_s)

    @contextlib.asynccontextmanager
    async def turn(self):
        """A turn to compute; yields a ``Turn`` whose ``give_way()`` lets the questions waiting go first."""
        if self.limiter.available_tokens < 1 and self.waiting >= self.max_waiting:
            raise Busy(f"the server is busy: the line of questions is full ({self.waiting} waiting)", self.retry_after())
        turn = Turn(self)
        self.waiting += 1
        try:
            with anyio.fail_after(self.wait_s):
                await self.limiter.acquire_on_behalf_of(turn)
        except TimeoutError:
            raise Busy(f"the server is busy: no answer could start within {self.wait_s:g} s",
                       self.retry_after()) from None
        finally:
            self.waiting -= 1
        turn.started = time.perf_counter()
        try:
            yield turn
        finally:
            self.limiter.release_on_behalf_of(turn)
            self._timed(turn.started)


class Turn:
    """One question's turn of ``AnswerQueue``. A long answer made of many short steps (a whole game's
    review: one advice per decision) calls ``give_way()`` between steps: when questions wait, it hands its
    worker to them and queues again behind them (without a time limit: it holds its place in the work),
    so that a review holds a worker for one decision at a time, never for the whole game."""

    def __init__(self, queue: AnswerQueue):
        self.queue = queue
        self.started = time.perf_counter()

    async def give_way(self) -> None:
        queue = self.queue
        if queue.waiting < 1:
            return
        queue.limiter.release_on_behalf_of(self)
        queue._timed(self.started)  # the retry estimate counts this slice as one answer
        queue.waiting += 1
        try:
            await queue.limiter.acquire_on_behalf_of(self)
        finally:
            queue.waiting -= 1
        self.started = time.perf_counter()


class BoundedBody:
    """ASGI middleware: reads at most ``limit`` body bytes (413 beyond, before the app sees any) and
    adds the security headers to every response."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._too_large(send)
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await self._too_large(send)
        scope[BODY_KEY] = body  # for the message of a body the framework cannot parse (``api.unparsed_body``)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        path = scope.get("path", "")

        async def with_headers(message):
            if message["type"] == "http.response.start" and not path.startswith(_OWN_POLICY_PATHS):
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, replay, with_headers)

    async def _too_large(self, send):
        response = JSONResponse({"detail": f"the request body is larger than {self.limit:,} bytes"}, status_code=413)
        await response({"type": "http"}, None, send)


def create_app(workers: int = 1, hosts=LOCAL_HOSTS, any_address: bool = False, warming=None) -> FastAPI:
    """The application; ``workers``: answers computed at once (``AnswerQueue``); ``hosts``: the names
    and addresses a request's ``Host`` may give, ``any_address``: also any numeric address; ``warming``: the
    server's ``server.Warming`` (None: the kernels are warm, or compile as the questions come)."""
    from wizsim._version import __version__

    app = FastAPIOffline(title="wizsim", version=__version__, redoc_url=None,
                  description="The Wizard bid and play advisor of `wizsim advise`, over HTTP. A request takes the "
                              "CLI options' names as fields; the answer is the CLI's `--json` object (bid advice "
                              "adds `p_tricks`, the distribution of tricks for each bid). `POST /api/review` takes a game "
                              "record (plus `samples`, `seed`, `policy`, `play`, `round`) and answers the `--json` "
                              "object of `wizsim review`. `POST /api/record/check` checks a game record (the page's score sheet "
                              "imports and exports through it). Bad input: HTTP 4xx "
                              "with `{\"detail\": \"one line naming the problem\"}`.")
    app.add_middleware(BoundedBody, limit=MAX_BODY_BYTES)
    app.add_middleware(AllowedHosts, hosts=hosts, any_address=any_address)  # added last: runs first
    queue = AnswerQueue(workers, WAITING_PER_WORKER * workers, QUEUE_WAIT_S)
    app.state.queue = queue

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        status, message = validation_message(list(exc.errors()), exc.body)
        return JSONResponse({"detail": message}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        detail = str(exc.detail)
        if exc.status_code == 400 and request.scope.get(BODY_KEY):  # the framework could not parse the body
            detail = unparsed_body(request.scope[BODY_KEY]) or detail
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        log.exception("unexpected failure answering %s", request.url.path)
        return JSONResponse({"detail": f"internal error ({type(exc).__name__}); the server log has the details"},
                            status_code=500)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page():
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    @app.get("/api/health", summary="Is the server up")
    async def health():
        return {"status": "ok", "version": __version__, "workers": queue.workers, "busy": queue.busy,
                "waiting": queue.waiting, "warm": warming is None or warming.done["all"].is_set()}

    @app.post("/api/advise", summary="Bid or play advice (the CLI's --json object)",
              responses={400: {"description": "The body is not a JSON object"},
                         413: {"description": "The body is too large"},
                         422: {"description": "A bad question: {\"detail\": \"one line\"}"},
                         503: {"description": "The server is busy: try again after Retry-After seconds"}})
    async def advise(req: AdviseRequest):
        return await _answered(answer, req.model_dump(exclude_unset=True), kind="advise")

    @app.post("/api/review", summary="Review a game record (the --json object of wizsim review)",
              responses={400: {"description": "The body is not a JSON object"},
                         413: {"description": "The body is too large"},
                         422: {"description": "A bad record: {\"detail\": \"one line naming the entry\"}"},
                         503: {"description": "The server is busy: try again after Retry-After seconds"}})
    async def review(body: Annotated[dict, Body(description="A game record (docs/game-record.md) with, optionally, "
                                                            "samples, seed, policy, play, round and learn",
                                                examples=[REVIEW_EXAMPLE])]):
        return await _answered(review_answer, body, steps=True, kind="review")

    @app.post("/api/record/check", summary="Check a game record (the score sheet's import and export)",
              responses={400: {"description": "The body is not a JSON object"},
                         413: {"description": "The body is too large"},
                         422: {"description": "A bad record: {\"detail\": \"one line naming the entry\"}"}})
    async def record_check(body: Annotated[dict, Body(description="A game record (docs/game-record.md)",
                                                      examples=[{k: v for k, v in REVIEW_EXAMPLE.items()
                                                                 if k not in ("samples", "seed")}])]):
        try:
            return JSONResponse(check_record(body))  # light: no queue, no worker thread
        except ValueError as err:
            return JSONResponse({"detail": str(err)}, status_code=422)

    @app.post("/api/play", summary=PLAY_SUMMARY, responses=PLAY_RESPONSES)
    async def play(body: Annotated[dict, Body(description=PLAY_BODY, examples=[PLAY_EXAMPLE])]):
        return await _answered(play_answer, body, kind="play")

    async def _answered(call, fields, steps: bool = False, kind: str = "advise"):
        """``call(fields)`` in a worker thread when the queue gives a turn; errors as one-line 4xx/503. With
        ``steps``, ``call(fields, progress)`` calls ``progress`` between its steps, which gives the worker to
        the questions waiting (``Turn.give_way``). While the server warms, a question first waits, outside the
        line, for the kernels it needs (``server.Warming``)."""
        if warming is not None:
            ready = warming.needed(kind, fields if isinstance(fields, dict) else {})
            while not ready.is_set():
                await anyio.sleep(0.05)
        try:
            async with queue.turn() as turn:
                if steps:
                    def between(*_):
                        anyio.from_thread.run(turn.give_way)

                    result = await anyio.to_thread.run_sync(call, fields, between)
                else:
                    result = await anyio.to_thread.run_sync(call, fields)
        except Busy as busy:
            return JSONResponse({"detail": str(busy)}, status_code=503,
                                headers={"retry-after": str(busy.retry_after)})
        except RequestError as err:
            return JSONResponse({"detail": str(err)}, status_code=err.status)
        except ValueError as err:  # the library's one-line message for a bad question or record
            return JSONResponse({"detail": str(err)}, status_code=422)
        return JSONResponse(result)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
