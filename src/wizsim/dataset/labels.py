"""Training examples of the ``net`` policy as a dataset run: the engine's folder, chunks, resume and Dask.

A labels run is rounds ``first .. first + rounds - 1`` of ``seed`` played by a behaviour policy in every
seat (the heuristic, or ``net`` with given weights: a DAgger round) and labelled by
``policies.net_data.label_rounds`` (every trump and bid decision, a share ``p_card`` of the card decisions
with two or more legal kinds, each candidate valued by the search's play-out on the true deal, by the
heuristic in every seat or, with ``rollout="self"``, by the behaviour ``net`` in the deciding seat;
``eps``: the share of random cards in the behaviour's play). Its folder holds the three ``io.schema.EXAMPLE_TABLES``,
one file per chunk each: ``bid_examples/part-{k:06d}.parquet`` and so on, chunk k covering rounds
``first + k * chunk_size ..``, rows in round order and, within a round, in the order of its decisions.

Since a round depends only on (seed, round index), a chunk's files depend only on the run and k: the local
engine and the Dask engine (``dataset.dask_engine``) write the same bytes, and a resumed run the same files
as an uninterrupted one (``dataset.run``: locks, the run file, digests, ``overwrite``). The run id covers
every parameter, the behaviour's identity (a built-in by wizsim's version, ``net`` by the SHA-256 of its
weights), the feature encoding and the versions. ``label_rounds`` is serial: the local engine labels on one
core; a Dask cluster (``engine="dask"``, ``workers=N``) labels N chunks at a time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from wizsim.config import MAX_ROUND_INDEX, ConfigError, check_count, check_seed
from wizsim.dataset.run import RunReport, read_manifest, write_run
from wizsim.dataset.spec import wizsim_version
from wizsim.io.parquet import DatasetError, check_versions, encode, to_table
from wizsim.io.schema import EXAMPLE_TABLES, KEY_ENCODING_VERSION, KEY_FILE, KEY_RUN, KEY_VERSION, SCHEMA_VERSION
from wizsim.policies.net import ENCODING_VERSION, N_WEIGHTS
from wizsim.policies.net_data import WHO
from wizsim.policies.registry import seat_identity

LABEL_CHUNK = 5000  # rounds per chunk: a few seconds of labelling, about 3.5 MB of Parquet (three files)
LABEL_BLOCK = 500  # rounds per kernel call inside a chunk: bounds the output buffers (about 45 MB)
TABLES = tuple(EXAMPLE_TABLES)  # bid, card, trump: the order of label_rounds' outputs
SCRIPT = "scripts/train_net.py"
ROLLOUTS = ("heuristic", "self")  # who plays the valuing play-outs (``make_label_spec``)


@dataclass(frozen=True)
class LabelSpec:
    """A labels run (see the module docstring); ``make_label_spec`` checks and builds one."""

    seed: int
    first: int
    rounds: int
    chunk_size: int
    eps: float
    p_card: float
    behaviour: str  # "heuristic" or "net"
    weights_sha256: str | None = None  # net: the digest of its weights (``net_weights.digest``)
    weights: bytes | None = field(default=None, repr=False, compare=False)  # net: float32 weights, to every worker
    weights_path: str | None = field(default=None, compare=False)  # net: where they were read (the command)
    rollout: str = "heuristic"  # who plays the valuing play-outs: "heuristic", or "self" (net in the decider's seat)
    heuristic_seats: float = 0.0  # the share of seats the heuristic plays instead of the behaviour net (per round)

    # what dataset.run reads of a run
    games = None
    mode = "labels"
    unit = "round"
    rounds_per_unit = 1
    card_plays_per_unit = 0
    tables = list(TABLES)

    @property
    def n_units(self) -> int:
        return self.rounds

    @property
    def n_chunks(self) -> int:
        return (self.rounds + self.chunk_size - 1) // self.chunk_size

    def chunk_range(self, k: int) -> tuple[int, int]:
        """Chunk k's rounds (their indices in the seed's stream)."""
        start = self.first + k * self.chunk_size
        return start, min(start + self.chunk_size, self.first + self.rounds)

    @property
    def identities(self) -> tuple[dict, ...]:
        if self.behaviour == "net":
            return ({"player": "net", "kind": "weights", "sha256": self.weights_sha256},)
        return (seat_identity(self.behaviour),)

    def file_path(self, table: str, k: int) -> str:
        return f"{table}/part-{k:06d}.parquet"

    def chunk_files(self, k: int) -> list[str]:
        return [self.file_path(t, k) for t in TABLES]

    def chunk_of(self, rel: str) -> int | None:
        parts = rel.split("/")
        if len(parts) != 2 or parts[0] not in TABLES:
            return None
        k = int(parts[1][len("part-"):-len(".parquet")])
        return k if k < self.n_chunks and rel == self.file_path(parts[0], k) else None

    def expected(self, rel: str, k: int) -> tuple[dict, None]:
        """What chunk k's file must say in its footer; its rows depend on the play (None: not checked here,
        the digest the run file records is)."""
        start, stop = self.chunk_range(k)
        return {"chunk": k, "first": start, "stop": stop, "unit": self.unit}, None

    def params(self) -> dict:
        out = {"mode": self.mode, "seed": self.seed, "first": self.first, "rounds": self.rounds,
               "chunk_size": self.chunk_size, "eps": self.eps, "p_card": self.p_card, "behaviour": self.behaviour}
        if self.rollout != "heuristic":  # named only where it is not the heuristic: earlier runs keep their ids
            out["rollout"] = self.rollout
        if self.heuristic_seats:  # likewise
            out["heuristic_seats"] = self.heuristic_seats
        return out

    def identity(self) -> dict:
        return {**self.params(), "identities": [dict(i) for i in self.identities], "encoding_version": ENCODING_VERSION,
                "schema_version": SCHEMA_VERSION, "rules_version": _rules_version(), "wizsim_version": wizsim_version()}

    @property
    def run_id(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def command(self, out: str = "DIR") -> str:
        args = ["python", SCRIPT, "--label-only", "--data", out, "--rounds", str(self.rounds), "--first",
                str(self.first), "--seed", str(self.seed), "--eps", repr(self.eps), "--p-card", repr(self.p_card),
                "--chunk-size", str(self.chunk_size)]
        if self.behaviour == "net":
            args += ["--behaviour", self.weights_path or "WEIGHTS.npz"]
        if self.rollout != "heuristic":
            args += ["--rollout", self.rollout]
        if self.heuristic_seats:
            args += ["--heuristic-seats", repr(self.heuristic_seats)]
        return shlex.join(args)

    def run_metadata(self) -> dict:
        return {"run_id": self.run_id, **self.identity(), "command": self.command()}

    # the engines' unit of work (``dataset.chunk`` hands a labels run's chunks here)
    def simulate(self, k: int):
        return label_chunk(self, k)

    def encode(self, k: int, examples) -> dict[str, pa.Buffer]:
        return encode_labels(self, k, examples)

    def table(self) -> np.ndarray:
        """The policies' shared table the behaviour plays from (``label_rounds``' ``table``)."""
        from wizsim.policies.registry import TABLES as POLICY_TABLES

        w = np.zeros(N_WEIGHTS) if self.weights is None else np.frombuffer(self.weights, np.float32).astype(np.float64)
        return np.concatenate([POLICY_TABLES["heuristic_values"](), w])


def _rules_version() -> int:
    from wizsim.config import RULES_VERSION

    return RULES_VERSION


def _share(value, name: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number in 0..1, got {value!r}") from None
    if not 0.0 <= x <= 1.0:
        raise ConfigError(f"{name} must be in 0..1, got {value!r}")
    return x


def make_label_spec(rounds: int, *, first: int = 0, seed: int = 0, behaviour=None, eps: float = 0.0,
                    p_card: float = 0.3, chunk_size: int | None = None, rollout: str = "heuristic",
                    heuristic_seats: float = 0.0) -> LabelSpec:
    """Check a labels run's parameters (``ConfigError`` naming the bad one) and name the run. ``behaviour``:
    None or ``"heuristic"``, or the path of a ``net`` weights file (``net_weights.read_weights`` checks it).
    ``rollout``: who plays the play-outs that value the candidates, ``"heuristic"`` in every seat, or
    ``"self"``: the behaviour ``net`` in the deciding seat and the heuristic in the others (the search's
    ``rollout=self``; it needs a ``net`` behaviour, whose weights it plays). ``heuristic_seats``: the share of
    seats (drawn per seat and round) that the heuristic plays instead of the behaviour ``net``, so that the
    net's examples include tables beside weaker players (it needs a ``net`` behaviour)."""
    from wizsim.policies.net_weights import digest, read_weights

    rounds = check_count(rounds, "rounds", 1, MAX_ROUND_INDEX + 1)
    first = check_count(first, "first", 0, MAX_ROUND_INDEX + 1 - rounds)
    chunk_size = check_count(LABEL_CHUNK if chunk_size is None else chunk_size, "chunk_size", 1)
    common = dict(seed=check_seed(seed), first=first, rounds=rounds, chunk_size=chunk_size, eps=_share(eps, "eps"),
                  p_card=_share(p_card, "p_card"))
    if rollout not in ROLLOUTS:
        raise ConfigError(f"rollout must be {' or '.join(ROLLOUTS)}, got {rollout!r}")
    common["rollout"] = rollout
    common["heuristic_seats"] = _share(heuristic_seats, "heuristic_seats")
    if behaviour is None or behaviour == "heuristic":
        if rollout != "heuristic":
            raise ConfigError(f"rollout {rollout!r} plays the behaviour net in the deciding seat: give a net weights "
                              f"file as the behaviour")
        if common["heuristic_seats"]:
            raise ConfigError("heuristic_seats replaces some of the behaviour net's seats by the heuristic: give a net "
                              "weights file as the behaviour")
        return LabelSpec(**common, behaviour="heuristic")
    if not isinstance(behaviour, (str, os.PathLike)):
        raise ConfigError(f"behaviour must be 'heuristic' or a net weights file, got {behaviour!r}")
    w = read_weights(behaviour)[0].astype(np.float32)
    return LabelSpec(**common, behaviour="net", weights_sha256=digest(w), weights=w.tobytes(),
                     weights_path=os.fspath(behaviour))


