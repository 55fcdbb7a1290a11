"""Write a run as a Parquet dataset folder: claim the folder, skip finished chunks, run the rest.

Folder contract (``DIR``):

- ``DIR/rounds/`` and ``DIR/tricks/`` hold the data, hive-partitioned by players and round (a labels
  run, ``dataset.labels``: ``DIR/bid_examples/`` and the other example tables, not partitioned);
- ``DIR/_wizsim_run.json`` (the manifest; readers skip names starting with ``_``) records the run's
  identity and canonical command plus how and where it was executed (times, host, engine): the
  things that must not go into the data files, which stay byte-identical across engines;
- each file is renamed into place only when complete, so after Ctrl-C or a kill the folder holds
  only complete files (and perhaps ``.``-prefixed temporaries, which readers skip and the next run
  deletes). Rerunning the same run resumes: a chunk counts as finished only when each of its files
  has a readable footer naming this run, this chunk and the expected row count (``folder.check_file``)
  and content that hashes to the digest the run file recorded when it was written (``verify``; a file
  with no digest recorded is decoded page by page against its page checksums, and its digest is
  recorded); any other file under the chunk's names (empty, cut short, changed, another run's) is
  rewritten and the report says so. A lost or unreadable run file is rebuilt from the files' own
  metadata;
- one writer at a time: ``DIR/.wizsim-writing.lock`` (``lock.py``) keeps a second writer out;
- wizsim deletes or overwrites only what ``folder.survey`` proves it wrote, anywhere below ``DIR``;
  anything else (a user's file, folder or link) makes every call refuse, naming it. A folder holding
  another run is refused unless ``overwrite``, which deletes that run's files;
- a run that fails or is interrupted before its first chunk is complete leaves the folder as it
  found it; a later one marks the run file ``interrupted`` or ``failed`` and keeps the complete chunks.
  Faults of the operating system (disk full, read-only, no permission) raise ``StorageError``.

The local engine overlaps the simulation of the next chunk (Numba, GIL released) with the encoding
and writing of earlier ones in ``WRITERS`` writer threads, so at most ``WRITERS + 1`` chunks are in
memory at a time.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from wizsim._numba import Stopwatch
from wizsim.config import ENGINES, check_flag
from wizsim.dataset.chunk import encode_batch, simulate_chunk
from wizsim.dataset.folder import MANIFEST, check_file, remove_owned, survey
from wizsim.dataset.lock import writer_lock
from wizsim.dataset.spec import RunSpec, make_spec
from wizsim.dataset.verify import DIGEST, content_damage, digest, file_digest
from wizsim.identity import first_change, first_unverified
from wizsim.io.parquet import DatasetError, write_atomic
from wizsim.stats import json_safe
from wizsim.table.players import check_timeout

WRITERS = 2
MANIFEST_EVERY = 5.0  # seconds: the run file's digests are saved at most this often while a run writes


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
    seconds: float  # writing, compiling left out (``compile_seconds``)
    engine: str
    rounds_per_unit: int = 1  # rounds in a game (game mode)
    card_plays_per_unit: int = 0
    chunks_rewritten: list[int] = field(default_factory=list)  # found damaged, foreign or incomplete
    rewritten: list[str] = field(default_factory=list)  # their files, each with why ("rel (truncated: ...)")
    recovered: bool = False  # the run file was lost and rebuilt from the files' own metadata
    files_verified: int = 0  # files of skipped chunks whose bytes matched their recorded digest
    files_decoded: int = 0  # files of skipped chunks with no digest recorded, decoded and checked page by page
    compile_seconds: float = 0.0  # compiling or loading kernels during the run

    @property
    def units_per_second(self) -> float:
        return self.units_written / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict:
        rate = self.units_per_second
        return json_safe({**asdict(self), "units_per_second": rate, "rounds_per_second": rate * self.rounds_per_unit,
                          "card_plays_per_second": rate * self.card_plays_per_unit})


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StorageError(DatasetError):
    """The operating system refused to store the run (disk full, read-only, no permission): the
    message says what and where, and what the folder keeps."""


def read_manifest(out: str | os.PathLike) -> dict | None:
    try:
        manifest = json.loads((Path(out) / MANIFEST).read_text())
    except (FileNotFoundError, ValueError):  # missing, or cut short by a crash of an older wizsim
        return None
    return manifest if isinstance(manifest, dict) else None


def write_manifest(out: Path, manifest: dict) -> None:
    write_atomic(out / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True).encode(), fsync=True)


def new_manifest(spec: RunSpec) -> dict:
    return {"format": "wizsim-dataset", "run_id": spec.run_id, "identity": spec.identity(),
            "command": spec.command(), "chunks": spec.n_chunks, "tables": spec.tables, "executions": [],
            "digest": DIGEST, "digests": {}}


@dataclass
class Claim:
    """The folder as ``claim_folder`` left it for a run."""

    manifest: dict  # the run file to update (an existing run's, a recovered one, or a new one)
    fresh: bool  # True: the folder held nothing of this run (new, emptied, or only a run file)
    done: set[int]  # chunks whose every file is the run's own and complete
    damaged: dict[int, list[str]]  # chunk -> its files to rewrite, with why ("rel (truncated: ...)")
    recovered: bool  # the run file was missing or unreadable and is rebuilt from the files' metadata
    n_verified: int = 0  # files of done chunks that matched their recorded digest
    decoded: dict[str, str] = field(default_factory=dict)  # files of done chunks with no digest: rel -> digest now


def _describe(found, manifest: dict | None) -> str:
    if manifest is not None:
        return f"run {manifest.get('run_id')} ({manifest.get('command')})"
    for f in found.data:
        if f.run is not None:
            return f"run {f.run_id} ({f.run.get('command')})"
    f = found.data[0]
    return f"damaged files of an unknown run ({f.path}: {f.damage})"


def inspect(found, spec: RunSpec, digests: dict | None = None) -> tuple[set[int], dict[int, list[str]], list]:
    """From a survey: the chunks complete and the run's own, the damaged chunks' files (with why), and
    the data files this run does not write (strays). With ``digests`` (the run file's, ``{}`` when it
    holds none) every file's content is checked too (``verify.content_damage``); without, the footers
    alone are read."""
    good: dict[int, int] = {}
    damaged: dict[int, list[str]] = {}
    strays = []
    for f in found.data:
        k = spec.chunk_of(f.rel)
        if k is None:
            strays.append(f)
            continue
        why = check_file(f, spec, k)
        if why is None and digests is not None:
            why = content_damage(f.path, digests.get(f.rel))
        if why is None:
            good[k] = good.get(k, 0) + 1
        else:
            damaged.setdefault(k, []).append(f"{f.rel} ({why})")
    per_chunk = len(spec.chunk_files(0))
    return {k for k, n in good.items() if n == per_chunk and k not in damaged}, damaged, strays


def _other_players(out: Path, found, manifest: dict | None, spec: RunSpec) -> str | None:
    """When the folder's run is this one but for what its players are: one line naming the first seat
    whose player changed and how (``identity.first_change``); else None."""
    old = manifest.get("identity") if manifest is not None else next(
        (f.run for f in found.data if f.run is not None), None)
    new = spec.identity()
    if not isinstance(old, dict) or "identities" not in old:
        return None
    same_else = {k: v for k, v in old.items() if k not in ("identities", "run_id", "command")} == \
        {k: v for k, v in new.items() if k != "identities"}
    change = first_change(old["identities"], new["identities"], "player" if spec.games is not None else "seat")
    if not same_else or change is None:
        return None
    return (f"{out} holds this run's data written by other players ({change}); the folder is left as it is: seat "
            "the same players to resume, pass --overwrite to replace the run, or choose another folder")


def claim_folder(out: Path, spec: RunSpec, overwrite: bool, allow_unverified: bool = False) -> Claim:
    """Make the folder ``out`` (it exists and we hold its lock) ready for ``spec``; see the module docstring.

    Raises ``DatasetError`` naming the first entry wizsim did not write (``folder.survey``) or, without
    ``overwrite``, the other run the folder holds (the seat whose player changed, when only players
    did); without ``allow_unverified``, a resume whose seats hold a player wizsim cannot verify (a
    Python object) over data already written. Deletes only what the survey proved to be wizsim's.
    """
    found = survey(out)
    manifest = read_manifest(out) if found.manifest is not None else None
    if manifest is not None:
        this_run = manifest.get("identity") == spec.identity()
    else:  # the run file is lost: the files' own metadata say whose they are
        this_run = any(f.run_id == spec.run_id for f in found.data)
    if not this_run:
        if found.data and not overwrite:
            raise DatasetError(_other_players(out, found, manifest, spec) or
                               f"{out} holds {_describe(found, manifest)}; pass --overwrite to replace it, "
                               "or choose another folder")
        # A run that stopped before its first file leaves at most its run file: nothing to lose.
        remove_owned(found)
        return Claim(new_manifest(spec), True, set(), {}, False)
    unverified = first_unverified(spec.identities, "player" if spec.games is not None else "seat")
    if found.data and unverified and not allow_unverified:
        raise DatasetError(f"{out} holds data of this run, and {unverified}: wizsim cannot tell whether it is the "
                           "player that wrote them; the folder is left as it is: pass allow_unverified_players=True "
                           "(--allow-unverified-players) to resume anyway, overwrite=True to start again, or choose "
                           "another folder")
    recorded = (manifest or {}).get("digests")
    recorded = recorded if isinstance(recorded, dict) else {}
    done, damaged, strays = inspect(found, spec, recorded)
    if strays and not overwrite:
        f = strays[0]
        whose = f"run {f.run_id}" if f.run is not None else f.damage
        raise DatasetError(f"{f.path} is not a file of run {spec.run_id} ({whose}); pass --overwrite to delete it, "
                           "or choose another folder")
    for f in strays:
        f.path.unlink(missing_ok=True)
    for p in found.temporaries:
        p.unlink(missing_ok=True)
    recovered = manifest is None
    if recovered:
        manifest = {**new_manifest(spec), "recovered": _now()}
    manifest["digest"], manifest["digests"] = DIGEST, recorded
    done_files = [rel for k in sorted(done) for rel in spec.chunk_files(k)]
    decoded = {rel: file_digest(out / rel) for rel in done_files if rel not in recorded}
    return Claim(manifest, len(strays) == len(found.data), done, damaged, recovered,
                 len(done_files) - len(decoded), decoded)


def _complete_chunks(out: Path, spec: RunSpec, clean_up: bool) -> int:
    """After a failed or interrupted run: how many of its chunks the folder holds complete. With
    ``clean_up`` (the run started on a folder holding none of its data) and none complete, the run's
    traces (its run file, its folders, the files of an unfinished first chunk) are removed, so the
    folder is as the run found it."""
    try:
        found = survey(out)
        done, _, strays = inspect(found, spec)
        if clean_up and not done and not strays:
            remove_owned(found)
        return len(done)
    except (DatasetError, OSError):
        return 0  # cannot tell, or cannot delete: what is there stays


def write_files(out: Path, files: dict) -> tuple[int, dict[str, str]]:
    """Write a chunk's files (relative path -> bytes-like); returns the bytes written and each file's digest."""
    digests = {}
    for rel, data in files.items():
        digests[rel] = digest(data)
        write_atomic(out / rel, data)
    return sum(memoryview(d).nbytes for d in files.values()), digests


def _run_local(spec: RunSpec, out: Path, pending: list[int], threads, on_chunk, decision_timeout=None) -> None:
    def write_chunk(k, batch):
        files = encode_batch(spec, k, batch)
        return k, len(files), *write_files(out, files)

    # Encoding and compression release the GIL, so writer threads overlap the next simulation. Two
    # writers keep both cores busy when a chunk takes longer to encode than to simulate; more would
    # only hold more chunks in memory (at most WRITERS + 1 at a time).
    inflight = deque()
    with ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="wizsim-writer") as pool:
        for k in pending:
            batch = simulate_chunk(spec, k, threads, decision_timeout)
            while len(inflight) >= WRITERS:
                on_chunk(*inflight.popleft().result())
            inflight.append(pool.submit(write_chunk, k, batch))
            del batch
        while inflight:
            on_chunk(*inflight.popleft().result())


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of ``path`` that does not exist yet (what ``mkdir -p`` would create)."""
    missing = None
    for p in (path, *path.parents):
        if p.exists():
            break
        missing = p
    return missing


