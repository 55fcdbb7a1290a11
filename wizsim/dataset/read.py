"""Load a wizsim dataset into pandas, reading only the partitions and rows the filters allow."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from wizsim.cards import format_masks
from wizsim.io.parquet import DatasetError, open_dataset


def filter_expression(schema, filters: dict):
    """``column=value`` (equality) or ``column=[values]`` (membership), joined by AND."""
    expr = None
    for name, value in filters.items():
        if name not in schema.names:
            raise DatasetError(f"cannot filter on {name!r}: the columns are {', '.join(schema.names)}")
        field = ds.field(name)
        if isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
            term = field.isin(list(value))
        else:
            term = field == value
        expr = term if expr is None else expr & term
    return expr


def read_table_frame(path: str | os.PathLike, table: str, columns=None, **filters) -> pd.DataFrame:
    dataset = open_dataset(path, table)
    if columns is not None:
        columns = list(columns)
        unknown = sorted(set(columns) - set(dataset.schema.names))
        if unknown:
            raise DatasetError(f"unknown columns {unknown}: {table} has {', '.join(dataset.schema.names)}")
    tbl = dataset.to_table(columns=columns, filter=filter_expression(dataset.schema, filters))
    return to_frame(tbl)


_NULLABLE_INTS = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int64(): pd.Int64Dtype()}


def to_frame(tbl: pa.Table) -> pd.DataFrame:
    """A DataFrame; nullable integer columns (game mode's) become pandas' nullable integers, not floats."""
    nullable = [f.name for f in tbl.schema if f.nullable and f.type in _NULLABLE_INTS]
    frame = tbl.drop_columns(nullable).to_pandas()
    for name in nullable:
        frame[name] = tbl.column(name).to_pandas(types_mapper=_NULLABLE_INTS.get)
    return frame[tbl.column_names]


def read_rounds(path: str | os.PathLike, *, columns=None, decode_hands: bool = False, **filters) -> pd.DataFrame:
    """The rounds table of the dataset in ``path`` as a DataFrame, one row per (round, seat).

    ``filters`` are column=value or column=[values], e.g. ``players=4, round=15, seat=[1, 2]``;
    filters on the partition columns (players, round) open only the matching files.
    ``decode_hands=True`` adds ``hand_text``, each hand in card notation (``"AS,3H,W"``).
    Rows come in file order (round size, then chunk), and within a file by round_index then seat.
    """
    want = None if columns is None else list(columns)
    if decode_hands and want is not None and "hand" not in want:
        want.append("hand")
    frame = read_table_frame(path, "rounds", want, **filters)
    if decode_hands:
        frame["hand_text"] = format_masks(frame["hand"].to_numpy())
        if columns is not None and "hand" not in columns:
            frame = frame.drop(columns="hand")
    return frame



def read_tricks(path: str | os.PathLike, *, columns=None, **filters) -> pd.DataFrame:
    """The tricks table (runs written with ``--trick-log``) as a DataFrame, one row per trick."""
    return read_table_frame(path, "tricks", columns, **filters)
