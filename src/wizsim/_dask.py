"""The Dask client every ``--engine dask`` run opens (datasets, tournaments); Dask is imported only here
and only when used (``pip install 'wizsim[dask]'``).

``scheduler`` is an existing cluster's address (workers anywhere, with wizsim installed); otherwise a
``LocalCluster`` of ``workers`` workers (default 1), one thread each, on this machine. Every refusal is
``error`` (the caller's ``ValueError`` kind) with one line naming the option, so the CLI exits 2.
"""

from __future__ import annotations

import logging

from wizsim.cards import shorten

CONNECT_TIMEOUT = "10s"  # how long to try an unreachable scheduler before saying so
# How long a scheduler has to answer once connected: the connect timeout above covers the TCP connection
# only, and a port that accepts and never speaks (a wrong service, a hung scheduler) would hold the client
# for ever. Dask schedulers answer in milliseconds.
HANDSHAKE_SECONDS = 10.0
# The scheduler addresses wizsim opens: tcp:// (or a bare host:port, which Dask reads as tcp). Dask's
# other transports need a setup wizsim does not make: tls:// a security object of certificates, ucx://
# the ucx-py package and its hardware, ws:// and wss:// a scheduler started for them. A cluster behind
# them is reached from Python with a Client of your own.
SCHEMES = ("tcp", "inproc")  # inproc: a cluster of threads in this very process (Python only)


def check_engine_options(engine, scheduler, workers, engines, error) -> None:
    """The engine options' own rules: a known engine, --scheduler/--workers only with dask, not both,
    workers 1 or more."""
    if not isinstance(engine, str) or engine not in engines:
        raise error(f"unknown engine {engine!r}: choose from {', '.join(engines)}")
    if engine != "dask" and (scheduler is not None or workers is not None):
        raise error("--scheduler and --workers need --engine dask")
    if scheduler is not None and workers is not None:
        raise error("give --scheduler ADDRESS (an existing cluster) or --workers N (a local one), not both")
    if scheduler is not None:
        check_address(scheduler, error)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise error(f"--workers must be 1 or more, got {workers!r}")


def check_address(scheduler, error) -> None:
    """A scheduler address wizsim can open (``SCHEMES``), else ``error`` naming --scheduler."""
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise error(f"--scheduler must be a scheduler address like tcp://host:8786, got {scheduler!r}")
    scheme, sep, _ = scheduler.strip().partition("://")
    if sep and scheme.lower() not in SCHEMES:
        raise error(f"--scheduler: {scheme}:// addresses are not supported, only tcp:// (like tcp://host:8786; "
                    f"tls, ucx and ws need a security or transport setup that wizsim does not make), got "
                    f"{shorten(scheduler.strip(), 60)!r}")


def open_client(scheduler, workers, processes: bool, error):
    """``(client, cluster)``: a client of the scheduler at ``scheduler`` (cluster None), or of a new
    local cluster of ``workers`` workers (the caller closes both)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise error("--engine dask needs Dask: pip install 'wizsim[dask]'") from None
    if scheduler is not None:
        check_address(scheduler, error)
        try:
            if not scheduler.strip().lower().startswith("inproc://"):  # in this process: nothing can be silent
                check_scheduler_speaks(scheduler, HANDSHAKE_SECONDS)
            return Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except (OSError, TimeoutError, ValueError) as err:
            raise error(f"cannot reach the Dask scheduler at {scheduler} (--scheduler): {err}") from None
    n = 1 if workers is None else workers
    if n < 1:
        raise error(f"--workers must be 1 or more, got {n}")
    # silence_logs: a task's error reaches the caller as one line; the workers' own ERROR logs of it ("Compute
    # Failed" and a traceback), and their complaints when the client goes away on Ctrl-C or SIGTERM, would
    # only repeat it or clutter the terminal they share with this process
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=processes, dashboard_address=":0",
                           silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def cluster_workers(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def check_scheduler_speaks(address: str, seconds: float) -> None:
    """Connect to the scheduler at ``address`` (within ``CONNECT_TIMEOUT``) and ask who it is (within
    ``seconds``): ``TimeoutError`` when it does not answer (Dask's own client would wait for ever on a port
    that accepts and stays silent), ``OSError`` when it cannot be reached, ``ValueError`` when what
    answers is not a Dask scheduler. Run in a thread of its own, so that a caller inside an event loop (a
    notebook) can ask too."""
    import asyncio
    import threading

    from dask.utils import parse_timedelta
    from distributed.comm import connect

    connecting = parse_timedelta(CONNECT_TIMEOUT)

    async def ask():
        comm = await asyncio.wait_for(connect(address, timeout=connecting), connecting + seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await asyncio.wait_for(comm.read(), seconds)
        finally:
            comm.abort()

    box = {}

    def run():
        try:
            box["reply"] = asyncio.run(ask())
        except BaseException as err:  # handed to the caller below
            box["error"] = err

    worker = threading.Thread(target=run, name="wizsim-dask-handshake", daemon=True)
    worker.start()
    worker.join(connecting + 2 * seconds + 5)  # the waits above end it sooner; a margin for the loop to close
    err = box.get("error")
    if worker.is_alive() or isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        raise TimeoutError(f"connected, but no answer to Dask's handshake within {seconds:g} s: is this port a "
                           f"Dask scheduler?")
    if err is not None:
        if isinstance(err, (OSError, ValueError)):
            raise err
        raise OSError(f"{type(err).__name__}: {err}")
    reply = box.get("reply")
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ValueError("what answers there is not a Dask scheduler")


def worker_threads(threads: int | None) -> int | None:
    """On a worker: the threads a task asked for, at most what this worker's Numba allows (its
    ``NUMBA_NUM_THREADS``, which may be lower than the client's share of the cores). Results do not depend
    on the thread count, so capping changes nothing but the speed."""
    if threads is None:
        return None
    import numba

    return max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))
