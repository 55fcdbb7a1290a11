"""Write and read wizsim's Parquet files. Defines no columns: everything comes from ``io.schema``.

Writing: ``to_table`` casts columns to a table's file schema and fails on a missing, extra or
out-of-range column; ``encode`` turns the table into Parquet bytes (zstd, row groups of
``ROW_GROUP_ROWS``, dictionary encoding for the strings and small integers, a CRC-32 checksum in
every page header) that depend only on the data and the metadata given, so the same chunk gives the
same bytes on any machine;
``write_atomic`` puts bytes under a temporary name starting with ``.`` (which dataset readers skip)
and renames it into place, so a reader or a killed run never sees half a file.

Reading: ``open_dataset`` opens one table of a dataset folder with its hive partitioning and checks
the schema version stamped in the files (a rules version other than this wizsim's only warns).
"""

from __future__ import annotations

import os
import uuid
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from wizsim.errors import DatasetError  # noqa: F401 - re-exported
from wizsim.io.schema import (
    KEY_RULES_VERSION,
    KEY_SCHEMA_VERSION,
    RULES_VERSION,
    SCHEMA_VERSION,
    file_schema,
    mode_of,
    partitioning_schema,
    table_schema,
)

ROW_GROUP_ROWS = 1 << 20
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1  # level 1 is within a few percent of level 3 in size here and much faster
TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"


def _dictionary_columns(schema: pa.Schema) -> list[str]:
    # Strings are dictionaries by declaration; small integers have few distinct values, where a
    # dictionary with run-length indices is both smaller and cheaper to compress than plain values.
    out = []
    for f in schema:
        if pa.types.is_dictionary(f.type) or (pa.types.is_integer(f.type) and f.type.bit_width <= 16):
            out.append(f.name)
    return out


def to_table(table: str, n_rows: int, columns: dict, metadata: dict[bytes, bytes] | None = None) -> pa.Table:
    """A pyarrow Table with exactly the file schema of ``table`` (``"rounds"`` or ``"tricks"``).

    ``columns`` maps every column name to a numpy array or pyarrow Array of ``n_rows`` values, or to
    None for an all-null column (allowed only where the schema says nullable). Values are cast
    safely: an out-of-range value or a wrong length raises ``DatasetError``. Columns with game columns
    are a games-mode file, columns without them a rounds-mode one (``schema.GAME_ONLY``).
    """
    schema = file_schema(table, mode_of(columns))
    names = set(schema.names)
    extra = sorted(set(columns) - names)
    missing = sorted(names - set(columns))
    if extra or missing:
        raise DatasetError(f"{table} columns do not match the schema: missing {missing}, unexpected {extra}")
    arrays = []
    for f in schema:
        value = columns[f.name]
        if value is None:
            if not f.nullable:
                raise DatasetError(f"{table}.{f.name} may not be null")
            arrays.append(pa.nulls(n_rows, f.type))
            continue
        arr = value if isinstance(value, (pa.Array, pa.ChunkedArray)) else pa.array(np.asarray(value))
        if len(arr) != n_rows:
            raise DatasetError(f"{table}.{f.name} has {len(arr)} values, expected {n_rows}")
        if arr.type != f.type:
            try:
                arr = arr.cast(f.type, safe=True)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as err:
                raise DatasetError(f"{table}.{f.name}: cannot store {arr.type} as {f.type}: {err}") from None
        if not f.nullable and arr.null_count:
            raise DatasetError(f"{table}.{f.name} may not be null")
        arrays.append(arr)
    meta = dict(schema.metadata or {})
    meta.update(metadata or {})
    return pa.Table.from_arrays(arrays, schema=schema.with_metadata(meta))


def encode(tbl: pa.Table) -> pa.Buffer:
    """The Parquet bytes of a table built by ``to_table`` (a pyarrow Buffer: bytes-like, picklable)."""
    sink = pa.BufferOutputStream()
    pq.write_table(tbl, sink, row_group_size=ROW_GROUP_ROWS, compression=COMPRESSION,
                   compression_level=COMPRESSION_LEVEL, use_dictionary=_dictionary_columns(tbl.schema),
                   store_schema=True, write_page_checksum=True)
    return sink.getvalue()


def temp_name(path: Path) -> Path:
    return path.with_name(f"{TEMP_PREFIX}{path.name}.{uuid.uuid4().hex[:8]}{TEMP_SUFFIX}")


def write_atomic(path: str | os.PathLike, data, *, fsync: bool = True) -> None:
    """Write ``data`` (bytes-like) to ``path`` so that ``path`` either does not exist or holds all of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_versions(meta: dict, where: str) -> None:
    got = meta.get(KEY_SCHEMA_VERSION)
    if got is None:
        raise DatasetError(f"{where} is not a wizsim dataset file (no {KEY_SCHEMA_VERSION.decode()} in its metadata)")
    if int(got) != SCHEMA_VERSION:
        raise DatasetError(f"{where} has schema version {int(got)}; this wizsim reads version {SCHEMA_VERSION}")
    rules = meta.get(KEY_RULES_VERSION)
    if rules is not None and int(rules) != RULES_VERSION:
        warnings.warn(f"{where} was simulated under rules version {int(rules)}; this wizsim simulates "
                      f"version {RULES_VERSION}", stacklevel=3)


def table_root(path: str | os.PathLike, table: str) -> Path:
    """The folder of ``table`` in a dataset: ``path/table``, or ``path`` itself when it is that folder."""
    table_schema(table)
    path = Path(path)
    if (path / table).is_dir():
        return path / table
    if path.is_dir() and path.name == table:
        return path
    raise DatasetError(f"{path} holds no {table!r} table (expected the folder {path / table})")


def open_dataset(path: str | os.PathLike, table: str = "rounds") -> ds.Dataset:
    """One table of a dataset folder, partition columns typed as in the schema, versions checked."""
    root = table_root(path, table)
    part = ds.partitioning(partitioning_schema(), flavor="hive")
    dataset = ds.dataset(str(root), format="parquet", partitioning=part, schema=table_schema(table))
    first = next(iter(dataset.get_fragments()), None)
    if first is None:
        return dataset
    physical = first.physical_schema
    check_versions(physical.metadata or {}, first.path)
    # a dataset holds one run: its first file says whether the game columns exist (rounds mode: not at all)
    return ds.dataset(str(root), format="parquet", partitioning=part,
                      schema=table_schema(table, mode_of(physical.names)))
