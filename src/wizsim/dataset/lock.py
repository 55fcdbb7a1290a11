"""One writer per dataset folder.

A second ``wizsim simulate --out DIR`` started while the first is still writing would delete the
first one's temporaries (a resuming run clears them), or with ``--overwrite`` its data. The writer
therefore holds an exclusive ``flock`` on ``DIR/.wizsim-writing.lock`` for the run's life (readers
skip ``.`` names). The kernel takes the lock atomically and drops it when the holder's process
ends however it ends (a kill -9 included), so a killed writer's lock is free at once: nobody guesses
from a process id whether its writer is still alive. The file's text (host, pid, since) only names
the holder in the refusal message.

The holder deletes the file on release. A process that opened the file just before it was deleted
would lock an orphaned inode, so after taking the lock a writer checks that the path still names
the inode it locked, and starts over if not. On Linux, NFS clients map ``flock`` to the server's
byte-range locks, so writers on several hosts of one NFS folder exclude each other too.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from wizsim.io.parquet import DatasetError

LOCK = ".wizsim-writing.lock"


def _holder(path: Path) -> dict:
    try:
        text = path.read_text()
        holder = json.loads(text)
    except (OSError, ValueError):  # gone, being written, or not ours to read
        return {}
    return holder if isinstance(holder, dict) else {}


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def acquire(out: Path) -> int:
    """Take the writer lock of ``out``; returns the open descriptor that holds it (``release`` it)."""
    path = out / LOCK
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise DatasetError(f"{path} is a symbolic link; wizsim does not write through links") from None
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = _holder(path)
            who = (f"process {holder.get('pid')} on {holder.get('host')} since {holder.get('since')}"
                   if holder else "another process")
            raise DatasetError(f"{out} is being written by another wizsim run ({who}); wait for it to finish") from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            break
        os.close(fd)  # the previous holder deleted the file between our open and our lock: go again
    try:
        me = {"host": socket.gethostname(), "pid": os.getpid(),
              "since": datetime.now(UTC).isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode(), 0)
    except BaseException:
        release(out, fd)
        raise
    return fd


def release(out: Path, fd: int) -> None:
    # Delete while still holding the lock, so a waiting writer never sees the file empty and unlocked.
    try:
        if _same_file(fd, out / LOCK):
            (out / LOCK).unlink(missing_ok=True)
    except OSError:
        pass  # a folder that became unwritable keeps the (unlocked, so free) file
    finally:
        os.close(fd)


@contextmanager
def writer_lock(out: Path):
    """Hold the folder's writer lock for the duration of the block."""
    fd = acquire(out)
    try:
        yield
    finally:
        release(out, fd)
