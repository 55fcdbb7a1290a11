"""One chunk of a run, the unit of work of every engine: simulate it, build its rows, encode its files.

``encode_chunk(spec, k)`` returns ``{relative path: Parquet bytes (a pyarrow Buffer)}``. The bytes depend only on the
run and k (no time, host, engine or thread count inside), which is what makes a Dask run identical,
file for file, to a local one, and a resumed run identical to an uninterrupted one.
"""

from __future__ import annotations

import json

import pyarrow as pa

from wizsim.dataset.rows import game_batch_tables, round_batch_tables
from wizsim.dataset.spec import RunSpec, wizsim_version
from wizsim.io.parquet import encode, to_table
from wizsim.io.schema import KEY_FILE, KEY_RUN, KEY_VERSION
from wizsim.sim.driver import simulate_games, simulate_rounds


def simulate_chunk(spec: RunSpec, k: int, threads: int | None = None, decision_timeout: float | None = None):
    """The RoundBatch (rounds mode) or GameBatch (game mode) of chunk k; a labels run's examples
    (``dataset.labels``, whose kernel is serial: ``threads`` does not apply)."""
    if spec.mode == "labels":
        return spec.simulate(k)
    start, stop = spec.chunk_range(k)
    if spec.games is not None:
        return simulate_games(spec.players, stop - start, list(spec.policies), hook=spec.hook, seed=spec.seed,
                              first_game=start, trick_log=spec.trick_log, threads=threads,
                              decision_timeout=decision_timeout)
    return simulate_rounds(spec.players, spec.round, stop - start, list(spec.policies), hook=spec.hook,
                           seed=spec.seed, first_index=start, trick_log=spec.trick_log, threads=threads,
                           decision_timeout=decision_timeout)


def _json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def encode_batch(spec: RunSpec, k: int, batch) -> dict[str, pa.Buffer]:
    """The files of chunk k from its simulated batch."""
    if spec.mode == "labels":
        return spec.encode(k, batch)
    start, stop = spec.chunk_range(k)
    if spec.games is not None:
        tables = game_batch_tables(spec.run_id, batch, spec.policies)
    else:
        tables = round_batch_tables(spec.run_id, batch, spec.policies)
    run_meta = _json(spec.run_metadata())
    files = {}
    for (table, r), (n_rows, cols) in tables.items():
        file_meta = _json({"chunk": k, "first": start, "stop": stop, "unit": spec.unit, "players": spec.players,
                           "round": r})
        tbl = to_table(table, n_rows, cols, {KEY_RUN: run_meta, KEY_FILE: file_meta,
                                             KEY_VERSION: wizsim_version().encode()})
        files[spec.file_path(table, r, k)] = encode(tbl)
    return files


def encode_chunk(spec: RunSpec, k: int, threads: int | None = None) -> dict[str, pa.Buffer]:
    return encode_batch(spec, k, simulate_chunk(spec, k, threads))
