"""Helper process for the writer-lock race test: takes a folder's writer lock round after round, in
step with a rival process, and counts how many writers hold it at once (see test_dataset_lock.py)."""

from __future__ import annotations

import time
from pathlib import Path


def race(out: str, rounds: int, barrier, guard, holding, overlaps, wins) -> None:
    from wizsim.dataset.lock import writer_lock
    from wizsim.io.parquet import DatasetError

    for i in range(rounds):
        barrier.wait()  # the parent has left a dead writer's lock in the folder
        try:
            with writer_lock(Path(out)):
                with guard:
                    holding.value += 1
                    if holding.value > 1:
                        overlaps[i] += 1
                    wins[i] += 1
                time.sleep(0.01)  # a writer at work: the rival's attempt falls inside this
                with guard:
                    holding.value -= 1
        except DatasetError:
            pass
        barrier.wait()