def label_chunk(spec: LabelSpec, k: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Chunk k's examples: per table (bid, card, trump) its features (n, D), scores (n, K) and who (n, 5)."""
    from wizsim.policies.dispatch import HEURISTIC, NET
    from wizsim.policies.net_data import empty_out, label_rounds
    from wizsim.policies.registry import N_PARAMS
    from wizsim.policies.search import P_ROLLOUT, ROLLOUT_SELF

    start, stop = spec.chunk_range(k)
    kind = NET if spec.behaviour == "net" else HEURISTIC
    table, params = spec.table(), np.zeros(N_PARAMS)
    params[P_ROLLOUT] = ROLLOUT_SELF if spec.rollout == "self" else 0
    parts = [[] for _ in TABLES]
    for a in range(start, stop, LABEL_BLOCK):
        b = min(a + LABEL_BLOCK, stop)
        out, counts = empty_out(b - a)
        label_rounds(np.uint64(spec.seed), a, b - a, kind, params, table,
                     (float(spec.eps), float(spec.p_card), float(spec.heuristic_seats)), out, counts)
        for t in range(len(TABLES)):
            n = int(counts[t])
            x = out[2 * t]
            parts[t].append((x[:n].reshape(n, x[0].size), out[2 * t + 1][:n], out[6 + t][:n]))
    return [tuple(np.concatenate([p[i] for p in ps]) for i in range(3)) for ps in parts]


def _fixed_list(a: np.ndarray) -> pa.FixedSizeListArray:
    a = np.ascontiguousarray(a, np.float32)
    return pa.FixedSizeListArray.from_arrays(pa.array(a.ravel()), a.shape[1])


def encode_labels(spec: LabelSpec, k: int, examples) -> dict[str, pa.Buffer]:
    """Chunk k's files from its examples (``label_chunk``)."""
    start, stop = spec.chunk_range(k)
    run_meta = json.dumps(spec.run_metadata(), sort_keys=True, separators=(",", ":")).encode()
    files = {}
    for name, (x, v, who) in zip(TABLES, examples, strict=True):
        n = len(x)
        file_meta = {"chunk": k, "first": start, "stop": stop, "unit": spec.unit, "rows": n}
        cols = {"run_id": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), [spec.run_id]),
                **{c: who[:, i] for i, c in enumerate(WHO)}, "features": _fixed_list(x), "scores": _fixed_list(v)}
        cols["hook"] = who[:, WHO.index("hook")].astype(bool)
        cols["seat"] = who[:, WHO.index("seat")] + 1  # 1-based, as every wizsim table
        tbl = to_table(name, n, cols, {KEY_RUN: run_meta, KEY_VERSION: wizsim_version().encode(),
                                       KEY_FILE: json.dumps(file_meta, sort_keys=True, separators=(",", ":")).encode()})
        files[spec.file_path(name, k)] = encode(tbl)
    return files


