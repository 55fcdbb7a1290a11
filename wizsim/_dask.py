"""The Dask client every ``--engine dask`` run opens (datasets, tournaments); Dask is imported only here
and only when used (``pip install 'wizsim[dask]'``).

``scheduler`` is an existing cluster's address (workers anywhere, with wizsim installed); otherwise a
``LocalCluster`` of ``workers`` workers (default 1), one thread each, on this machine. Every refusal is
``error`` (the caller's ``ValueError`` kind) with one line naming the option, so the CLI exits 2.
"""

from __future__ import annotations

CONNECT_TIMEOUT = "10s"  # how long to try an unreachable scheduler before saying so


def check_engine_options(engine, scheduler, workers, engines, error) -> None:
    """The engine options' own rules: a known engine, --scheduler/--workers only with dask, not both,
    workers 1 or more."""
    if not isinstance(engine, str) or engine not in engines:
        raise error(f"unknown engine {engine!r}: choose from {', '.join(engines)}")
    if engine != "dask" and (scheduler is not None or workers is not None):
        raise error("--scheduler and --workers need --engine dask")
    if scheduler is not None and workers is not None:
        raise error("give --scheduler ADDRESS (an existing cluster) or --workers N (a local one), not both")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise error(f"--scheduler must be a scheduler address like tcp://host:8786, got {scheduler!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise error(f"--workers must be 1 or more, got {workers!r}")


def open_client(scheduler, workers, processes: bool, error):
    """``(client, cluster)``: a client of the scheduler at ``scheduler`` (cluster None), or of a new
    local cluster of ``workers`` workers (the caller closes both)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise error("--engine dask needs Dask: pip install 'wizsim[dask]'") from None
    if scheduler is not None:
        try:
            return Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except (OSError, TimeoutError, ValueError) as err:
            raise error(f"cannot reach the Dask scheduler at {scheduler} (--scheduler): {err}") from None
    n = 1 if workers is None else workers
    if n < 1:
        raise error(f"--workers must be 1 or more, got {n}")
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=processes, dashboard_address=":0")
    return Client(cluster), cluster


def cluster_workers(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))
