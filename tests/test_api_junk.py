"""Every public function refuses junk with a ValueError or TypeError that names the argument (issue 10
item 7): a property-based test feeds each argument of each function in ``wizsim.__all__`` (and the
public surface beside it) values of the wrong kind, NaN, huge ints, nested lists, bools and
strings, the other arguments valid, and accepts nothing else: no OverflowError, MemoryError,
pyarrow exception, silent truncation or success."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wizsim

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"

# kinds of argument, by what is valid for them (the junk drawn for a kind is never valid for it)
COUNT, FLAG, CARDS, TRUMP, NAMES, PATH, COLUMNS, FILTER, BIDS, IDS, TABLE, COUNTS = (
    "count", "flag", "cards", "trump", "names", "path", "columns", "filter", "bids", "ids", "table", "counts")

# function -> (valid keyword arguments, {argument: kind})
SURFACE = {
    "parse_cards": (dict(text="W,AS"), {"text": CARDS}),
    "format_cards": (dict(ids=[52, 12]), {"ids": CARDS}),
    "trick_winner": (dict(trick="5H,AH", trump="S"), {"trick": CARDS, "trump": TRUMP}),
    "legal_plays": (dict(hand="AS,3H", trick="5S"), {"hand": CARDS, "trick": CARDS}),
    "score": (dict(bid=1, tricks=1), {"bid": COUNTS, "tricks": COUNTS}),  # arrays of counts are valid
    "advise": (dict(hand="AS,KD", trump="S", seat=1, players=4, bids=None, hook=False, trump_card=None,
                    samples=50, seed=1, policy="random"),
               {"hand": CARDS, "trump": TRUMP, "seat": COUNT, "players": COUNT, "bids": BIDS, "hook": FLAG,
                "trump_card": CARDS, "samples": COUNT, "seed": COUNT, "policy": NAMES}),
    "simulate_rounds": (dict(players=4, r=2, n_rounds=3, policies="random", hook=False, seed=1, first_index=0,
                             trick_log=False, threads=None),
                        {"players": COUNT, "r": COUNT, "n_rounds": COUNT, "policies": NAMES, "hook": FLAG,
                         "seed": COUNT, "first_index": COUNT, "trick_log": FLAG, "threads": COUNT}),
    "simulate_games": (dict(players=4, n_games=2, policies="random", hook=False, seed=1, first_game=0,
                            trick_log=False, threads=None, game_ids=None, player_policies=None),
                       {"players": COUNT, "n_games": COUNT, "policies": NAMES, "hook": FLAG, "seed": COUNT,
                        "first_game": COUNT, "trick_log": FLAG, "threads": COUNT, "game_ids": IDS,
                        "player_policies": TABLE}),
    "run_tournament": (dict(players=4, policies="random", games=4, seed=1, hook=False, threads=None),
                       {"players": COUNT, "policies": NAMES, "games": COUNT, "seed": COUNT, "hook": FLAG,
                        "threads": COUNT}),
    "read_rounds": (dict(path=SAMPLE, columns=None, decode_hands=False, round=1),
                    {"path": PATH, "columns": COLUMNS, "decode_hands": FLAG, "round": FILTER}),
    "RulesConfig": (dict(players=4, hook=False), {"players": COUNT, "hook": FLAG}),
}
# how a message may name an argument besides its own name
ALIASES = {"r": ("round size",), "policies": ("polic",), "trump_card": ("trump card",), "round": ("round",)}

huge = st.one_of(st.integers(min_value=2**63), st.integers(max_value=-(2**63) - 1))
floats = st.floats(allow_nan=True, allow_infinity=True)
nested = st.lists(st.lists(st.integers(0, 59), min_size=1, max_size=3), min_size=1, max_size=3)
odd_text = st.text(max_size=12).map(lambda s: s + "@")  # never a card, a trump, a policy or a number
other = st.sampled_from([{}, {"a": 1}, 1j, b"AS", object()])


ragged = st.just([[1], [1, 2]])


def junk(kind):
    base = [floats, huge, nested if kind != COUNTS else ragged, odd_text, other]
    if kind not in (FLAG,):
        base.append(st.booleans())
    if kind == FLAG:
        base.append(st.integers(-3, 3))
    if kind in (COUNT, COUNTS):
        base.append(st.integers(max_value=-1))
    return st.one_of(base)


CASES = [(fn, arg) for fn, (_, args) in SURFACE.items() for arg in args]


@st.composite
def calls(draw):
    fn, arg = draw(st.sampled_from(CASES))
    valid, kinds = SURFACE[fn]
    return fn, arg, {**valid, arg: draw(junk(kinds[arg]))}


@settings(deadline=None, max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_every_public_function_names_the_argument_it_refuses(call):
    fn, arg, kwargs = call
    target = getattr(wizsim, fn)
    with pytest.raises((ValueError, TypeError)) as err:
        target(**kwargs)
    message = str(err.value).lower()
    names = (arg, *ALIASES.get(arg, ()))
    assert any(n.lower() in message for n in names), (fn, arg, kwargs[arg], str(err.value))
    assert len(str(err.value)) < 400, str(err.value)  # one readable line, whatever the junk


def test_the_valid_calls_run():
    for fn, (valid, _) in SURFACE.items():
        getattr(wizsim, fn)(**valid)


@pytest.mark.parametrize("fn, kwargs, name", [
    ("simulate_rounds", dict(players=4, r=2, n_rounds=3, first_index=-5), "first_index"),
    ("simulate_rounds", dict(players=4, r=2, n_rounds=100, first_index=2**63 - 10), "first_index"),
    ("simulate_rounds", dict(players=4, r=2, n_rounds=10**15), "n_rounds"),
    ("simulate_games", dict(players=4, n_games=1, game_ids=[1, 2]), "game_ids"),
    ("simulate_games", dict(players=4, n_games=10**15), "n_games"),
    ("simulate_games", dict(players=4, n_games=2, game_ids=np.array([[1, 2]])), "game_ids"),
    ("run_tournament", dict(players=4, policies="random", games=10**30), "games"),
])
def test_counts_and_ids_out_of_reach_are_named_errors(fn, kwargs, name):
    with pytest.raises(ValueError, match=name):
        getattr(wizsim, fn)(**kwargs)