def write_labels(out: str | os.PathLike, spec: LabelSpec, *, engine: str = "local", overwrite: bool = False,
                 scheduler: str | None = None, workers: int | None = None, dask_processes: bool = True,
                 progress=None) -> RunReport:
    """Write (or finish writing) the examples of ``spec`` into the folder ``out`` (``dataset.run.write_run``:
    the same folder contract, resume, ``overwrite`` and engines as ``wizsim simulate --out``)."""
    return write_run(out, spec, engine=engine, overwrite=overwrite, scheduler=scheduler, workers=workers,
                     dask_processes=dask_processes, progress=progress)


@dataclass
class Examples:
    """One table of a labels folder as NumPy arrays: ``features`` (n, D) float32, ``scores`` (n, K) float32
    (NaN: not legal), and per row ``round_index``, ``players``, ``round``, ``hook``, ``seat`` (1-based)."""

    features: np.ndarray
    scores: np.ndarray
    who: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.features)


def _to_numpy(col: pa.ChunkedArray, width: int) -> np.ndarray:
    flat = [c.flatten().to_numpy(zero_copy_only=False) for c in col.chunks]
    return (np.concatenate(flat) if flat else np.zeros(0, np.float32)).reshape(-1, width)


def read_labels(path: str | os.PathLike) -> dict[str, Examples]:
    """The three tables of a complete labels folder (``write_labels``), rows in chunk order, as NumPy
    arrays. ``DatasetError`` when the folder is not a labels run, is not complete (an interrupted run: its
    command finishes it) or holds files of another run or feature encoding."""
    path = Path(path)
    manifest = read_manifest(path)
    if manifest is None or (manifest.get("identity") or {}).get("mode") != "labels":
        raise DatasetError(f"{path} is not a folder of net training examples (no labels run file "
                           f"{path / '_wizsim_run.json'})")
    if manifest.get("status") != "complete":
        raise DatasetError(f"{path} is not complete (status {manifest.get('status')!r}): run its command to finish "
                           f"it: {manifest.get('command')}")
    if manifest["identity"].get("encoding_version") != ENCODING_VERSION:
        raise DatasetError(f"{path} holds features of encoding {manifest['identity'].get('encoding_version')}; "
                           f"this wizsim's net reads encoding {ENCODING_VERSION}")
    out = {}
    for name in TABLES:
        files = [path / name / f"part-{k:06d}.parquet" for k in range(int(manifest["chunks"]))]
        tables = []
        for f in files:
            if not f.is_file():
                raise DatasetError(f"{f} is missing: run the folder's command to re-make it: {manifest.get('command')}")
            t = pq.read_table(f)
            meta = t.schema.metadata or {}
            check_versions(meta, str(f))
            if json.loads(meta[KEY_RUN]).get("run_id") != manifest["run_id"] or \
                    int(meta.get(KEY_ENCODING_VERSION, b"-1")) != ENCODING_VERSION:
                raise DatasetError(f"{f} is not a file of run {manifest['run_id']}")
            tables.append(t.replace_schema_metadata(None))
        t = pa.concat_tables(tables)
        schema = EXAMPLE_TABLES[name]
        out[name] = Examples(_to_numpy(t["features"], schema.field("features").type.list_size),
                             _to_numpy(t["scores"], schema.field("scores").type.list_size),
                             {c: t[c].to_numpy() for c in WHO})
    return out
