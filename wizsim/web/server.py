"""Run the app under uvicorn: warm the kernels, bind, say the URL, serve until Ctrl-C.

The kernels are compiled (or loaded from Numba's cache) before the server says it is ready, by one
small question of each kind the advisor answers: round 1 (exact enumeration) and a Monte Carlo one.
So the first person's answer takes as long as every later one.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

WARM_QUESTIONS = (
    dict(hand="AS", trump="S", seat=1, seed=0),  # round 1: the exact path
    dict(hand="W,AS,3H", trump="S", seat=2, bids="1", samples=64, seed=0),  # Monte Carlo, conditioned
)


def warm() -> float:
    """Answer one small question per kind; returns the seconds it took."""
    from wizsim.web.api import answer

    started = time.perf_counter()
    for question in WARM_QUESTIONS:
        answer(dict(question))
    return time.perf_counter() - started


def answer_workers() -> int:
    """Answers computed at once. Numba's ``workqueue`` threading layer must not be entered from two
    threads at once; the others (omp, tbb) may, up to one answer per core."""
    import os

    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        return 1
    return 1 if layer == "workqueue" else max(1, min(4, os.cpu_count() or 1))


class ServeError(ValueError):
    """The server cannot start as asked (the address is taken or not this machine's)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (``port`` 0: a free one, the port the URL then names)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except (OSError, OverflowError) as err:
        sock.close()
        reason = getattr(err, "strerror", None) or str(err)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(host: str, port: int, say: Callable[[str], None] = print) -> None:
    """Bind ``host:port`` (``ServeError`` when it cannot), warm up, and serve until interrupted."""
    import uvicorn

    from wizsim._jit import needs_compile
    from wizsim.sim.candidates import candidate_rounds_kernel, choice_frequencies
    from wizsim.web.app import create_app

    sock = bind(host, port)
    url = url_of(sock)
    first = needs_compile(candidate_rounds_kernel, choice_frequencies)
    say(f"wizsim serve: warming the kernels for {url}"
        + (" (a first run on this machine compiles them: 10-30 s)" if first else ""))
    seconds = warm()
    workers = answer_workers()
    app = create_app(workers=workers)
    config = uvicorn.Config(app, log_level="warning", limit_concurrency=64, timeout_keep_alive=5,
                            access_log=False)
    server = uvicorn.Server(config)
    say(f"wizsim serve: ready at {url} (warmed in {seconds:.1f} s; {workers} answer(s) at once; API docs at "
        f"{url}docs; Ctrl-C stops)")
    server.run(sockets=[sock])
