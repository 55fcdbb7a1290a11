"""Load a wizsim dataset into pandas, reading only the partitions and rows the filters allow.

Arguments are checked like the command line's: a bad path, column or filter is a ``DatasetError``
(a ``ValueError``; ``TypeError`` too for the wrong kind of value) naming it. A dataset whose run is
not complete (its ``_wizsim_run.json`` says running or interrupted) or whose files come from more
than one run is read, with a ``DatasetWarning`` saying so; files that disagree about what a player is
(the same policy name recorded with two identities: a user's player edited between them) are refused,
naming two of them.

Damage is refused, naming the file (``verify=True``, the default): every file read must hash to the
digest its run file recorded when it was written, and every page read must match its checksum
(``dataset.verify``). ``verify=False`` reads the files as they are.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from wizsim.cards import format_masks, shorten
from wizsim.dataset.folder import MANIFEST
from wizsim.dataset.verify import DIGEST, arrow_reason, file_digest
from wizsim.identity import describe
from wizsim.io.parquet import DatasetError, open_dataset
from wizsim.io.schema import KEY_RUN


class DatasetWarning(UserWarning):
    """A dataset that reads but may not be what the user thinks: an unfinished run, mixed runs."""


class DatasetTypeError(DatasetError, TypeError):
    """An argument of the wrong kind (a path that is a number, a filter value that is a list of lists)."""


def _filter_values(schema, name: str, value) -> list:
    """The values of filter ``name`` checked against the column's type (a whole number for an integer
    column, text for a text column), else an error naming the filter."""
    many = isinstance(value, (list, tuple, set, frozenset, np.ndarray))
    values = list(value) if many else [value]
    if value is None or any(v is None for v in values):
        raise DatasetError(f"{name}=None matches no row: give a value or a list of values, or leave {name} out")
    column = schema.field(name).type
    want = column.value_type if pa.types.is_dictionary(column) else column
    for v in values:
        whole = isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
        if pa.types.is_integer(want) and not whole or pa.types.is_string(want) and not isinstance(v, str) or \
                not (pa.types.is_integer(want) or pa.types.is_string(want)):
            kind = "whole numbers" if pa.types.is_integer(want) else "text" if pa.types.is_string(want) else None
            if kind is None:
                raise DatasetError(f"cannot filter on {name!r}: its values are {want}, not single values")
            raise DatasetTypeError(f"{name} filter: {shorten(repr(v), 40)} is not {kind} ({name} is {want})")
    try:
        pa.array(values).cast(want)
    except (pa.ArrowException, OverflowError) as err:
        raise DatasetError(f"{name} filter: {shorten(repr(value), 60)} does not fit {name} ({want}): "
                           f"{str(err).splitlines()[0][:80]}") from None
    return values


def filter_expression(schema, filters: dict):
    """``column=value`` (equality) or ``column=[values]`` (membership), joined by AND."""
    expr = None
    for name, value in filters.items():
        if name not in schema.names:
            raise DatasetError(f"cannot filter on {name!r}: the columns are {', '.join(schema.names)}")
        values = _filter_values(schema, name, value)
        field = ds.field(name)
        many = isinstance(value, (list, tuple, set, frozenset, np.ndarray))
        term = field.isin(values) if many else field == values[0]
        expr = term if expr is None else expr & term
    return expr


def _dataset_dir(path: Path) -> Path:
    """The dataset folder of ``path`` (the folder itself, or the folder above its table folder)."""
    return path.parent if path.name in ("rounds", "tricks") and not (path / "rounds").is_dir() else path


def read_run_file(path: Path) -> dict | None:
    try:
        run = json.loads((_dataset_dir(path) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return run if isinstance(run, dict) else None


def check_digests(path: Path, run: dict | None, fragments) -> None:
    """Refuse, naming it, the first file read whose bytes differ from the digest its run file recorded."""
    digests = (run or {}).get("digests")
    if not isinstance(digests, dict) or (run or {}).get("digest", DIGEST) != DIGEST:
        return
    top = _dataset_dir(path)
    for fragment in fragments:
        recorded = digests.get(Path(fragment.path).relative_to(top).as_posix())
        if recorded is not None and file_digest(Path(fragment.path)) != recorded:
            raise DatasetError(f"{fragment.path} is damaged: its bytes differ from the {DIGEST} digest recorded in "
                               f"{MANIFEST} when it was written; resume the run (the same wizsim simulate "
                               "command) to rewrite it, or pass verify=False to read it as it is")


def check_players(runs: list[tuple[str, dict]]) -> None:
    """Refuse files that disagree about what a player is: the same policy name recorded with two
    identities (``wizsim.identity``: a user's player whose file changed between them), naming two files."""
    seen: dict[str, tuple[dict, str]] = {}
    for where, run in runs:
        names, identities = run.get("policies"), run.get("identities")
        if not isinstance(names, list) or not isinstance(identities, list):
            continue  # written before wizsim recorded its players
        for name, ident in zip(names, identities, strict=False):
            if not isinstance(name, str) or not isinstance(ident, dict):
                continue
            first = seen.setdefault(name, (ident, where))
            if first[0] != ident:
                raise DatasetError(f"{first[1]} and {where} disagree about the player {name!r} ({describe(first[0])} "
                                   f"against {describe(ident)}): their rows are not one player's; read them from "
                                   "separate folders")


def warn_if_unfinished(path: Path, run: dict | None, dataset, expr) -> None:
    """A ``DatasetWarning`` when the run is not complete or the files read come from several runs; a
    ``DatasetError`` when they disagree about a player (``check_players``)."""
    if isinstance(run, dict) and run.get("status", "complete") != "complete":
        warnings.warn(f"{_dataset_dir(path)} holds a run that is not complete (status {run.get('status')!r} in "
                      f"{MANIFEST}): the rows read are a part of it; run `{run.get('command', 'the same command')}` "
                      f"again to finish it", DatasetWarning, stacklevel=3)
    run_ids, runs = set(), []
    for fragment in dataset.get_fragments(filter=expr):
        meta = fragment.physical_schema.metadata or {}
        try:
            file_run = json.loads(meta[KEY_RUN])
            run_ids.add(file_run["run_id"])
        except (KeyError, ValueError, TypeError):
            continue
        if isinstance(file_run, dict):
            runs.append((fragment.path, file_run))
    check_players(runs)
    if len(run_ids) > 1:
        warnings.warn(f"{path} mixes files of {len(run_ids)} runs ({', '.join(sorted(run_ids)[:4])}"
                      f"{', ...' if len(run_ids) > 4 else ''}): their rows are not one run's sample",
                      DatasetWarning, stacklevel=3)


def check_columns(columns) -> list[str] | None:
    """``columns`` as a list of names (one name alone is a list of one), else an error naming it."""
    if columns is None:
        return None
    if isinstance(columns, str):
        return [columns]
    if not isinstance(columns, (list, tuple, np.ndarray)) or not all(isinstance(c, str) for c in columns):
        raise DatasetTypeError(f"columns must be a column name or a list of names, got {shorten(repr(columns), 60)}")
    return list(columns)


def check_path(path) -> Path:
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise DatasetTypeError(f"path must be a folder name (str or os.PathLike), got {shorten(repr(path), 60)}")
    if not str(path).strip():
        raise DatasetError("path is empty: give the dataset folder (the --out DIR of wizsim simulate)")
    if not Path(path).exists():
        raise DatasetError(f"path: no such folder {shorten(str(path), 60)!r}")
    return Path(path)


def check_verify(verify) -> bool:
    if not isinstance(verify, (bool, np.bool_)):
        raise DatasetTypeError(f"verify must be True or False, got {shorten(repr(verify), 40)}")
    return bool(verify)


def _scan(dataset, columns, expr, verify: bool) -> pa.Table:
    """The rows read; a page that fails its checksum or cannot be decoded is an error naming its file."""
    options = ds.ParquetFragmentScanOptions(page_checksum_verification=verify)
    try:
        return dataset.to_table(columns=columns, filter=expr, fragment_scan_options=options)
    except pa.ArrowNotImplementedError:
        raise
    except (OSError, pa.ArrowException) as err:
        reason = arrow_reason(err)
    for fragment in dataset.get_fragments(filter=expr):  # which file: read them one at a time
        try:
            fragment.to_table(columns=columns, filter=expr, fragment_scan_options=options)
        except (OSError, pa.ArrowException) as err:
            raise DatasetError(f"{fragment.path} is damaged ({arrow_reason(err)}); resume the run (the same wizsim "
                               "simulate command) to rewrite it") from None
    raise DatasetError(f"cannot read the dataset: {reason}")


def read_table_frame(path: str | os.PathLike, table: str, columns=None, verify=True, **filters) -> pd.DataFrame:
    path = check_path(path)
    columns = check_columns(columns)
    verify = check_verify(verify)
    dataset = open_dataset(path, table)
    if columns is not None:
        unknown = sorted(set(columns) - set(dataset.schema.names))
        if unknown:
            raise DatasetError(f"columns: unknown {unknown}: {table} has {', '.join(dataset.schema.names)}")
    expr = filter_expression(dataset.schema, filters)
    run = read_run_file(path)
    warn_if_unfinished(path, run, dataset, expr)
    if verify:
        check_digests(path, run, dataset.get_fragments(filter=expr))
    try:
        tbl = _scan(dataset, columns, expr, verify)
    except pa.ArrowNotImplementedError as err:
        raise DatasetError(f"cannot apply the filters {shorten(repr(filters), 60)}: {str(err).splitlines()[0][:80]}") \
            from None
    return to_frame(tbl)


_NULLABLE_INTS = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int64(): pd.Int64Dtype()}


