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
COUNT, FLAG, CARDS, TRUMP, NAMES, PATH, COLUMNS, FILTER, BIDS, IDS, TABLE, COUNTS, PLAYED, METHOD, SHARE = (
    "count", "flag", "cards", "trump", "names", "path", "columns", "filter", "bids", "ids", "table", "counts",
    "played", "method", "share")  # share: a number 0..1 (a trust, the play noise)
ADVICE_KINDS = {"hand": CARDS, "trump": TRUMP, "seat": COUNT, "players": COUNT, "bids": BIDS, "hook": FLAG,
                "trump_card": CARDS, "samples": COUNT, "seed": COUNT, "policy": NAMES, "play": NAMES,
                "method": METHOD, "max_samples": COUNT, "bid_trust": SHARE, "play_noise": SHARE}

# function -> (valid keyword arguments, {argument: kind})
SURFACE = {
    "parse_cards": (dict(text="W,AS"), {"text": CARDS}),
    "format_cards": (dict(ids=[52, 12]), {"ids": CARDS}),
    "trick_winner": (dict(trick="5H,AH", trump="S"), {"trick": CARDS, "trump": TRUMP}),
    "legal_plays": (dict(hand="AS,3H", trick="5S"), {"hand": CARDS, "trick": CARDS}),
    "score": (dict(bid=1, tricks=1), {"bid": COUNTS, "tricks": COUNTS}),  # arrays of counts are valid
    "advise": (dict(hand="AS,KD", trump="S", seat=1, players=4, bids=None, hook=False, trump_card=None,
                    samples=50, seed=1, policy="random", play="random", method="auto", max_samples=None,
                    bid_trust=None, play_noise=None, doubt=None, seat_doubt=None),
               {**ADVICE_KINDS, "doubt": SHARE, "seat_doubt": SHARE}),
    "advise_play": (dict(hand="AS,KD,3H", trump="S", seat=1, players=4, bids="1,0,1,1", played="", hook=False,
                         trump_card=None, samples=50, seed=1, policy="random", play="random", method="auto",
                         max_samples=None, bid_trust=None, play_trust=None, play_noise=None, doubt=None),
                    {**ADVICE_KINDS, "played": PLAYED, "play_trust": SHARE, "doubt": SHARE}),
    "observe": (dict(hand="AS,KD,3H", trump="S", seat=1, players=4, bids="1,0,1,1", played="", hook=False,
                     trump_card="5S"),
                {k: ADVICE_KINDS[k] for k in ("hand", "trump", "seat", "players", "bids", "hook", "trump_card")}
                | {"played": PLAYED}),
    "simulate_rounds": (dict(players=4, r=2, n_rounds=3, policies="random", hook=False, seed=1, first_index=0,
                             trick_log=False, threads=None),
                        {"players": COUNT, "r": COUNT, "n_rounds": COUNT, "policies": NAMES, "hook": FLAG,
                         "seed": COUNT, "first_index": COUNT, "trick_log": FLAG, "threads": COUNT}),
    "simulate_games": (dict(players=4, n_games=2, policies="random", hook=False, seed=1, first_game=0,
                            trick_log=False, threads=None, game_ids=None, player_policies=None),
                       {"players": COUNT, "n_games": COUNT, "policies": NAMES, "hook": FLAG, "seed": COUNT,
                        "first_game": COUNT, "trick_log": FLAG, "threads": COUNT, "game_ids": IDS,
                        "player_policies": TABLE}),
    "run_tournament": (dict(players=4, policies="random", games=4, seed=1, hook=False, threads=None,
                            keep_games=False),
                       {"players": COUNT, "policies": NAMES, "games": COUNT, "seed": COUNT, "hook": FLAG,
                        "threads": COUNT, "keep_games": FLAG}),
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


deeper = st.lists(nested, min_size=1, max_size=2)  # a list of lists of tricks: never a played list
float_lists = st.lists(st.floats(allow_nan=True), min_size=1, max_size=3)


def junk(kind):
    lists = {COUNTS: ragged, PLAYED: st.one_of(deeper, float_lists)}.get(kind, nested)
    base = [floats.filter(lambda x: not 0 <= x <= 1) if kind == SHARE else floats, huge, lists, odd_text, other]
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


PLAY_Q = dict(hand="AS,KD,3H", trump="S", seat=1, players=4, bids="1,0,1,1", seed=1, samples=50)
BID_Q = dict(hand="AS,KD,3H", trump="S", seat=1, seed=1, samples=50)


@pytest.mark.parametrize("fn, change, name", [
    # issue 16 item 3, case by case
    ("advise_play", dict(samples=10**9), "samples"),  # was a MemoryError after allocating 29.8 GiB
    ("advise_play", dict(samples=2**70), "samples"),  # was "Maximum allowed dimension exceeded"
    ("advise_play", dict(played=5), "played"),  # was "'int' object is not iterable"
    ("advise_play", dict(played=[24.9, 25.2]), "played"),
    ("advise_play", dict(played=[1.5, 2]), "played"),  # was read as card 1
    ("advise_play", dict(played=np.array([[1, 2], [3, 4]])), "played"),  # was accepted
    ("advise_play", dict(played=[True]), "played"),
    ("advise_play", dict(hook="yes"), "hook"),  # was taken as True
    ("advise_play", dict(hook=1), "hook"),
    ("advise_play", dict(samples=None, max_samples=0), "max_samples"),  # was ignored
    ("advise_play", dict(samples=None, max_samples=-5), "max_samples"),
    ("advise_play", dict(samples=None, max_samples="x"), "max_samples"),  # was a bare comparison error
    ("advise_play", dict(play="clever"), "play"),
    ("advise", dict(samples=10**9), "samples"),
    ("advise", dict(samples=None, max_samples=0), "max_samples"),
    ("advise", dict(samples=None, max_samples="x"), "max_samples"),
    ("advise", dict(hook=1), "hook"),
    ("advise", dict(play="clever"), "play"),
    ("advise", dict(play_noise=1.5), "play_noise"),
    ("advise", dict(play_noise="0.2"), "play_noise"),
    ("advise", dict(doubt=-0.1), "doubt"),
    ("advise", dict(doubt=True), "doubt"),
    ("advise", dict(seat_doubt=1.01), "seat_doubt"),
    ("advise", dict(seat_doubt=[0.1]), "seat_doubt"),
    ("advise_play", dict(play_noise=float("nan")), "play_noise"),
    ("advise_play", dict(play_noise=True), "play_noise"),
    ("advise_play", dict(doubt=1.5), "doubt"),
    ("advise_play", dict(doubt="0.2"), "doubt"),
])
def test_each_advice_case_of_issue_16_is_refused_naming_the_argument(fn, change, name):
    with pytest.raises((ValueError, TypeError)) as err:
        getattr(wizsim, fn)(**{**(PLAY_Q if fn == "advise_play" else BID_Q), **change})
    assert not isinstance(err.value, MemoryError)
    assert str(err.value).startswith(name) or f"{name}=" in str(err.value) or f"{name}:" in str(err.value), \
        str(err.value)
    assert "\n" not in str(err.value)


def test_a_sample_count_beyond_this_machines_memory_is_refused_before_allocating():
    from wizsim.sim.driver import _physical_memory

    total = _physical_memory()
    if not total:
        pytest.skip("physical memory unknown here")
    hand = "AS,KS,QS,JS,TS,9S,8S,7S,6S,5S,4S,3S"  # twelve legal cards to lead
    per_world = 12 * 48 + 8 * 4 + 24  # (question.check_memory)
    n = total // per_world + 1
    if n > wizsim.config.MAX_SAMPLES:
        pytest.skip("this machine holds even the largest sample count")
    with pytest.raises(ValueError, match="samples=.* GB"):
        wizsim.advise_play(**{**PLAY_Q, "hand": hand, "bids": "3,3,3,3", "samples": n})


def test_numpy_integers_count_everywhere_as_advise_takes_them():
    i64 = np.int64
    assert wizsim.simulate_rounds(i64(4), i64(2), i64(3), seed=i64(1), first_index=i64(5)).players == 4
    assert wizsim.simulate_games(i64(3), np.int32(2), seed=i64(1), first_game=np.uint8(1)).n == 2
    assert wizsim.run_tournament(i64(4), "random", i64(4), seed=i64(1), threads=i64(1)).n_games == 4
    assert wizsim.RulesConfig(players=i64(5)).players == 5 and type(wizsim.RulesConfig(i64(5)).players) is int
    a = wizsim.advise_play(**{**PLAY_Q, "players": i64(4), "seat": i64(1), "samples": i64(50), "seed": i64(1)})
    b = wizsim.advise_play(**PLAY_Q)
    assert a.to_dict() == b.to_dict()
    same = wizsim.simulate_rounds(4, 2, 3, seed=1, first_index=5)
    assert (wizsim.simulate_rounds(i64(4), i64(2), i64(3), seed=i64(1), first_index=i64(5)).scores ==
            same.scores).all()


def test_played_as_a_list_of_ids_or_of_tricks_still_reads():
    text = wizsim.advise_play("AS,KD", "S", 2, 4, bids="1,0,1,0", played="2S,3S,4S,5S/9H,TH", samples=30, seed=3)
    ids = [int(c) for c in wizsim.parse_cards("2S,3S,4S,5S,9H,TH")]
    as_ids = wizsim.advise_play("AS,KD", "S", 2, 4, bids="1,0,1,0", played=np.array(ids), samples=30, seed=3)
    as_tricks = wizsim.advise_play("AS,KD", "S", 2, 4, bids="1,0,1,0", played=[ids[:4], ids[4:]], samples=30, seed=3)
    assert text.to_dict() == as_ids.to_dict() == as_tricks.to_dict()
