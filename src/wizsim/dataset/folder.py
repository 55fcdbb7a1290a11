"""What a dataset folder holds, and which of it wizsim can prove it wrote.

``survey(out)`` walks the whole folder without following links and sorts every entry:

- wizsim's own names: ``_wizsim_run.json`` and the writer lock at the top, the ``rounds/`` and
  ``tricks/`` folders, their ``players=P/round=R/`` folders, and the temporaries of those files
  (``.NAME.xxxxxxxx.tmp``, left by a killed run);
- data files ``TABLE/players=P/round=R/part-NNNNNN.parquet`` (``TABLE/part-NNNNNN.parquet`` in a
  folder of training examples, ``io.schema.EXAMPLE_TABLES``), each proved by its Parquet footer
  (read alone, not the data): a footer with wizsim's run metadata names the run, chunk and row
  count the file holds. A file under such a name that is empty, or a Parquet file cut short (it
  starts with Parquet's magic but has no footer to read), is *damaged*: a run that owns the name
  rewrites it, ``--overwrite`` deletes it;
- anything else (a user's file or folder, a Parquet file without wizsim's metadata, a symbolic
  link anywhere below ``out``) is foreign: ``survey`` raises ``DatasetError`` naming it, so no
  caller can delete or overwrite it.

``check_file(f, spec)`` says whether a surveyed data file is the run's own, complete chunk file.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from wizsim.dataset.lock import LOCK
from wizsim.io.parquet import DatasetError
from wizsim.io.schema import EXAMPLE_TABLES, KEY_FILE, KEY_RUN, KEY_TABLE, TABLES

MANIFEST = "_wizsim_run.json"
PARQUET_MAGIC = b"PAR1"
_PARTITION = {1: re.compile(r"players=\d+"), 2: re.compile(r"round=\d+")}
_PART = re.compile(r"part-\d{6,}\.parquet")
_TEMP = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{8}\.tmp")


class ForeignFileError(DatasetError):
    """The folder holds something wizsim did not write (the message names it)."""


@dataclass(frozen=True)
class DataFile:
    path: Path
    rel: str  # relative to the dataset folder, with "/" separators
    run: dict | None  # the footer's run metadata; None when damaged
    file: dict | None  # the footer's file metadata (chunk, first, stop, unit, players, round)
    table: str | None
    rows: int | None
    damage: str | None = None  # why the file cannot be read ("empty", "truncated: no footer")

    @property
    def run_id(self) -> str | None:
        return None if self.run is None else self.run.get("run_id")


@dataclass
class Survey:
    out: Path
    manifest: Path | None = None
    data: list[DataFile] = field(default_factory=list)
    temporaries: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)  # wizsim's folders, parents before children


def _foreign(path: Path, why: str = "wizsim did not write it") -> ForeignFileError:
    return ForeignFileError(f"{path}: {why}; wizsim never deletes or overwrites files it did not write "
                            "(move it away, or choose another folder)")


def _temp_of(name: str) -> str | None:
    m = _TEMP.fullmatch(name)
    return m.group("name") if m else None


def read_footer(path: Path, rel: str, table: str) -> DataFile:
    """The data file at ``path`` as its footer describes it (damaged, or foreign: raises)."""
    try:
        meta = pq.read_metadata(path)
    except (pa.ArrowInvalid, OSError):
        with open(path, "rb") as fh:
            head = fh.read(len(PARQUET_MAGIC))
        if not head:
            return DataFile(path, rel, None, None, None, None, "empty")
        if head == PARQUET_MAGIC:
            return DataFile(path, rel, None, None, None, None, "truncated: no Parquet footer")
        raise _foreign(path, "not a Parquet file, so wizsim did not write it") from None
    kv = meta.metadata or {}
    try:
        run = json.loads(kv[KEY_RUN])
        info = json.loads(kv[KEY_FILE])
        written_as = kv[KEY_TABLE].decode()
    except (KeyError, ValueError, UnicodeDecodeError):
        raise _foreign(path, "a Parquet file without wizsim's run metadata") from None
    if not isinstance(run, dict) or not isinstance(info, dict) or not isinstance(run.get("run_id"), str):
        raise _foreign(path, "a Parquet file without wizsim's run metadata")
    return DataFile(path, rel, run, info, written_as, meta.num_rows)


def survey(out: Path) -> Survey:
    """Every entry of the dataset folder ``out``, sorted as the module docstring says."""
    found = Survey(out)
    _walk(out, (), found)
    return found


def _walk(folder: Path, parts: tuple[str, ...], found: Survey) -> None:
    depth = len(parts)  # 0: the dataset folder, 1: a table, 2: players=P, 3: round=R
    # the depth of a table's data files: 3 in a partitioned table, 1 in an example table (no partitions)
    files_at = 1 if parts and parts[0] in EXAMPLE_TABLES else 3
    with os.scandir(folder) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        path = Path(e.path)
        st = e.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            raise _foreign(path, "a symbolic link; wizsim does not write or delete through links")
        if stat.S_ISDIR(st.st_mode):
            if depth == 0:
                owned = e.name in TABLES or e.name in EXAMPLE_TABLES
            else:
                owned = depth < files_at and bool(depth in _PARTITION and _PARTITION[depth].fullmatch(e.name))
            if not owned:
                raise _foreign(path, "a folder wizsim did not make")
            found.folders.append(path)
            _walk(path, (*parts, e.name), found)
            continue
        if not stat.S_ISREG(st.st_mode):
            raise _foreign(path, "not a regular file")
        if depth == 0 and e.name == MANIFEST:
            found.manifest = path
        elif depth == 0 and e.name == LOCK:
            pass  # the writer lock: held by whoever surveys
        elif _temp_of(e.name) is not None and (
                (depth == 0 and _temp_of(e.name) == MANIFEST) or (depth == files_at and _PART.fullmatch(_temp_of(e.name)))):
            found.temporaries.append(path)
        elif depth == files_at and _PART.fullmatch(e.name):
            found.data.append(read_footer(path, "/".join((*parts, e.name)), parts[0]))
        else:
            raise _foreign(path)


def check_file(f: DataFile, spec, k: int) -> str | None:
    """None when ``f`` is a complete file of chunk ``k`` of ``spec`` under the right name; else what is wrong."""
    if f.damage is not None:
        return f.damage
    if f.run_id != spec.run_id:
        return f"belongs to run {f.run_id}"
    want, rows = spec.expected(f.rel, k)
    got = {key: f.file.get(key) for key in want}
    if f.table != f.rel.split("/")[0] or got != want:
        return "metadata of another file"
    if rows is not None and f.rows != rows:
        return f"{f.rows} rows, expected {rows}"
    return None


def remove_owned(found: Survey, keep_manifest: bool = False) -> None:
    """Delete what a survey proved to be wizsim's: data files, temporaries, the manifest, empty folders."""
    for f in found.data:
        f.path.unlink(missing_ok=True)
    for p in found.temporaries:
        p.unlink(missing_ok=True)
    if found.manifest is not None and not keep_manifest:
        found.manifest.unlink(missing_ok=True)
    remove_empty_folders(found.folders)


def remove_empty_folders(folders: list[Path]) -> None:
    for d in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            d.rmdir()
        except FileNotFoundError:
            pass
        except OSError:  # not empty: it holds data that stays
            pass
