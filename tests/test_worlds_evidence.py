"""Play advice's world weights (``advisor.play.weigh_worlds`` over ``advisor.kernels.evidence.world_likelihoods_kernel``):
on every enumerated world of small states, the likelihood of what the opponents did equals the twins'
(``tests/play_brute.heard``: the heuristic's bid, trump and card twins weighed by the model's twins)."""

from __future__ import annotations

import numpy as np
import pytest
from play_brute import heard, heard_mixed, random_state

from wizsim.advisor.opponents import OpponentModel, opponent_names
from wizsim.advisor.play import count_deals, enumerate_deals, weigh_worlds
from wizsim.advisor.played import make_play_question
from wizsim.cards import mask_to_cards
from wizsim.policies.records import Opponents, RoundInfo, RoundState


def _states():
    out = []
    for players, r, back, seeds in [(3, 3, 5, range(6)), (4, 15, 9, range(4)), (3, 20, 7, range(3))]:
        for seed in seeds:
            st = random_state(players, r, seed, players * r - back)
            n = count_deals(make_play_question(**st))
            if n is not None and n <= 3_000:
                out.append(st)
    return out


STATES = _states()


def test_states_were_found():
    assert len(STATES) >= 4


@pytest.mark.parametrize("trusts", [(1.0, 0.0), (0.7, 0.5), (0.3, 0.9), (0.0, 0.0)])
@pytest.mark.parametrize("st", STATES)
def test_world_weights_equal_the_twins(st, trusts):
    bid_trust, play_trust = trusts
    q = make_play_question(**st)
    model = OpponentModel.build(opponent_names(None, q.players, q.seat), q.me, "heuristic", bid_trust, play_trust)
    worlds, turn_ups = enumerate_deals(q)
    like, u, _, _ = weigh_worlds(q, q.state(), model, worlds, turn_ups, seed=5, first_index=0)
    others = [s for s in range(q.players) if s != q.me]
    want = [heard(q, {s: {int(c) for c in mask_to_cards(int(worlds[i, s]))} for s in others}, int(turn_ups[i]),
                  bid_trust, play_trust) for i in range(len(worlds))]
    assert like.tolist() == pytest.approx(want, rel=1e-9, abs=1e-300)
    assert ((0 <= u) & (u < 1)).all()
    if bid_trust == 0 and play_trust == 0:
        assert (like == 1).all()
    if bid_trust < 1:
        assert (like > 0).all()  # soft evidence: no legal world is impossible
    assert np.unique(u).size == len(u)


@pytest.mark.parametrize("trusts", [(1.0, 0.0), (0.7, 0.5), (0.0, 0.9), (0.0, 0.0)])
@pytest.mark.parametrize("doubts", [(0.2, 0.0), (0.2, 0.15), (0.0, 0.5)])
@pytest.mark.parametrize("st", STATES)
def test_world_weights_with_the_table_in_doubt_equal_the_twins(st, trusts, doubts):
    """The mixture of the model's table and the blind one (``doubt``), each seat also blind on its own
    (``seat_doubt``): each world's weight is the prior-weighted sum, over the blind table and every set of
    seats blind on their own, of the probabilities of what the opponents did, from the twins."""
    bid_trust, play_trust = trusts
    doubt, seat_doubt = doubts
    q = make_play_question(**st)
    model = OpponentModel.build(opponent_names(None, q.players, q.seat), q.me, "heuristic", bid_trust, play_trust,
                                0.0, doubt, seat_doubt)
    worlds, turn_ups = enumerate_deals(q)
    like, _, _, _ = weigh_worlds(q, q.state(), model, worlds, turn_ups, seed=5, first_index=0)
    others = [s for s in range(q.players) if s != q.me]
    want = [heard_mixed(q, {s: {int(c) for c in mask_to_cards(int(worlds[i, s]))} for s in others},
                        int(turn_ups[i]), bid_trust, play_trust, doubt, seat_doubt) for i in range(len(worlds))]
    assert like.tolist() == pytest.approx(want, rel=1e-9, abs=1e-300)
    assert (like > 0).all()


@pytest.mark.parametrize("st", STATES[:3])
def test_a_table_surely_blind_with_its_cards_untrusted_is_conditioning_on_nothing(st):
    """``doubt`` 1 leaves only the blind table: heard bids tell nothing, so (cards untrusted too) the exact
    answer is the one that weighs nothing. The default is the bid advisor's prior, 0.2."""
    from wizsim import advise_play

    blind = advise_play(**st, doubt=1.0, play_trust=0.0, method="exact")
    nothing = advise_play(**st, bid_trust=0.0, play_trust=0.0, method="exact")
    assert blind.p_make.tolist() == pytest.approx(nothing.p_make.tolist(), abs=1e-12)
    assert blind.ev.tolist() == pytest.approx(nothing.ev.tolist(), abs=1e-9)
    assert advise_play(**st, method="exact").to_dict() == advise_play(**st, doubt=0.2, method="exact").to_dict()


@pytest.mark.parametrize("trust", [0.5, 1.0])
@pytest.mark.parametrize("st", STATES)
def test_the_current_tricks_likelihood_is_the_twin(st, trust):
    """The search policy's inference from play (``model.trick_likelihood``): on every enumerated world, the
    current trick's cards weighed by the kernel equal the twin's; trust 0 weighs nothing."""
    from wizsim.policies import model as k
    from wizsim.policies import reference as ref

    q = make_play_question(**st)
    s = q.state()
    a = s.kernel_args()
    kinds = np.ones(q.players, np.int8)
    kinds[q.me] = 0
    worlds, turn_ups = enumerate_deals(q)
    def kernel(i, trust):
        info = RoundInfo(a["players"], a["r"], a["hook"], np.int64(turn_ups[i]), a["trump"])
        state = RoundState(worlds[i], a["seat_played"], a["voids"], a["trick_cards"], a["bids"], a["tricks"])
        return k.trick_likelihood(Opponents(kinds, np.zeros((q.players, 1)), np.zeros(1), 0.0, trust, 0.0), info, state,
                                  a["me"], a["played"], a["n_in_trick"], a["leader"])

    for i in range(min(len(worlds), 300)):
        got = kernel(i, trust)
        hands = [set(int(c) for c in mask_to_cards(int(worlds[i, p]))) for p in range(q.players)]
        voids = [{suit for suit in range(4) if v >> suit & 1} for v in s.voids]
        want = ref.trick_likelihood(Opponents(kinds, None, None, 0.0, trust, 0.0),
                                    RoundInfo(q.players, q.r, q.hook, int(turn_ups[i]), q.trump),
                                    RoundState(hands, None, voids, list(s.trick_cards), list(q.bids), list(s.tricks)),
                                    q.me, [int(c) for c in mask_to_cards(s.played)], s.leader)
        assert got == pytest.approx(want, rel=1e-12)
        assert kernel(i, 0.0) == 1.0
