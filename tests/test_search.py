"""The search policy (``policies.search``): a registered policy usable wherever a name is, decisions that
see only the seat's information, results that depend only on (seed, round index), and the obvious
choices made. Its strength against the heuristic is measured in benchmarks/strength.py, not here."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import cards_of, suits_of

from wizsim import simulate_rounds
from wizsim.bits import bit
from wizsim.cli import main
from wizsim.config import ConfigError
from wizsim.deal.kernels import stream_key
from wizsim.policies import check_policy, make_slots, policy_entry
from wizsim.policies.dispatch import kernel_ext
from wizsim.policies.records import Fixed, Log, RoundState, Seats
from wizsim.sim.round import BID_FORCED, BID_FREE, TRUMP_BY_RULES, play_round

SMALL = "search:worlds=8:doublings=1"


def test_search_is_registered_with_its_strength_parameter():
    assert check_policy("search") == "search"
    assert check_policy("search:64") == "search:worlds=64"
    assert check_policy("SEARCH:worlds=8:doublings=1") == SMALL
    assert not policy_entry("search").hand_blind and not policy_entry("search").deterministic_play
    with pytest.raises(ConfigError, match="worlds must be 1..4096"):
        check_policy("search:0")
    with pytest.raises(ConfigError, match="whole number"):
        check_policy("search:2.5")


def _round(players, r, seat_policies, hands_fixed, turn_up, deal_seed, play_seed, forced_bids=None):
    slots = make_slots(seat_policies)
    seat_slot = np.array([slots.slot_of(p) for p in seat_policies], np.int8)
    fixed = np.zeros(players, np.uint64)
    for s, h in hands_fixed.items():
        fixed[s] = h
    bid_mode = np.full(players, BID_FREE if forced_bids is None else BID_FORCED, np.int8)
    fixed_bids = np.array(forced_bids or [0] * players, np.int8)
    deal_rng = np.array([deal_seed], np.uint64)
    play_rng = np.array([play_seed], np.uint64)
    out = dict(hands=np.zeros(players, np.uint64), bids=np.zeros(players, np.int8),
               tricks=np.zeros(players, np.int8), scores=np.zeros(players, np.int16),
               log=np.zeros(players * r, np.int8))
    state = RoundState(np.zeros(players, np.uint64), np.zeros(players, np.uint64), np.zeros(players, np.int8),
                       np.zeros(players, np.int8), out["bids"], out["tricks"])
    play_round(players, r, False, Seats(seat_slot, slots.kinds, slots.params, slots.table),
               Fixed(fixed, bit(turn_up), TRUMP_BY_RULES, bid_mode, fixed_bids), (deal_rng, play_rng), state,
               (out["hands"], out["scores"]), Log(True, out["log"], np.zeros(r, np.int8), np.zeros(r, np.int8)),
               kernel_ext(slots.kinds))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_bid_does_not_change_when_the_hidden_cards_do(seed):
    """Seat 1 (search) bids first: the same hand, turned-up card and play stream give the same bid
    whatever the other seats were dealt."""
    hand = sum(1 << c for c in (3, 12, 20, 33, 41, 52, 56))
    turn_up = 5  # a spade: trump by the rules, no draw
    got = set()
    hidden = set()
    for deal in range(6):
        out = _round(4, 7, [SMALL, "heuristic", "heuristic", "heuristic"], {0: hand}, turn_up,
                     int(stream_key(seed, deal, 0)), int(stream_key(seed, 99, 1)))
        got.add(int(out["bids"][0]))
        hidden.add(tuple(int(h) for h in out["hands"][1:]))
    assert len(hidden) == 6  # the other hands did change
    assert len(got) == 1


@pytest.mark.parametrize("seed", range(4))
def test_the_cards_do_not_change_when_the_hidden_cards_do(seed):
    """Bids forced, seat 1 (heuristic, its hand fixed) leads, seat 2 (search, its hand fixed) follows: the
    first card of seat 2 sees the same thing on every deal and must be the same."""
    h0 = sum(1 << c for c in (0, 14, 27, 40, 50))
    h1 = sum(1 << c for c in (2, 9, 16, 30, 53))
    firsts = set()
    hidden = set()
    for deal in range(6):
        out = _round(4, 5, ["heuristic", SMALL, "heuristic", SMALL], {0: h0, 1: h1}, 7,
                     int(stream_key(seed, deal, 0)), int(stream_key(seed, 7, 1)), forced_bids=[1, 2, 0, 1])
        firsts.add((int(out["log"][0]), int(out["log"][1])))
        hidden.add(tuple(int(h) for h in out["hands"][2:]))
    assert len(hidden) == 6
    assert len(firsts) == 1


def test_obvious_bids():
    """Round 1: a Wizard in seat 1 takes the trick, a Jester never does; search bids so."""
    for card, want in ((52, 1), (56, 0)):
        for seed in range(3):
            b = simulate_rounds(4, 1, 1, [SMALL, "heuristic", "heuristic", "heuristic"], seed=seed,
                                fixed_hands=np.array([bit(card), 0, 0, 0], np.uint64),
                                bid_mode=np.zeros(4, np.int8)).bids
            assert int(b[0, 0]) == want


def test_results_depend_only_on_seed_and_round_index():
    pol = [SMALL, "heuristic", SMALL, "random"]
    whole = simulate_rounds(4, 6, 24, pol, seed=5, threads=1)
    parts = [simulate_rounds(4, 6, 10, pol, seed=5, threads=2),
             simulate_rounds(4, 6, 14, pol, seed=5, first_index=10, threads=2)]
    for name in ("hands", "bids", "tricks", "scores"):
        np.testing.assert_array_equal(getattr(whole, name),
                                      np.concatenate([getattr(p, name) for p in parts]), err_msg=name)


def test_simulate_names_it_as_stored():
    res = CliRunner().invoke(main, ["simulate", "--players", "4", "--round", "3", "--rounds", "8", "--json",
                                    "--policies", "search:4,heuristic"])
    assert res.exit_code == 0, res.output
    assert "search:worlds=4" in json.dumps(json.loads(res.output))


def test_a_bad_strength_is_one_line_exit_2():
    res = CliRunner().invoke(main, ["simulate", "--players", "4", "--round", "3", "--rounds", "8",
                                    "--policies", "search:worlds=0"])
    assert res.exit_code == 2
    assert "worlds must be 1..4096" in res.output and "Traceback" not in res.output


# --- kernel and twin (policies.reference) ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from play_brute import random_state  # noqa: E402

from wizsim.advisor.played import make_play_question  # noqa: E402
from wizsim.deal.reference import Stream  # noqa: E402
from wizsim.policies import reference  # noqa: E402
from wizsim.policies.observation import Obs  # noqa: E402
from wizsim.policies.search import search_bid, search_card, search_trump  # noqa: E402
from wizsim.rules.kernels import legal_mask  # noqa: E402


def _params(worlds=3, doublings=1, play_trust=0.0):
    from wizsim.policies import parse_policy

    return parse_policy(f"search:worlds={worlds}:doublings={doublings}:play_trust={play_trust}").params_row()


def _obs(seat, players, r, hook, hand, forbidden, turn_up, trump, bids):
    """A bid or trump decision's observation record."""
    i = np.int64
    return Obs(i(seat), i(players), i(r), hook, np.uint64(hand), np.uint64(0), i(forbidden), i(turn_up), i(trump),
               np.array(bids, np.int8), np.zeros(players, np.int8), np.zeros(players, np.uint64), np.uint64(0),
               np.full(players, -1, np.int8), i(0), i(-1), i(-1), np.zeros(players, np.int8))


