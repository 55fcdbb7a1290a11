"""One writer per dataset folder.

A second ``wizsim simulate --out DIR`` started while the first is still writing would delete the
first one's temporaries (a resuming run clears them), or with ``--overwrite`` its data. The writer
therefore holds ``DIR/.wizsim-writing.lock`` (created exclusively; readers skip ``.`` names), which
records its host and process id. A lock left behind by a killed run is taken over when its process
is gone from this host; a lock held from another host is never guessed about.
"""

from __future__ import annotations

import json
import os
import socket
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from wizsim.io.parquet import DatasetError

LOCK = ".wizsim-writing.lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def _holder(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}


def _stale(holder: dict) -> bool:
    pid = holder.get("pid")
    return holder.get("host") == socket.gethostname() and isinstance(pid, int) and not _alive(pid)


@contextmanager
def writer_lock(out: Path):
    """Hold the folder's writer lock for the duration of the block."""
    path = out / LOCK
    me = {"host": socket.gethostname(), "pid": os.getpid(), "since": datetime.now(UTC).isoformat(timespec="seconds")}
    for attempt in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = _holder(path)
            if attempt == 0 and _stale(holder):
                path.unlink(missing_ok=True)  # its writer was killed: take over
                continue
            who = (f"process {holder.get('pid')} on {holder.get('host')} since {holder.get('since')}"
                   if holder else "another process")
            raise DatasetError(f"{out} is being written by another wizsim run ({who}); wait for it to finish, "
                               f"or delete {path} if that run is gone") from None
        with os.fdopen(fd, "w") as f:
            json.dump(me, f)
        break
    try:
        yield
    finally:
        if _holder(path).get("pid") == me["pid"]:
            path.unlink(missing_ok=True)
