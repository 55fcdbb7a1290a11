"""The ASGI application: the page at ``/``, ``POST /api/advise``, ``GET /api/health``, docs at ``/docs``.

Bounds, so that one client cannot hold the machine: a request body of at most ``MAX_BODY_BYTES``
(413 otherwise), the work caps of ``api.check_bounds``, and at most ``workers`` answers computed at
once in worker threads (the kernels release the GIL, so the event loop keeps serving the page and
the health check meanwhile); a request that waits longer than ``QUEUE_WAIT_S`` for its turn gets 503.
Every error is ``{"detail": "one line"}``, never a stack trace. The page loads nothing but its own
files: the Content-Security-Policy forbids any other origin.
"""

from __future__ import annotations

import logging
from importlib.resources import files

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline  # /docs with Swagger's files shipped in a package, not from a CDN
from starlette.exceptions import HTTPException as StarletteHTTPException

from wizsim.web.api import MAX_BODY_BYTES, AdviseRequest, RequestError, answer, validation_message

QUEUE_WAIT_S = 30.0
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


def create_app(workers: int = 1) -> FastAPI:
    """The application; ``workers``: answers computed at once (more queue, up to ``QUEUE_WAIT_S``)."""
    from wizsim import __version__

    app = FastAPIOffline(title="wizsim", version=__version__, redoc_url=None,
                  description="The Wizard bid and play advisor of `wizsim advise`, over HTTP. A request takes the "
                              "CLI options' names as fields; the answer is the CLI's `--json` object (bid advice "
                              "adds `p_tricks`, the distribution of tricks for each bid). Bad input: HTTP 4xx "
                              "with `{\"detail\": \"one line naming the problem\"}`.")
    app.add_middleware(BoundedBody, limit=MAX_BODY_BYTES)
    limiter = anyio.CapacityLimiter(workers)
    app.state.limiter = limiter

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        status, message = validation_message(list(exc.errors()), exc.body)
        return JSONResponse({"detail": message}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

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
        return {"status": "ok", "version": __version__, "workers": int(limiter.total_tokens),
                "busy": int(limiter.borrowed_tokens)}

    @app.post("/api/advise", summary="Bid or play advice (the CLI's --json object)",
              responses={400: {"description": "The body is not a JSON object"},
                         413: {"description": "The body is too large"},
                         422: {"description": "A bad question: {\"detail\": \"one line\"}"},
                         503: {"description": "The server is busy; try again"}})
    async def advise(req: AdviseRequest):
        fields = req.model_dump(exclude_unset=True)
        try:
            with anyio.fail_after(QUEUE_WAIT_S):
                await limiter.acquire()
        except TimeoutError:
            return JSONResponse({"detail": f"the server is busy: no answer could start within {QUEUE_WAIT_S:g} s"},
                                status_code=503)
        try:
            result = await anyio.to_thread.run_sync(answer, fields)
        except RequestError as err:
            return JSONResponse({"detail": str(err)}, status_code=err.status)
        except ValueError as err:  # the library's one-line message for a bad question
            return JSONResponse({"detail": str(err)}, status_code=422)
        finally:
            limiter.release()
        return JSONResponse(result)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
