"""A seat's observation made from what it saw (issue 34 item 5, ``wizsim.observe``): at every decision of
real rounds on wizsim's own table, the observation built from the seat's history (its hand, the bids, the
cards played in order, the turned-up card and trump) equals the one ``Round`` hands the player, field by
field; an impossible history is refused with ``advise_play``'s own message; and the README's example of
seating wizsim at a loop of the user's own runs."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wizsim
from wizsim import AdviceError, Round, observe
from wizsim.cards import format_card, format_cards, format_trump


def history(obs, text=False):
    """What seat ``obs.seat`` saw, as ``observe`` takes it: ids, or the CLI's text (``text``)."""
    heard = [b for b in obs.bids if b is not None]
    played = [c for _, c in obs.played]
    kw = dict(players=obs.players, hook=obs.hook, bids=heard, played=played,
              trump_card=None if obs.turn_up < 0 else obs.turn_up)
    if not text:
        return dict(hand=list(obs.hand), trump=obs.trump, seat=obs.seat, **kw)
    p = obs.players
    kw["played"] = "/".join(format_cards(played[i:i + p]) for i in range(0, len(played), p))
    kw["bids"] = ",".join(map(str, heard))
    kw["trump_card"] = None if obs.turn_up < 0 else format_card(obs.turn_up)
    return dict(hand=format_cards(obs.hand), trump=None if obs.trump is None else format_trump(obs.trump),
                seat=obs.seat, **kw)


@settings(deadline=None, max_examples=60)
@given(players=st.integers(3, 6), r=st.integers(1, 20), hook=st.booleans(), seed=st.integers(0, 2**40),
       names=st.lists(st.sampled_from(["heuristic", "random"]), min_size=6, max_size=6))
def test_the_observation_from_the_history_is_the_one_the_round_hands_the_player(players, r, hook, seed, names):
    r = min(r, 60 // players)
    rd = Round(players, r, seed=seed, hook=hook)
    seats = [wizsim.player(n) for n in names[:players]]
    decisions = 0
    while not rd.is_over:
        seat = rd.current_player
        obs = rd.observation(seat)
        got = observe(**history(obs))
        for field in obs.__dataclass_fields__:  # field by field: a failure names the field
            assert getattr(got, field) == getattr(obs, field), (field, obs.information_state())
        assert got == obs
        # the CLI's text (Wizards and Jesters by name, not id) gives the same information state
        assert observe(**history(obs, text=True)).information_state() == obs.information_state()
        rd._step(seats[seat - 1])
        decisions += 1
    assert decisions == players * (r + 1) + (rd.turn_up >= 52 and rd.turn_up < 56)


def _mid_round(seed=5, players=4, r=6, cards=9):
    rd = Round(players, r, seed=seed)
    p = wizsim.player("heuristic", seed=0)
    while rd.phase != "card" or len(rd.played) < cards:
        rd._step(p)
    return rd


def test_voids_leader_trick_and_tricks_come_from_the_order_of_play():
    # trick 1: seat 3 shows no spade and seat 4's ace takes it; trick 2: seat 4 leads, seat 1 shows no spade
    got = observe("KD,2H", "H", seat=2, players=4, bids=[1, 1, 0, 1], trump_card="5H",
                  played="2S,9S,3D,AS/KS,4C")
    assert got.phase == "card" and got.r == 3 and got.hand == (13, 37)
    assert got.played == ((1, 0), (2, 7), (3, 27), (4, 12), (4, 11), (1, 41))
    assert got.voids == (frozenset({0}), frozenset(), frozenset({0}), frozenset())
    assert got.tricks == (0, 0, 0, 1) and got.leader == 4 and got.trick == (11, 41)
    assert got.legal == (13, 37) and got.turn_up == 16 and got.trump == 1


@pytest.mark.parametrize("change", [
    dict(played="AS,KS,AS"),  # a card played twice
    dict(played="KD"),  # a card both held and played
    dict(played="2S,3D,4S"),  # then it is seat 4's turn, not this seat's
    dict(played="2S,3D,4S,5S/6S,7S,9S"),  # seat 2 showed no spade, then played one
    dict(seat=2),  # not this seat's turn
    dict(bids=[1, 1, 1, 9]),  # a bid outside 0..r
    dict(bids=[1, 0, 0, 1], hook=True),  # the dealer's forbidden bid with the hook
    dict(trump="S", trump_card="5H"),  # the trump card says another suit
    dict(trump_card="KD"),  # the turned-up card is held
    dict(played="2S,3S,4S,5S/6S,W,W,W,W,W"),  # five Wizards
])
def test_an_impossible_history_is_refused_with_advise_plays_message(change):
    q = dict(hand="KD,7C", trump="H", seat=1, players=4, bids=[1, 0, 1, 0], played="", trump_card="5H")
    q.update(change)
    with pytest.raises(AdviceError) as want:
        wizsim.advise_play(**q, samples=10)
    with pytest.raises(AdviceError) as got:
        observe(**q)
    assert str(got.value) == str(want.value)


def test_the_bidding_and_the_dealers_trump_are_observed_too():
    # a turned-up Wizard: the dealer, before any bid, names trump
    got = observe("AS,3H", None, seat=4, players=4, trump_card="W")
    assert got.phase == "trump" and got.trump is None and got.legal == (0, 1, 2, 3) and got.turn_up == 52
    # the bidding: seat 3 heard two bids; the hook forbids the dealer 1 here
    got = observe("AS,3H", "S", seat=3, players=4, bids="1,0", trump_card="7S")
    assert got.phase == "bid" and got.bids == (1, 0, None, None) and got.legal == (0, 1, 2)
    got = observe("AS,3H", "S", seat=4, players=4, bids="1,0,0", trump_card="7S", hook=True)
    assert got.legal == (0, 2)
    for bad, match in [(dict(seat=1), "seat 1 bids first"), (dict(trump=None), "Wizard was turned up"),
                       (dict(played="9C"), "cards were played but only"),
                       (dict(trump_card=None, trump="S"), "give the turned-up card")]:
        q = dict(hand="AS,3H", trump="S", seat=3, players=4, bids="1,0", trump_card="W")
        with pytest.raises(AdviceError, match=match):
            observe(**{**q, **bad})


def test_a_played_history_needs_the_turned_up_card_before_the_last_round():
    with pytest.raises(AdviceError, match="give the turned-up card"):
        observe("KD,7C", "H", seat=1, players=4, bids=[1, 0, 1, 0])


def test_the_docs_example_seats_wizsim_at_a_loop_of_the_users_own(capsys):
    """docs/your-table.md's first example (the README's) runs as written: a bid, then a card it holds."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "your-table.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    assert 'wizsim.player("search")' in block and "wizsim.observe(" in block
    exec(compile(block, "docs/your-table.md", "exec"), {})
    bid, card = capsys.readouterr().out.split()
    assert 0 <= int(bid) <= 5 and card in ("QS", "9H", "4D", "2C")
