"""dataset.kernels (row expansion) agree with their plain-Python twins in dataset.reference."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.dataset import kernels, reference

masks = st.integers(0, 2**60 - 1)


@st.composite
def round_sets(draw):
    n = draw(st.integers(0, 6))
    p = draw(st.integers(3, 6))
    hands = np.array(draw(st.lists(st.lists(masks, min_size=p, max_size=p), min_size=n, max_size=n)),
                     dtype=np.uint64).reshape(n, p)
    trump = np.array(draw(st.lists(st.integers(-1, 3), min_size=n, max_size=n)), dtype=np.int8)
    turn_up = np.array(draw(st.lists(st.integers(-1, 59), min_size=n, max_size=n)), dtype=np.int8)
    index = np.array(draw(st.lists(st.integers(0, 2**50), min_size=n, max_size=n)), dtype=np.int64)
    return index, hands, trump, turn_up


@settings(deadline=None, max_examples=60)
@given(round_sets())
def test_expand_round_rows_matches_reference(data):
    index, hands, trump, turn_up = data
    m = hands.size
    out = {"round_index": np.empty(m, np.int64)}
    for name in ("seat", "n_wizards", "n_jesters", "n_trumps", "turn_up", "trump"):
        out[name] = np.empty(m, np.int8)
    kernels.expand_round_rows(index, hands, trump, turn_up, (out["round_index"], out["seat"], out["n_wizards"],
                                                             out["n_jesters"], out["n_trumps"], out["turn_up"],
                                                             out["trump"]))
    expected = reference.expand_round_rows(index, hands, trump, turn_up)
    got = [{k: int(v[j]) for k, v in out.items()} for j in range(m)]
    assert got == expected


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 5), st.integers(1, 20), st.integers(3, 6), st.data())
def test_expand_trick_rows_matches_reference(n, r, p, data):
    seats = st.lists(st.lists(st.integers(0, p - 1), min_size=r, max_size=r), min_size=n, max_size=n)
    leader = np.array(data.draw(seats), dtype=np.int8).reshape(n, r)
    winner = np.array(data.draw(seats), dtype=np.int8).reshape(n, r)
    index = np.arange(n, dtype=np.int64) * 7 + 3
    m = n * r
    out_index = np.empty(m, np.int64)
    trick, lead, win = (np.empty(m, np.int8) for _ in range(3))
    kernels.expand_trick_rows(index, leader, winner, out_index, trick, lead, win)
    got = [{"round_index": int(out_index[j]), "trick": int(trick[j]), "leader": int(lead[j]), "winner": int(win[j])}
           for j in range(m)]
    assert got == reference.expand_trick_rows(index, leader, winner)