def _search_card_both_ways(players, r, seed, n_played, hook, play_trust=0.0):
    """search_card, kernel and twin, on one state; returns the turned-up card. The twin finds the legal
    cards itself (rules twin), the kernel is given them."""
    truth: dict = {}
    q = make_play_question(**random_state(players, r, seed, n_played, hook=hook, truth=truth))
    a = q.state().kernel_args()
    params, table = _params(play_trust=play_trust), make_slots(["heuristic"]).table
    legal = legal_mask(a["hand"], q.led)
    turn_up = np.int64(truth["turn_up"])
    rng = np.array([seed], np.uint64)
    obs = Obs(a["me"], a["players"], a["r"], hook, a["hand"], legal, np.int64(-1), turn_up, a["trump"], a["bids"],
              a["tricks"], a["seat_played"], a["played"], a["trick_cards"], a["n_in_trick"], np.int64(q.led),
              np.int64(-1), a["voids"])
    got = search_card(params, table, obs, rng, True)
    stream = Stream(seed)
    want = reference.search_card(params, table, q.me, players, r, hook, set(q.hand), truth["turn_up"], q.trump,
                                 list(q.bids), list(q.tricks), [cards_of(m) for m in q.seat_played],
                                 list(q.trick_cards), [suits_of(v) for v in q.voids], stream)
    assert int(got) == want
    assert int(rng[0]) == stream.state  # the same draws
    return truth["turn_up"], q.me


