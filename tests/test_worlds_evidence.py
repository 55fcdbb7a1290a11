"""``advisor.evidence.worlds_evidence`` (play advice's exact path): the kernel equals its twin on enumerated and sampled
worlds, and every world the sampler accepts passes it at the sampler's tolerance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play_brute import random_state

from wizsim.advisor import reference  # noqa: E402
from wizsim.advisor.evidence import worlds_evidence  # noqa: E402
from wizsim.advisor.play import count_deals, enumerate_deals
from wizsim.advisor.played import make_play_question
from wizsim.policies import make_slots
from wizsim.sim.worlds import sample_worlds  # noqa: E402


def _twin(state, worlds, turn_ups, tolerance):
    a = state.kernel_args()
    slots = make_slots(["heuristic"])
    evidence = np.ones(state.players, np.bool_)
    evidence[state.me] = False
    out = np.zeros(len(worlds), np.bool_)
    reference.worlds_evidence_kernel(worlds, turn_ups, a["players"], a["r"], a["me"], a["seat_played"], a["trump"],
                                     a["bids"], a["hook"], evidence, slots.params[0], slots.table, tolerance, out)
    return out


@settings(deadline=None, max_examples=25)
@given(players=st.integers(3, 6), seed=st.integers(0, 10_000), frac=st.floats(0.2, 0.95),
       hook=st.booleans(), tolerance=st.integers(0, 2))
def test_kernel_equals_twin_on_sampled_worlds(players, seed, frac, hook, tolerance):
    r = min(60 // players, 3 + seed % 8)
    st_ = random_state(players, r, seed, int(frac * players * r), hook=hook)
    state = make_play_question(**st_).state()
    worlds, turn_ups, _, _ = sample_worlds(state, 40, seed, policy="random")  # bids not conditioned: a mix
    got = worlds_evidence(state, worlds, turn_ups, "heuristic", tolerance)
    assert got.tolist() == _twin(state, worlds, turn_ups, tolerance).tolist()
    assert worlds_evidence(state, worlds, turn_ups, "random", tolerance).all()


@pytest.mark.parametrize("seed", range(6))
def test_sampled_worlds_pass_and_enumerated_match_twin(seed):
    st_ = random_state(4, 15, seed, 60 - 9)
    q = make_play_question(**st_)
    state = q.state()
    worlds, turn_ups, _, tol = sample_worlds(state, 50, seed)
    assert worlds_evidence(state, worlds, turn_ups, "heuristic", tol).all()
    if count_deals(q) <= 5_000:
        worlds, turn_ups = enumerate_deals(q)
        assert worlds_evidence(state, worlds, turn_ups).tolist() == _twin(state, worlds, turn_ups, 0).tolist()