def _remove_created(out: Path, top: Path | None) -> None:
    """Remove the folders this call created (``out`` up to ``top``) if they are empty."""
    if top is None:
        return
    for p in (out, *out.parents):
        try:
            p.rmdir()
        except OSError:
            return
        if p == top:
            return


def _storage_error(err: OSError, out: Path, kept: int | None = None) -> StorageError:
    """One line: the system's reason, the file, and (after a run started) what the folder keeps."""
    where = err.filename or out
    if kept is None:
        keeps = ""
    elif kept:
        keeps = (f"; the {kept:,} complete chunk{'s are' if kept != 1 else ' is'} kept: fix that and run the same "
                 "command again to resume")
    else:
        keeps = "; nothing of this run is left behind"
    return StorageError(f"cannot write the dataset in {out}: {err.strerror or err} ({where}){keeps}")


def write_run(out: str | os.PathLike, spec: RunSpec, *, engine: str = "local", threads: int | None = None,
              overwrite: bool = False, scheduler: str | None = None, workers: int | None = None,
              dask_processes: bool = True, progress=None, allow_unverified_players: bool = False,
              decision_timeout: float | None = None) -> RunReport:
    """Write (or finish writing) the dataset of ``spec`` into ``out``; see the module docstring.

    ``progress(n)`` is called with the number of rounds (games) of each finished chunk, including
    those found finished at the start. A refusal raises ``DatasetError``; a fault of the operating
    system (disk full, read-only, no permission) ``StorageError``; both leave no trace of a run that
    completed no chunk. A user's player that fails, or takes longer than ``decision_timeout`` seconds
    over a decision, raises ``PlayerError`` (``Round.play``); the complete chunks stay.
    ``allow_unverified_players``: resume over data already written although a seat holds a player
    wizsim cannot verify (a Python object: ``wizsim.identity``).
    """
    if engine not in ENGINES:
        raise DatasetError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
    if engine == "local" and (scheduler is not None or workers is not None):
        raise DatasetError("--scheduler and --workers need --engine dask")
    if engine == "dask" and scheduler is not None and workers is not None:
        raise DatasetError("give --scheduler ADDRESS (an existing cluster) or --workers N (a local one), not both")
    allow_unverified_players = check_flag(allow_unverified_players, "allow_unverified_players")
    decision_timeout = check_timeout(decision_timeout)
    if engine == "dask" and scheduler is not None:
        from wizsim._dask import check_address

        check_address(scheduler, DatasetError)  # before the folder is locked or touched
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise DatasetError("the output folder is an empty path: name a folder (--out DIR)")
    out = Path(out)
    if out.is_symlink() and not out.is_dir():
        raise DatasetError(f"{out} is a symbolic link to no folder")
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out} is a file, not a folder")
    created = _first_missing(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StorageError(f"cannot create the folder {out}: {err.strerror}") from None
    try:
        with writer_lock(out):
            return _write_locked(out, spec, engine, threads, overwrite, scheduler, workers, dask_processes,
                                 progress, allow_unverified_players, decision_timeout)
    except OSError as err:
        raise _storage_error(err, out) from None
    finally:
        _remove_created(out, created)


def _write_locked(out: Path, spec: RunSpec, engine, threads, overwrite, scheduler, workers, dask_processes,
                  progress, allow_unverified=False, decision_timeout=None) -> RunReport:
    claim = claim_folder(out, spec, overwrite, allow_unverified)
    manifest = claim.manifest
    n_done = len(claim.done)
    pending = (k for k in range(spec.n_chunks) if k not in claim.done)
    execution = {"started": _now(), "host": socket.gethostname(), "engine": engine, "threads": threads,
                 "workers": workers, "scheduler": scheduler, "chunks_pending": spec.n_chunks - n_done}
    if claim.damaged:
        execution["rewrote"] = [f for k in sorted(claim.damaged) for f in claim.damaged[k]]
    manifest["executions"].append(execution)
    manifest["status"] = "running"
    manifest["digests"].update(claim.decoded)

    report = RunReport(str(out), spec.run_id, spec.command(str(out)), spec.mode, spec.unit, spec.n_units,
                       spec.n_chunks, n_done, 0, 0, 0, 0, 0.0, engine, rounds_per_unit=spec.rounds_per_unit,
                       card_plays_per_unit=spec.card_plays_per_unit,
                       chunks_rewritten=sorted(claim.damaged), rewritten=execution.get("rewrote", []),
                       recovered=claim.recovered, files_verified=claim.n_verified, files_decoded=len(claim.decoded))
    saved = [0.0]  # when the run file was last written

    def on_chunk(k, n_files, n_bytes, digests):
        start, stop = spec.chunk_range(k)
        report.chunks_written += 1
        report.units_written += stop - start
        report.files_written += n_files
        report.bytes_written += n_bytes
        # A file whose digest a kill keeps out of the run file is checked page by page on resume.
        manifest["digests"].update(digests)
        if time.monotonic() - saved[0] >= MANIFEST_EVERY:
            write_manifest(out, manifest)
            saved[0] = time.monotonic()
        if progress:
            progress(stop - start)

    clock = Stopwatch()
    try:
        write_manifest(out, manifest)
        saved[0] = time.monotonic()
        if progress and n_done:
            progress(sum(spec.chunk_range(k)[1] - spec.chunk_range(k)[0] for k in claim.done))
        if n_done < spec.n_chunks and engine == "local":
            _run_local(spec, out, pending, threads, on_chunk, decision_timeout)
        elif n_done < spec.n_chunks:
            from wizsim.dataset.dask_engine import run_dask

            run_dask(spec, out, pending, on_chunk, write_files, scheduler=scheduler, workers=workers,
                     threads=threads, processes=dask_processes, decision_timeout=decision_timeout)
    except BaseException as err:
        kept = _complete_chunks(out, spec, clean_up=claim.fresh)
        if kept or not claim.fresh:
            execution.update(interrupted=_now(), chunks_written=report.chunks_written)
            manifest["status"] = "interrupted" if isinstance(err, KeyboardInterrupt) else "failed"
            if not isinstance(err, (KeyboardInterrupt, DatasetError)):
                execution["error"] = f"{type(err).__name__}: {err}"
            try:
                write_manifest(out, manifest)
            except OSError:
                pass  # a full disk keeps the previous run file (written atomically), which says running
        if isinstance(err, OSError):
            raise _storage_error(err, out, kept) from None
        raise
    report.seconds, report.compile_seconds = clock.seconds, clock.compiled
    execution.update(finished=_now(), seconds=round(report.seconds, 3), chunks_written=report.chunks_written)
    manifest["status"] = "complete"
    write_manifest(out, manifest)
    return report


def write_dataset(out: str | os.PathLike, players: int = 4, *, r: int | None = None, rounds: int | None = None,
                  games: int | None = None, policies="heuristic", hook: bool = False, seed: int | None = 0,
                  trick_log: bool = False, chunk_size: int | None = None, engine: str = "local",
                  threads: int | None = None, overwrite: bool = False, scheduler: str | None = None,
                  workers: int | None = None, dask_processes: bool = True, progress=None,
                  allow_unverified_players: bool = False, decision_timeout: float | None = None) -> RunReport:
    """Simulate ``rounds`` rounds of ``r`` cards (or ``games`` whole games) into a dataset folder
    (``write_run`` says what the keywords do)."""
    spec = make_spec(players, r=r, rounds=rounds, games=games, policies=policies, hook=hook, seed=seed,
                     trick_log=trick_log, chunk_size=chunk_size)
    return write_run(out, spec, engine=engine, threads=threads, overwrite=overwrite, scheduler=scheduler,
                     workers=workers, dask_processes=dask_processes, progress=progress,
                     allow_unverified_players=allow_unverified_players, decision_timeout=decision_timeout)
