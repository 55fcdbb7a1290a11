"""Run the app under uvicorn: check the address, bind, warm the kernels, say the URL, serve until Ctrl-C.

The kernels are compiled (or loaded from Numba's cache) before the server says it is ready, by one
small question of each kind the advisor answers: bid advice in round 1 (exact enumeration) and by
Monte Carlo, play advice by enumeration (the last tricks) and by Monte Carlo, each asked once with the
default model and once with search in it (the kernels' second build). So the first person's answer,
whichever built-in policies it names, takes as long as every later one, and no 503 is sent while a
worker compiles.

An empty ``--host`` is refused (the socket layer would read it as every interface); listening beyond
this machine (a wildcard or a network address) is said in one line at start. The requests accepted
are those for the hosts the server was started for (``app.AllowedHosts``); slow clients are cut and
connections capped by ``connections.DeadlineH11Protocol``.
"""

from __future__ import annotations

import ipaddress
import socket
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
FIRST_WARM_SECONDS = 120  # what to expect on a quiet 2-core machine
SEARCH_WARM = dict(policy="search", play="search")
# net compiles into a build of its own too (only a table that seats it carries its code): warmed as search.
NET_WARM = dict(policy="net")
WARM_QUESTIONS += tuple({**q, **extra, **({"samples": 4} if "samples" in q else {})}
                        for extra in (SEARCH_WARM, NET_WARM) for q in WARM_QUESTIONS)


def warm() -> float:
    """Answer one small question per kind; returns the seconds it took."""
    from wizsim.web.api import answer

    started = time.perf_counter()
    for question in WARM_QUESTIONS:
        answer(dict(question))
    return time.perf_counter() - started


def warm_kernels() -> tuple:
    """The kernels the warm questions run (for the first-run compile notice)."""
    from wizsim.advisor.play import play_kernels
    from wizsim.advisor.sampling import bid_kernels

    return (*bid_kernels(), *play_kernels())


def needs_first_compile() -> bool:
    """Whether warming compiles (an empty Numba cache here) rather than loads, for any of its builds."""
    from wizsim._numba import needs_compile

    return any(needs_compile(*warm_kernels(), ext=ext) for ext in (None, (True, None, None), (None, None, True)))


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
    say(f"wizsim serve: warming the kernels of every built-in policy for {url}"
        + (f" (a first run on this machine compiles them: about {FIRST_WARM_SECONDS} s)" if first else ""))
    seconds = warm()
    workers = answer_workers()
    app = create_app(workers=workers, hosts=(*LOCAL_HOSTS, host, address, *allowed), any_address=address in WILDCARDS)
    # no limit_concurrency: it counts open sockets, so slow ones locked everyone out (connections.py)
    config = uvicorn.Config(app, http=DeadlineH11Protocol, log_level="warning", timeout_keep_alive=5,
                            access_log=False)
    server = uvicorn.Server(config)
    say(f"wizsim serve: ready at {url} (warmed in {seconds:.1f} s; {workers} answer(s) at once; API docs at "
        f"{url}docs; Ctrl-C stops)")
    server.run(sockets=[sock])