@settings(deadline=None, max_examples=25)
@given(players=st.integers(3, 5), seed=st.integers(0, 10_000), frac=st.floats(0.0, 0.9), hook=st.booleans(),
       play_trust=st.sampled_from([0.0, 0.5, 1.0]))
def test_search_card_kernel_equals_twin(players, seed, frac, hook, play_trust):
    """At play trust above 0 the current trick's cards weigh the worlds too (inference from play)."""
    r = 1 + seed % 5
    _search_card_both_ways(players, r, seed, int(frac * players * r), hook, play_trust)


def test_search_card_kernel_equals_twin_with_a_named_trump_as_evidence():
    """Deals with a Wizard turned up (searched for among seeds): the dealer's named trump is evidence."""
    from wizsim.cards import FIRST_JESTER, FIRST_WIZARD

    found = 0
    for seed in range(2000):
        players, r = 3 + seed % 3, 1 + seed % 4
        deal: dict = {}
        random_state(players, r, seed, 0, truth=deal)  # the same deal whatever is played of it
        if not FIRST_WIZARD <= deal["turn_up"] < FIRST_JESTER:
            continue
        turn_up, me = _search_card_both_ways(players, r, seed, (seed * 3) % (players * r), seed % 2 == 1)
        assert turn_up == deal["turn_up"]
        found += me != players - 1
        if found == 8:
            return
    raise AssertionError(f"only {found} deals with a Wizard turned up and a seat not the dealer to play")


@settings(deadline=None, max_examples=25)
@given(players=st.integers(3, 5), seed=st.integers(0, 10_000), hook=st.booleans(), dealer_wizard=st.booleans())
def test_search_bid_and_trump_kernels_equal_twins(players, seed, hook, dealer_wizard):
    import random

    rr = random.Random(seed)
    r = 1 + seed % 4
    deck = list(range(60))
    rr.shuffle(deck)
    params, table = _params(), make_slots(["heuristic"]).table
    if dealer_wizard:
        hand = sum(1 << c for c in deck[:r] if c != 52)
        rng = np.array([seed], np.uint64)
        got = search_trump(params, table, _obs(players - 1, players, r, hook, hand, -1, 52, -1, [-1] * players), rng,
                           True)
        stream = Stream(seed)
        assert int(got) == reference.search_trump(params, table, players, r, hook, cards_of(hand), 52, stream)
        assert int(rng[0]) == stream.state
        return
    seat = rr.randrange(players)
    hand = sum(1 << c for c in deck[:r])
    turn_up = deck[r]
    trump = turn_up // 13 if turn_up < 52 else (-1 if turn_up >= 56 else 2)
    bids = [rr.randrange(r + 1) if s < seat else -1 for s in range(players)]
    forbidden = r - sum(bids[:seat]) if hook and seat == players - 1 and 0 <= r - sum(bids[:seat]) <= r else -1
    rng = np.array([seed], np.uint64)
    got = search_bid(params, table, _obs(seat, players, r, hook, hand, forbidden, turn_up, trump, bids), rng, True)
    stream = Stream(seed)
    assert int(got) == reference.search_bid(params, table, seat, players, r, hook, cards_of(hand), turn_up, trump, bids,
                                            forbidden, stream)
    assert int(rng[0]) == stream.state


def test_a_dataset_records_the_strength(tmp_path):
    import pandas as pd
    import pyarrow.parquet as pq

    out = tmp_path / "d"
    res = CliRunner().invoke(main, ["simulate", "--players", "4", "--round", "2", "--rounds", "20", "--out", str(out),
                                    "--policies", "search:worlds=4,heuristic"])
    assert res.exit_code == 0, res.output
    (part,) = (out / "rounds").rglob("*.parquet")
    assert sorted(pd.read_parquet(part)["policy"].unique()) == ["heuristic", "search:worlds=4"]
    run = json.loads(pq.read_metadata(part).metadata[b"wizsim.run"])
    assert run["policies"] == ["search:worlds=4", "heuristic"] * 2
