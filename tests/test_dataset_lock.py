"""The writer lock of a dataset folder: one writer at a time, taken atomically, free again the moment
its holder dies (kill -9 included), and refusal messages that name the holder."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from lock_racer import race

from wizsim.dataset.lock import LOCK, writer_lock
from wizsim.dataset.run import write_dataset
from wizsim.io.parquet import DatasetError

RACE_ROUNDS = 200


def dead_writers_lock() -> str:
    """The text of the lock file a killed writer leaves: it names a process that no longer exists."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    return json.dumps({"host": socket.gethostname(), "pid": dead.pid, "since": "then"})


def test_two_processes_racing_for_a_dead_writers_lock_never_both_take_it(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(3)
    guard = ctx.Lock()
    holding = ctx.Value("i", 0)
    overlaps, wins = ctx.Array("i", RACE_ROUNDS), ctx.Array("i", RACE_ROUNDS)
    stale = dead_writers_lock()
    procs = [ctx.Process(target=race, args=(str(tmp_path), RACE_ROUNDS, barrier, guard, holding, overlaps, wins))
             for _ in range(2)]
    for p in procs:
        p.start()
    try:
        for _ in range(RACE_ROUNDS):
            (tmp_path / LOCK).write_text(stale)
            barrier.wait(timeout=120)
            barrier.wait(timeout=120)
    finally:
        for p in procs:
            p.join(timeout=60)
            if p.is_alive():
                p.kill()
    assert [p.exitcode for p in procs] == [0, 0]
    both = sum(1 for n in overlaps if n)
    assert both == 0, f"two writers held the lock at once in {both} of {RACE_ROUNDS} rounds"
    assert min(wins) >= 1  # every round somebody took the dead writer's lock
    assert sum(w == 1 for w in wins) >= RACE_ROUNDS // 2  # and mostly exactly one: the rival was refused


def test_a_live_writer_keeps_others_out_and_is_named(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    with writer_lock(out):
        with pytest.raises(DatasetError, match=f"being written by another wizsim run \\(process {os.getpid()} on "):
            write_dataset(out, 4, r=3, rounds=10, seed=1)
        with pytest.raises(DatasetError, match="being written"):
            write_dataset(out, 4, r=3, rounds=10, seed=1, overwrite=True)
        assert not (out / "rounds").exists()  # untouched
    assert not (out / LOCK).exists()  # released and removed
    assert write_dataset(out, 4, r=3, rounds=10, seed=1).chunks_written == 1


HOLD = "import sys, time; from pathlib import Path; from wizsim.dataset.lock import writer_lock\n" \
       "with writer_lock(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(600)\n"


def test_a_killed_writers_lock_is_free_at_once(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(DatasetError, match=f"process {holder.pid} "):
            write_dataset(out, 4, r=3, rounds=10, seed=1)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert (out / LOCK).exists()  # a kill -9 leaves the file, but not the lock
    start = time.monotonic()
    assert write_dataset(out, 4, r=3, rounds=10, seed=1).chunks_written == 1
    assert time.monotonic() - start < 60 and not (out / LOCK).exists()


def test_a_left_over_lock_file_of_an_older_wizsim_does_not_block(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    (out / LOCK).write_text(dead_writers_lock())
    assert write_dataset(out, 4, r=3, rounds=10, seed=1).chunks_written == 1


def test_a_symlinked_lock_is_refused(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    (tmp_path / "elsewhere").write_text("keep")
    (out / LOCK).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DatasetError, match="symbolic link"):
        write_dataset(out, 4, r=3, rounds=10, seed=1)
    assert (tmp_path / "elsewhere").read_text() == "keep"
