"""Is a data file's content what wizsim wrote? Two checks, both beyond the footer.

- **Digest.** The run file ``_wizsim_run.json`` records the SHA-256 of every data file's bytes as
  written (``"digests": {relative path: hex}``), so any changed byte anywhere in the file (data,
  page headers, footer) is found by hashing it again (``content_damage``).
- **Page checksums.** Every page of every file carries a CRC-32 of its bytes in its header (Parquet's
  page checksums, written by ``io.parquet.encode``), so a reader that decodes a page with
  verification on refuses a changed one, even without the run file (``decode_damage``; pyarrow's
  ``page_checksum_verification``). Files written before wizsim wrote checksums decode unchecked.

A file the run file holds no digest for (written by an older wizsim, written in the seconds before a
kill, or the run file was rebuilt) is checked by decoding every page; resume then records its digest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

DIGEST = "sha256"
_BATCH_ROWS = 1 << 16  # decode in batches: a check holds a small part of a file in memory


def digest(data) -> str:
    """The hex digest of bytes-like ``data`` (a pyarrow Buffer included)."""
    return hashlib.new(DIGEST, memoryview(data)).hexdigest()


def file_digest(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, DIGEST).hexdigest()


def arrow_reason(err: Exception) -> str:
    """The first line of an Arrow error, which names no file (the caller does)."""
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:120]


def decode_damage(path: Path) -> str | None:
    """None when every page of the file decodes and matches its checksum (where it has one); else why not."""
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        for _ in pf.iter_batches(batch_size=_BATCH_ROWS):
            pass
    except (OSError, pa.ArrowException) as err:
        return f"damaged: {arrow_reason(err)}"
    return None


def content_damage(path: Path, recorded: str | None) -> str | None:
    """None when the file's bytes hash to ``recorded`` (or, with no digest recorded, every page decodes
    and checks out); else why not, in words for the report."""
    if recorded is None:
        return decode_damage(path)
    if file_digest(path) != recorded:
        return f"damaged: its bytes differ from the {DIGEST} digest recorded when it was written"
    return None
