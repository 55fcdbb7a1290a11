"""Issue 32, the Python API's junk: each call the audit found raising the wrong kind of error (an
OverflowError, AttributeError, IndexError, pages of Numba typing errors) or accepting junk silently now
raises a ValueError or TypeError of one line that names the argument; the valid calls beside them still
run."""

import numpy as np
import pytest

import wizsim
from wizsim.envs.vector import VectorEnv
from wizsim.record import GameRecord

RECORD = GameRecord(players=["Ann", "Bob", "Cleo", "Dan"], first_dealer=0)


def _one_line_naming(err, name):
    text = str(err.value)
    assert name in text and "\n" not in text and len(text) < 300, text


@pytest.mark.parametrize("call, name", [
    (lambda: wizsim.player("heuristic", seed=-1), "seed"),  # was OverflowError
    (lambda: wizsim.player("heuristic", seed=2**64), "seed"),
    (lambda: VectorEnv(4, seed=-1), "seed"),  # was OverflowError
    (lambda: VectorEnv(4, seed=1.5), "seed"),
    (lambda: wizsim.learned_policy("x", 1, 4), "record"),  # was AttributeError
    (lambda: wizsim.learned_policy(RECORD, 9, 4), "seat"),  # was IndexError
    (lambda: wizsim.learned_policy(RECORD, 0, 4), "seat"),
    (lambda: wizsim.learned_policy(RECORD, 1, 4, r=-2), "r"),
    (lambda: wizsim.learn_table("x"), "record"),
    (lambda: wizsim.learn_table(RECORD, before=-5), "before"),  # was accepted
    (lambda: wizsim.learn_table(RECORD, before=1.5), "before"),
    (lambda: wizsim.Game(4, seed=1).dealer(99), "round index"),  # was accepted (another round's dealer)
    (lambda: wizsim.Game(4, seed=1).dealer(-1), "round index"),
    (lambda: wizsim.Game(4, seed=1).player_at(0), "seat"),  # was accepted
    (lambda: wizsim.Game(4, seed=1).player_at(5), "seat"),
    (lambda: wizsim.Game(4, seed=1).seat_of(9), "player"),  # was accepted
    (lambda: wizsim.Game(4, seed=1).resample(0), "player"),  # was another seat's knowledge
    (lambda: wizsim.Game(4, seed=1).resample(5), "player"),
    (lambda: wizsim.Round(4, 3, seed=1, dealer_policy="bogus"), "dealer_policy"),  # was accepted (no Wizard)
    (lambda: wizsim.Round(4, 3, seed=1, turn_up="W", dealer_policy="bogus"), "dealer_policy"),
    (lambda: wizsim.Round(4, 3, seed=1, dealer_policy=42), "dealer_policy"),
    (lambda: wizsim.parse_cards("AS", taken=[99]), "taken"),  # was accepted
    (lambda: wizsim.parse_cards("AS", taken=[-1]), "taken"),
    (lambda: wizsim.parse_cards("AS", taken=[1.5]), "taken"),
    (lambda: wizsim.parse_cards("AS", taken="AS"), "taken"),
    (lambda: wizsim.parse_cards("AS", taken=5), "taken"),
    (lambda: VectorEnv(4, seed=1).step(np.full(4, 1.5)), "actions"),  # floats were cast to ints
    (lambda: VectorEnv(4, seed=1).step(["1", "2", "3", "4"]), "actions"),  # text was cast to ints
    (lambda: VectorEnv(4, seed=1).step([True] * 4), "actions"),
    (lambda: VectorEnv(4, seed=1).step([1, 2]), "actions"),
    (lambda: VectorEnv(4, seed=1).step([[1], [1, 2]]), "actions"),
])
def test_each_call_is_refused_naming_the_argument(call, name):
    with pytest.raises((ValueError, TypeError)) as err:
        call()
    assert not isinstance(err.value, (OverflowError, IndexError, AttributeError))
    _one_line_naming(err, name)


def test_the_valid_calls_beside_them_still_run():
    game = wizsim.Game(4, seed=1)
    assert [game.player_at(s) for s in range(1, 5)] == [game.player_at(s, 0) for s in range(1, 5)]
    assert all(game.player_at(game.seat_of(p)) == p for p in range(1, 5))
    assert game.dealer(14) == game.dealer(2)  # four players: the deal goes round
    assert game.resample(2).round.hands[game.seat_of(2) - 1] == game.round.hands[game.seat_of(2) - 1]
    assert wizsim.Round(4, 3, seed=1, dealer_policy="heuristic").phase in ("bid",)
    assert list(wizsim.parse_cards("W,AS", taken=[52, np.int8(0)])) == [53, 12]
    assert wizsim.learn_table(RECORD, before=0).n_players == 4 and wizsim.learn_table(RECORD, before=99)
    assert wizsim.learned_policy(RECORD, 1, 4) is None
    assert isinstance(wizsim.player("heuristic", seed=0), wizsim.Player)


def test_score_of_no_bids_is_an_empty_answer_not_a_float64_complaint():
    out = wizsim.score([], [])
    assert out.shape == (0,) and out.dtype == np.int64
    with pytest.raises(TypeError, match="bid"):
        wizsim.score([1.5], [1])


def test_read_tricks_is_exported_as_the_readme_says():
    from wizsim.dataset.read import read_tricks

    assert "read_tricks" in wizsim.__all__ and wizsim.read_tricks is read_tricks


@pytest.fixture(scope="module")
def card():
    import numba

    from wizsim.jit import heuristic_card

    @numba.njit
    def card(obs, rng):
        return heuristic_card(obs)

    return card


def test_a_jitted_function_of_the_wrong_signature_is_one_line_before_any_kernel_compiles(card):
    import numba

    from wizsim.config import ConfigError
    from wizsim.jit import jit_player

    @numba.njit
    def one_argument(obs):
        return 0

    @numba.njit
    def three_arguments(obs, rng, extra):
        return 0

    @numba.njit
    def no_such_field(obs, rng):
        return obs.no_such_field

    @numba.njit
    def returns_a_float(obs, rng):
        return 0.5

    for bid, needle in ((one_argument, "must take two arguments (obs, rng), got one_argument(obs)"),
                        (three_arguments, "must take two arguments"),
                        (no_such_field, "does not compile for (obs, rng): Unknown attribute 'no_such_field'"),
                        (returns_a_float, "must return a whole number")):
        with pytest.raises(ConfigError) as err:
            jit_player("mine", bid=bid, card=card)
        text = str(err.value)
        assert text.startswith("jit_player 'mine': bid") and needle in text, text
        assert "\n" not in text and len(text) < 300, text