def to_frame(tbl: pa.Table) -> pd.DataFrame:
    """A DataFrame; nullable integer columns (game mode's) become pandas' nullable integers, not floats."""
    nullable = [f.name for f in tbl.schema if f.nullable and f.type in _NULLABLE_INTS]
    frame = tbl.drop_columns(nullable).to_pandas()
    for name in nullable:
        frame[name] = tbl.column(name).to_pandas(types_mapper=_NULLABLE_INTS.get)
    return frame[tbl.column_names]


def read_rounds(path: str | os.PathLike, *, columns=None, decode_hands: bool = False, verify: bool = True,
                **filters) -> pd.DataFrame:
    """The rounds table of the dataset in ``path`` as a DataFrame, one row per (round, seat).

    ``filters`` are column=value or column=[values], e.g. ``players=4, round=15, seat=[1, 2]``;
    filters on the partition columns (players, round) open only the matching files.
    ``decode_hands=True`` adds ``hand_text``, each hand in card notation (``"AS,3H,W"``).
    Rows come in file order (round size, then chunk), and within a file by round_index then seat.
    A file read whose bytes differ from the digest its run recorded, or a page that fails its
    checksum, is a ``DatasetError`` naming the file; ``verify=False`` skips both checks.
    """
    if not isinstance(decode_hands, (bool, np.bool_)):
        raise DatasetTypeError(f"decode_hands must be True or False, got {shorten(repr(decode_hands), 40)}")
    columns = check_columns(columns)
    want = None if columns is None else list(columns)
    if decode_hands and want is not None and "hand" not in want:
        want.append("hand")
    frame = read_table_frame(path, "rounds", want, verify, **filters)
    if decode_hands:
        frame["hand_text"] = format_masks(frame["hand"].to_numpy())
        if columns is not None and "hand" not in columns:
            frame = frame.drop(columns="hand")
    return frame



def read_tricks(path: str | os.PathLike, *, columns=None, verify: bool = True, **filters) -> pd.DataFrame:
    """The tricks table (runs written with ``--trick-log``) as a DataFrame, one row per trick; ``verify``
    as for ``read_rounds``."""
    return read_table_frame(path, "tricks", columns, verify, **filters)
