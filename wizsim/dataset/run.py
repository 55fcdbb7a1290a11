"""Write a run as a Parquet dataset folder: claim the folder, skip finished chunks, run the rest.

Folder contract (``DIR``):

- ``DIR/rounds/`` and ``DIR/tricks/`` hold the data, hive-partitioned by players and round;
- ``DIR/_wizsim_run.json`` (the manifest; readers skip names starting with ``_``) records the run's
  identity and canonical command plus how and where it was executed (times, host, engine): the
  things that must not go into the data files, which stay byte-identical across engines;
- a chunk is finished when all its files exist. Each file is renamed into place only when complete,
  so after Ctrl-C or a kill the folder holds only complete files (and perhaps ``.``-prefixed
  temporaries, which readers skip and the next run deletes). Rerunning the same run resumes;
- one writer at a time: ``DIR/.wizsim-writing.lock`` (``lock.py``) keeps a second writer out;
- a folder holding another run is refused unless ``overwrite``, which deletes that run's data; a
  folder holding anything wizsim did not write is always refused (overwrite never deletes a user's files).

The local engine overlaps the simulation of the next chunk (Numba, GIL released) with the encoding
and writing of earlier ones in ``WRITERS`` writer threads, so at most ``WRITERS + 1`` chunks are in
memory at a time.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from wizsim.config import ENGINES
from wizsim.dataset.chunk import encode_batch, simulate_chunk
from wizsim.dataset.lock import LOCK, writer_lock
from wizsim.dataset.spec import RunSpec, make_spec
from wizsim.io.parquet import DatasetError, is_temp, write_atomic
from wizsim.io.schema import TABLES

MANIFEST = "_wizsim_run.json"
WRITERS = 2


@dataclass
class RunReport:
    out: str
    run_id: str
    command: str
    mode: str
    unit: str
    units: int  # rounds or games in the run
    chunks: int
    chunks_skipped: int  # already finished before this call
    chunks_written: int
    units_written: int
    files_written: int
    bytes_written: int
    seconds: float
    engine: str
    rounds_per_unit: int = 1  # rounds in a game (game mode)
    card_plays_per_unit: int = 0

    @property
    def units_per_second(self) -> float:
        return self.units_written / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict:
        rate = self.units_per_second
        return {**asdict(self), "units_per_second": rate, "rounds_per_second": rate * self.rounds_per_unit,
                "card_plays_per_second": rate * self.card_plays_per_unit}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _owned(name: str) -> bool:
    return name in TABLES or name in (MANIFEST, LOCK) or is_temp(Path(name))


def read_manifest(out: str | os.PathLike) -> dict | None:
    try:
        return json.loads((Path(out) / MANIFEST).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def write_manifest(out: Path, manifest: dict) -> None:
    write_atomic(out / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True).encode(), fsync=False)


def claim_folder(out: Path, spec: RunSpec, overwrite: bool) -> dict | None:
    """Make the folder ``out`` (it exists; ``write_run`` made it) ready for ``spec``: returns the existing
    manifest when resuming, else None."""
    entries = sorted(e for e in out.iterdir() if e.name != LOCK)
    if not entries:
        return None
    foreign = [e.name for e in entries if not _owned(e.name)]
    if foreign:
        raise DatasetError(f"{out} holds files wizsim did not write ({', '.join(foreign[:3])}); "
                           "choose a new or empty folder")
    manifest = read_manifest(out)
    if manifest is not None and manifest.get("identity") == spec.identity():
        return manifest
    # A run that stopped before its first file (an unreachable scheduler, Ctrl-C at once) leaves only
    # its manifest: nothing of it would be lost, so another run may take the folder.
    holds_data = any(f.suffix == ".parquet" and not is_temp(f)
                     for t in TABLES if (out / t).is_dir() for f in (out / t).rglob("*"))
    if not overwrite and holds_data:
        what = f"run {manifest.get('run_id')} ({manifest.get('command')})" if manifest else "data of an unknown run"
        raise DatasetError(f"{out} holds {what}; pass --overwrite to replace it, or choose another folder")
    for e in entries:
        if e.is_dir():
            shutil.rmtree(e)
        else:
            e.unlink()
    return None


def remove_temporaries(out: Path) -> None:
    """Delete the temporaries of an interrupted run (no other writer may be running on ``out``)."""
    for table in TABLES:
        root = out / table
        if root.is_dir():
            for dirpath, _, names in os.walk(root):
                for name in names:
                    if is_temp(Path(name)):
                        (Path(dirpath) / name).unlink(missing_ok=True)
    for e in out.iterdir():
        if e.is_file() and is_temp(e):
            e.unlink(missing_ok=True)


def chunk_done(out: Path, spec: RunSpec, k: int) -> bool:
    return all((out / f).is_file() for f in spec.chunk_files(k))


def write_files(out: Path, files: dict) -> int:
    """Write a chunk's files (relative path -> bytes-like); returns the bytes written."""
    for rel, data in files.items():
        write_atomic(out / rel, data)
    return sum(memoryview(d).nbytes for d in files.values())


