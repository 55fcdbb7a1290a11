"""The same seed gives the same rounds and games on 1 and 2 threads, in one batch or in chunks, and in
a fresh process started with NUMBA_NUM_THREADS=1; different seeds give different output."""

import hashlib
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from wizsim import simulate_games, simulate_rounds
from wizsim.sim.kernels import BLOCK

ROUND_FIELDS = ("hands", "turn_up", "trump", "bids", "tricks", "scores", "accepted", "log_cards", "log_leader",
                "log_winner")
GAME_FIELDS = ("first_dealer", "hands", "turn_up", "trump", "bids", "tricks", "scores", "log_cards", "log_leader",
               "log_winner")

N_ROUNDS = 3 * BLOCK + 17  # several blocks (threads' spans) and a ragged last one
needs_two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")


def rounds(**kw):
    return simulate_rounds(5, 6, kw.pop("n", N_ROUNDS), seed=kw.pop("seed", 99), hook=True, trick_log=True, **kw)


def games(**kw):
    return simulate_games(4, kw.pop("n", 40), seed=kw.pop("seed", 99), trick_log=True, **kw)


def assert_equal(a, b, fields):
    for f in fields:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


def concat(parts, fields):
    class Joined:
        pass

    out = Joined()
    for f in fields:
        setattr(out, f, np.concatenate([getattr(p, f) for p in parts]))
    return out


def digest(batch, fields):
    h = hashlib.sha256()
    for f in fields:
        h.update(np.ascontiguousarray(getattr(batch, f)).tobytes())
    return h.hexdigest()


@needs_two_threads
def test_rounds_same_on_one_and_two_threads():
    assert_equal(rounds(threads=1), rounds(threads=2), ROUND_FIELDS)


def test_rounds_same_in_chunks_and_one_batch():
    whole = rounds()
    cuts = [0, 1, 700, 701, 1300, N_ROUNDS]
    parts = [rounds(n=b - a, first_index=a) for a, b in zip(cuts, cuts[1:], strict=False)]
    assert_equal(whole, concat(parts, ROUND_FIELDS), ROUND_FIELDS)


@needs_two_threads
def test_games_same_on_one_and_two_threads():
    assert_equal(games(threads=1), games(threads=2), GAME_FIELDS)


def test_games_same_in_chunks_and_one_batch():
    whole = games()
    parts = [games(n=b - a, first_game=a) for a, b in ((0, 1), (1, 17), (17, 40))]
    assert_equal(whole, concat(parts, GAME_FIELDS), GAME_FIELDS)
    by_ids = simulate_games(4, 40, seed=99, trick_log=True, game_ids=np.arange(40)[::-1])
    # a game depends on its id, not on its row in the batch
    for f in ("first_dealer", "scores", "log_cards"):
        assert np.array_equal(getattr(by_ids, f)[::-1], getattr(whole, f)), f


def test_same_in_a_fresh_process_with_one_thread():
    code = (
        f"import hashlib, numpy as np, sys; sys.path.insert(0, {os.path.dirname(__file__)!r});"
        "from test_sim_reproducibility import rounds, games, digest, ROUND_FIELDS, GAME_FIELDS;"
        "print(digest(rounds(), ROUND_FIELDS), digest(games(), GAME_FIELDS))"
    )
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [digest(rounds(), ROUND_FIELDS), digest(games(), GAME_FIELDS)]


def test_same_seed_same_output_different_seed_different_output():
    a, b, c = rounds(n=300), rounds(n=300), rounds(n=300, seed=100)
    assert_equal(a, b, ROUND_FIELDS)
    assert (a.hands != c.hands).any(axis=1).all()
    ga, gc = games(n=5), games(n=5, seed=100)
    assert not np.array_equal(ga.scores, gc.scores)
