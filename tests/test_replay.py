"""The one Python replay of the order of play (``rules.replay``) against the open table, which plays through the
kernels (``policies.rollout.play_card`` / ``close_trick``): for rounds played with random legal choices, the
replay of the cards in order of play names the seat of every card, each trick's winner, the voids and the
leader as the table does; and the Observation's two converters (``table.observation``) agree with it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.cards import FIRST_JESTER
from wizsim.rules.kernels import LED_NONE
from wizsim.rules.replay import leader_now, next_seat, order_of_play
from wizsim.table import Round
from wizsim.table.observation import kernel_view


def random_round(players, r, seed, stop):
    """A round stepped with random legal actions until ``stop`` cards are played (or it is over)."""
    rd = Round(players, r, seed=seed)
    rng = np.random.default_rng(seed)
    while rd.phase != "over" and len(rd.played) < stop:
        legal = rd.legal_actions()
        rd.apply(legal[int(rng.integers(len(legal)))])
    return rd


@settings(deadline=None, max_examples=40)
@given(players=st.integers(3, 6), r=st.integers(1, 10), seed=st.integers(0, 2**32), stop=st.integers(0, 60))
def test_replay_matches_the_table(players, r, seed, stop):
    r = min(r, 60 // players)
    rd = random_round(players, r, seed, stop)
    cards = [c for _, c in rd.played]
    trump = -1 if rd.trump is None else rd.trump
    turns = list(order_of_play(cards, players, trump))
    assert [(t.seat + 1, t.card) for t in turns] == list(rd.played)
    assert [t.winner + 1 for t in turns if t.winner >= 0] == list(rd.trick_winners)
    assert [t.trick for t in turns] == [i // players for i in range(len(cards))]
    for t in turns:  # a trick's lead is set by its first card that is not a Jester
        before = cards[t.position - t.position % players:t.position]
        assert (t.led == LED_NONE) == all(c >= FIRST_JESTER for c in before)
    if rd.phase == "card":
        assert next_seat(turns, players) + 1 == rd.current_player
    obs = rd.observation(1)
    assert leader_now(turns) + 1 == obs.leader
    voids = [set() for _ in range(players)]
    for t in turns:
        if t.void >= 0:
            voids[t.seat].add(t.void)
    assert [set(v) for v in obs.voids] == voids
    seen = kernel_view(obs)  # the kernels' record of the same view
    assert int(seen.n_in_trick) == len(obs.trick) == len(cards) % players
    assert [int(v) for v in seen.voids] == [sum(1 << k for k in v) for v in voids]
    assert [int(seen.tricks[s]) for s in range(players)] == [
        sum(1 for t in turns if t.winner == s) for s in range(players)]