def _run_local(spec: RunSpec, out: Path, pending: list[int], threads, on_chunk) -> None:
    def write_chunk(k, batch):
        files = encode_batch(spec, k, batch)
        return k, len(files), write_files(out, files)

    # Encoding and compression release the GIL, so writer threads overlap the next simulation. Two
    # writers keep both cores busy when a chunk takes longer to encode than to simulate; more would
    # only hold more chunks in memory (at most WRITERS + 1 at a time).
    inflight = deque()
    with ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="wizsim-writer") as pool:
        for k in pending:
            batch = simulate_chunk(spec, k, threads)
            while len(inflight) >= WRITERS:
                on_chunk(*inflight.popleft().result())
            inflight.append(pool.submit(write_chunk, k, batch))
            del batch
        while inflight:
            on_chunk(*inflight.popleft().result())


def write_run(out: str | os.PathLike, spec: RunSpec, *, engine: str = "local", threads: int | None = None,
              overwrite: bool = False, scheduler: str | None = None, workers: int | None = None,
              dask_processes: bool = True, progress=None) -> RunReport:
    """Write (or finish writing) the dataset of ``spec`` into ``out``; see the module docstring.

    ``progress(n)`` is called with the number of rounds (games) of each finished chunk, including
    those found finished at the start.
    """
    if engine not in ENGINES:
        raise DatasetError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
    if engine == "local" and (scheduler is not None or workers is not None):
        raise DatasetError("--scheduler and --workers need --engine dask")
    if engine == "dask" and scheduler is not None and workers is not None:
        raise DatasetError("give --scheduler ADDRESS (an existing cluster) or --workers N (a local one), not both")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} is a file, not a folder")
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DatasetError(f"cannot create the folder {out}: {err.strerror}") from None
    try:
        with writer_lock(out):
            return _write_locked(out, spec, engine, threads, overwrite, scheduler, workers, dask_processes,
                                 progress)
    except DatasetError:
        if created and not any(out.iterdir()):
            out.rmdir()  # a refused run leaves no trace
        raise


def _write_locked(out: Path, spec: RunSpec, engine, threads, overwrite, scheduler, workers, dask_processes,
                  progress) -> RunReport:
    manifest = claim_folder(out, spec, overwrite)
    remove_temporaries(out)
    if manifest is None:
        manifest = {"format": "wizsim-dataset", "run_id": spec.run_id, "identity": spec.identity(),
                    "command": spec.command(), "chunks": spec.n_chunks, "tables": spec.tables, "executions": []}
    pending = [c.index for c in spec.chunks() if not chunk_done(out, spec, c.index)]
    skipped = spec.n_chunks - len(pending)
    execution = {"started": _now(), "host": socket.gethostname(), "engine": engine, "threads": threads,
                 "workers": workers, "scheduler": scheduler, "chunks_pending": len(pending)}
    manifest["executions"].append(execution)
    manifest["status"] = "running"
    write_manifest(out, manifest)
    if progress and skipped:
        todo = set(pending)
        progress(sum(c.size for c in spec.chunks() if c.index not in todo))

    report = RunReport(str(out), spec.run_id, spec.command(str(out)), spec.mode, spec.unit, spec.n_units,
                       spec.n_chunks, skipped, 0, 0, 0, 0, 0.0, engine, rounds_per_unit=spec.rounds_per_unit,
                       card_plays_per_unit=spec.card_plays_per_unit)

    def on_chunk(k, n_files, n_bytes):
        start, stop = spec.chunk_range(k)
        report.chunks_written += 1
        report.units_written += stop - start
        report.files_written += n_files
        report.bytes_written += n_bytes
        if progress:
            progress(stop - start)

    t0 = time.perf_counter()
    try:
        if pending and engine == "local":
            _run_local(spec, out, pending, threads, on_chunk)
        elif pending:
            from wizsim.dataset.dask_engine import run_dask

            run_dask(spec, out, pending, on_chunk, scheduler=scheduler, workers=workers, threads=threads,
                     processes=dask_processes)
    except BaseException:
        execution.update(interrupted=_now(), chunks_written=report.chunks_written)
        manifest["status"] = "interrupted"
        write_manifest(out, manifest)
        raise
    report.seconds = time.perf_counter() - t0
    execution.update(finished=_now(), seconds=round(report.seconds, 3), chunks_written=report.chunks_written)
    manifest["status"] = "complete"
    write_manifest(out, manifest)
    return report


def write_dataset(out: str | os.PathLike, players: int = 4, *, r: int | None = None, rounds: int | None = None,
                  games: int | None = None, policies="random", hook: bool = False, seed: int | None = 0,
                  trick_log: bool = False, chunk_size: int | None = None, engine: str = "local",
                  threads: int | None = None, overwrite: bool = False, scheduler: str | None = None,
                  workers: int | None = None, dask_processes: bool = True, progress=None) -> RunReport:
    """Simulate ``rounds`` rounds of ``r`` cards (or ``games`` whole games) into a dataset folder."""
    spec = make_spec(players, r=r, rounds=rounds, games=games, policies=policies, hook=hook, seed=seed,
                     trick_log=trick_log, chunk_size=chunk_size)
    return write_run(out, spec, engine=engine, threads=threads, overwrite=overwrite, scheduler=scheduler,
                     workers=workers, dask_processes=dask_processes, progress=progress)
