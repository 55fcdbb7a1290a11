"""Run a dataset's chunks on a Dask cluster (``pip install 'wizsim[dask]'``; imported only when used).

Each pending chunk is one task, ``encode_chunk(spec, k)``, which returns the chunk's files as bytes;
the client writes them with the same atomic rename as the local engine. So the data are the same
files, byte for byte, as a local run, workers need no shared filesystem (only wizsim installed), and
resuming works the same way. At most two tasks per worker are in flight, which bounds the client's
memory. Workers compile (or load from Numba's cache) the kernels on their first task.
"""

from __future__ import annotations

import os
import threading

import pyarrow as pa

from wizsim._dask import cluster_workers, open_client, worker_threads
from wizsim.dataset.chunk import encode_batch, simulate_chunk
from wizsim.dataset.spec import RunSpec
from wizsim.io.parquet import DatasetError

# Workers that run several tasks as threads of one process must not launch parallel kernels
# concurrently (Numba's workqueue threading layer cannot); encoding still overlaps.
_SIMULATE_LOCK = threading.Lock()


def run_chunk(spec: RunSpec, k: int, threads: int | None, decision_timeout: float | None = None) -> dict[str, pa.Buffer]:
    """The task: chunk k's files, encoded on the worker."""
    with _SIMULATE_LOCK:
        batch = simulate_chunk(spec, k, worker_threads(threads), decision_timeout)
    return encode_batch(spec, k, batch)


def _client(scheduler, workers, processes):
    return open_client(scheduler, workers, processes, DatasetError)


def run_dask(spec: RunSpec, out, pending: list[int], on_chunk, write_files, *, scheduler=None, workers=None,
             threads=None, processes: bool = True, decision_timeout: float | None = None) -> None:
    """Run ``pending`` chunks on a cluster; ``write_files(out, files)`` (``dataset.run``'s, handed in: the engine
    sits below the run) writes each chunk's files here and ``on_chunk(k, n_files, n_bytes, digests)`` follows."""
    client, cluster = _client(scheduler, workers, processes)
    try:
        from dask.distributed import as_completed

        n_workers = cluster_workers(client)
        if threads is None and cluster is not None:
            # a local cluster shares this machine's cores among its workers
            threads = max(1, (os.cpu_count() or 1) // n_workers)
        todo = iter(pending)
        ac = as_completed()
        for _ in range(2 * n_workers):
            k = next(todo, None)
            if k is None:
                break
            ac.add(client.submit(run_chunk, spec, k, threads, decision_timeout, key=f"wizsim-{spec.run_id}-chunk-{k}"))
        for fut in ac:
            files = fut.result()
            k = int(fut.key.rsplit("-", 1)[1])
            fut.release()
            on_chunk(k, len(files), *write_files(out, files))
            del files
            k = next(todo, None)
            if k is not None:
                ac.add(client.submit(run_chunk, spec, k, threads, decision_timeout, key=f"wizsim-{spec.run_id}-chunk-{k}"))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
