"""The round kernel's two trick loops agree: a table of random policies runs the lean loop
(``sim.round._random_tricks``); the general loop (``policies.rollout.play_tricks``, every card through
``policies.dispatch.choose_card_light``, where ``choose_card`` sends every kind but the search policy)
must give that table the same cards, tricks and scores.

The general loop is forced by a policy kind that is not ``RANDOM`` but that the dispatcher still
plays as the random policy (its fall-through case); the first test checks that premise."""

import dataclasses

import numpy as np
from hypothesis import given, settings
from strategies import round_indices, round_setups, seeds

from wizsim import simulate_rounds
from wizsim.policies import make_slots
from wizsim.policies.dispatch import RANDOM, choose_card_light
from wizsim.policies.observation import Obs
from wizsim.sim.driver import PolicySlots

OTHER_KIND = 127  # no policy has this kind: dispatch falls through to the random policy


def general_loop_slots() -> PolicySlots:
    slots = make_slots(["random"])
    return dataclasses.replace(slots, kinds=np.array([OTHER_KIND], dtype=np.int8))


def test_unknown_kind_is_dispatched_to_the_random_policy():
    assert OTHER_KIND != RANDOM
    legal = np.uint64(0b1011_0110)
    for state in range(50):
        picks = []
        for kind in (RANDOM, OTHER_KIND):
            rng = np.array([state], dtype=np.uint64)
            obs = Obs(0, 4, 5, False, legal, legal, -1, 0, -1, None, None, None, np.uint64(0), None, 0, -1, -1, None)
            picks.append(int(choose_card_light.py_func(kind, None, None, obs, rng, None)))
        assert picks[0] == picks[1]


FIELDS = ("hands", "turn_up", "trump", "bids", "tricks", "scores", "accepted", "log_cards", "log_leader",
          "log_winner")


@settings(deadline=None, max_examples=40)
@given(seeds, round_indices, round_setups())
def test_lean_and_general_trick_loops_agree(seed, index, setup):
    players, r, hook = setup
    kw = dict(seed=seed, hook=hook, first_index=index, trick_log=True)
    lean = simulate_rounds(players, r, 4, **kw)
    general = simulate_rounds(players, r, 4, slots=general_loop_slots(), **kw)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(lean, name), getattr(general, name), err_msg=name)
