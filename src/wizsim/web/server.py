"""Run the app under uvicorn: check the address, bind, say the URL, warm the kernels, serve until Ctrl-C.

The kernels are compiled (or loaded from Numba's cache) by one small question of each kind the advisor
answers: bid advice in round 1 (exact enumeration) and by Monte Carlo, play advice by enumeration (the
last tricks) and by Monte Carlo, each asked once with the default model and once with search (and net)
in it (the kernels' other builds). The server is ready at once and warms in a thread beside it, in that
order (``Warming``): a question waits, outside the line of answers, until the kernels it needs are warm,
so no worker compiles and no 503 is sent because one did; on a first run the page and a default bid
answer come within seconds while search's kernels are still compiling.

An empty ``--host`` is refused (the socket layer would read it as every interface); listening beyond
this machine (a wildcard or a network address) is said in one line at start. The requests accepted
are those for the hosts the server was started for (``app.AllowedHosts``); slow clients are cut and
connections capped by ``connections.DeadlineH11Protocol``.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Iterable

WARM_QUESTIONS = (
    dict(hand="AS", trump="S", seat=1, seed=0),  # bid, round 1: the exact path
    dict(hand="W,AS,3H", trump="S", seat=2, bids="1", samples=64, seed=0),  # bid, Monte Carlo, conditioned
    dict(hand="AS,KH", trump="S", seat=2, bids="1,0,1,0", played="5H", samples=64, seed=0),  # play, Monte Carlo
    # play, the last tricks of round 15 at 4 players: few deals left, enumerated
    dict(hand="JS,9H,8C", trump="none", seat=1, bids="3,4,4,3", seed=0,
         played="W,TH,QS,3S/7D,J,6D,9D/5D,8D,AD,QD/JC,3C,AC,5C/2C,QC,J,KH/JD,3D,TD,KC/KS,4S,8S,5S/6C,J,2S,J/"
                "W,7H,2H,4C/KD,4D,W,4H/9S,W,TS,6S/JH,AH,8H,QH"),
)
# The kernels compile once without the search policy's code and once with it (``dispatch.kernel_ext``):
# the same questions with search in the model warm the second build, so that a first request naming
# search does not compile inside a worker (87.6 s measured) while the line behind it is told "1 s".
# random needs nothing of its own (it shares the first build). Few samples: the compile is the point.
# A first warm-up on an empty Numba cache compiles both builds: measured 390.7 s on 2 cores shared with a
# load of 15 (the search build 283 s of it; 87.6 s for it alone on a quiet machine, issue 32), 19.0 s when
# loading them from the cache (2026-12-05). The ready line says how long it took.
SEARCH_WARM = dict(policy="search", play="search")
# net compiles into a build of its own too (only a table that seats it carries its code): warmed as search.
NET_WARM = dict(policy="net")
WARM_QUESTIONS += tuple({**q, **extra, **({"samples": 4} if "samples" in q else {})}
                        for extra in (SEARCH_WARM, NET_WARM) for q in WARM_QUESTIONS)


def warm() -> float:
    """Answer one small question per kind; returns the seconds it took."""
    return Warming().run()


class Warming:
    """The warm questions in three phases, each an event a request waits for (``web.app``): ``bid`` (bid
    and trump advice on the default model), ``play`` (play advice on it), ``all`` (search's and net's
    builds: the practice table, reviews, and any question naming them)."""

    PHASES = ("bid", "play", "all")

    def __init__(self):
        self.done = {phase: threading.Event() for phase in self.PHASES}
        self.seconds: float | None = None

    @staticmethod
    def phase_of(question: dict) -> str:
        if any(k in question for k in ("policy", "play")):
            return "all"
        return "play" if "played" in question else "bid"

    def run(self) -> float:
        from wizsim.web.api import answer

        started = time.perf_counter()
        try:
            for phase in self.PHASES:
                for question in WARM_QUESTIONS:
                    if self.phase_of(question) == phase:
                        answer(dict(question))
                self.done[phase].set()
        finally:  # a failure here is the first request's to meet and report, not a reason to hold every request
            for event in self.done.values():
                event.set()
        self.seconds = time.perf_counter() - started
        return self.seconds

    def needed(self, kind: str, fields: dict) -> threading.Event:
        """The event a request of ``kind`` (``advise``, ``review``, ``play``) with ``fields`` waits for."""
        if kind != "advise":
            return self.done["all"]
        names = " ".join(str(fields.get(k) or "") for k in ("policy", "play"))
        if "search" in names or "net" in names or ".py" in names or ":" in names:
            return self.done["all"]
        return self.done["play" if fields.get("played") else "bid"]


def warm_kernels() -> tuple:
    """The kernels the warm questions run (for the first-run compile notice)."""
    from wizsim.advisor.play import play_kernels
    from wizsim.advisor.sampling import bid_kernels

    return (*bid_kernels(), *play_kernels())


def _seconds(kind: str) -> str:
    from wizsim._notice import compile_seconds_measured

    seconds = compile_seconds_measured(kind)
    return "?" if seconds is None else f"{seconds:.0f}"


def needs_first_compile() -> bool:
    """Whether warming compiles (an empty Numba cache here) rather than loads, for any of its builds."""
    from wizsim._numba import needs_compile

    return any(needs_compile(*warm_kernels(), ext=ext) for ext in (None, (True, None, None), (None, None, True)))


def answer_workers() -> int:
    """Answers computed at once: one per core, up to 4. (No kernel is parallel: the advice kernels run spans of
    rows from threads, ``sim.driver.run_batch``, so Numba's threading layer, which its ``workqueue`` form
    would not let two answers enter at once, is never used.)"""
    import os

    return max(1, min(4, os.cpu_count() or 1))


class ServeError(ValueError):
    """The server cannot start as asked (the address is empty, taken or not this machine's)."""


def check_host(host: str) -> str:
    """The address to listen on; an empty one is refused (the socket layer reads it as every interface)."""
    if not host.strip():
        raise ServeError("--host is empty: give the address to listen on, 127.0.0.1 for this machine only "
                         "(the default) or 0.0.0.0 for every interface")
    return host.strip()


def check_allowed(names: Iterable[str]) -> tuple[str, ...]:
    """The ``--allow-host`` names, each a host name or an address (no scheme, port or path)."""
    from wizsim.web.app import host_name

    out = []
    for name in names:
        host = host_name(name)
        if host is None:
            raise ServeError(f"--allow-host {name!r} is not a host name or address: give one like table.local "
                             "or 192.168.1.20 (no http://, port or path)")
        out.append(host)
    return tuple(out)


def reach(address: str) -> str | None:
    """One line saying who can reach a server listening on ``address`` (None: this machine only)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if ip.is_loopback:
        return None
    if ip.is_unspecified:
        return (f"wizsim serve: listening on every interface ({address}): other machines on your network can use "
                "this page (there is no login; only on a network you trust)")
    return (f"wizsim serve: listening on {address}: other machines on that network can use this page (there is no "
            "login; only on a network you trust)")


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


def serve(host: str, port: int, say: Callable[[str], None] = print, allow_hosts: Iterable[str] = ()) -> None:
    """Bind ``host:port`` (``ServeError`` when it cannot), warm up, and serve until interrupted; requests
    are answered for the local names, ``host`` and ``allow_hosts`` (``app.AllowedHosts``)."""
    import uvicorn

    from wizsim.web.app import LOCAL_HOSTS, WILDCARDS, create_app
    from wizsim.web.connections import DeadlineH11Protocol

    host = check_host(host)
    allowed = check_allowed(allow_hosts)
    sock = bind(host, port)
    url = url_of(sock)
    address = sock.getsockname()[0]
    note = reach(address)
    if note:
        say(note)
    first = needs_first_compile()
    warming = Warming()
    workers = answer_workers()
    app = create_app(workers=workers, hosts=(*LOCAL_HOSTS, host, address, *allowed), any_address=address in WILDCARDS,
                     warming=warming)
    # no limit_concurrency: it counts open sockets, so slow ones locked everyone out (connections.py)
    config = uvicorn.Config(app, http=DeadlineH11Protocol, log_level="warning", timeout_keep_alive=5,
                            access_log=False)
    server = uvicorn.Server(config)

    def warm_beside():
        try:
            seconds = warming.run()
        except Exception as err:  # noqa: BLE001 - said in one line; each request then meets it in its own words
            say(f"wizsim serve: warming the kernels failed ({type(err).__name__}: {err}); questions compile as they come")
            return
        say(f"wizsim serve: every kernel warm ({seconds:.1f} s)")

    # a daemon: Ctrl-C during a first compile stops the server at once (the cache keeps what was finished)
    threading.Thread(target=warm_beside, name="wizsim-warm", daemon=True).start()
    say(f"wizsim serve: ready at {url} ({workers} answer(s) at once; API docs at {url}docs; Ctrl-C stops); "
        + (f"compiling the advisor's kernels beside it, a first run on this machine: bid advice within about "
           f"{_seconds('bid advice')} s, every kind within about {_seconds('serve warm-up')} s "
           "(a question waits for the kernels it needs)" if first else "loading the advisor's kernels beside it"))
    server.run(sockets=[sock])
