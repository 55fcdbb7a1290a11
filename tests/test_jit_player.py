"""A user's jitted player (issue 18 item 2): Numba functions over the observation record, run inside the
round kernel, play exactly as the same player written in Python at the open table, and one made of the
heuristic's own decisions plays exactly as ``heuristic``."""

import copy

import numba
import numpy as np
import pytest

import wizsim
from wizsim.config import ConfigError
from wizsim.jit import draw_below, heuristic_bid, heuristic_card, heuristic_trump, lowest_card
from wizsim.policies.registry import USER_PLAYERS
from wizsim.table.batch import python_games, python_rounds

FIELDS = ("hands", "turn_up", "trump", "bids", "tricks", "scores")


@numba.njit
def _low_card(obs, rng):
    return lowest_card(obs.legal)


@numba.njit
def _zero_bid(obs, rng):
    return 0 if obs.forbidden != 0 else 1


@numba.njit
def _h_bid(obs, rng):
    return heuristic_bid(obs)


@numba.njit
def _h_card(obs, rng):
    return heuristic_card(obs)


@numba.njit
def _h_trump(obs, rng):
    return heuristic_trump(obs, rng)


@numba.njit
def _bad_card(obs, rng):
    return 60 + draw_below(rng, 1)


@numba.njit
def _allocating_card(obs, rng):
    scratch = np.zeros(2, np.int64)
    scratch[0] = lowest_card(obs.legal)
    return scratch[0]


@numba.njit
def _first_suit(obs, rng):
    return 0


class LowPython:
    """``low`` (lowest legal card, bid 0) written in Python."""

    name = "low-python"

    def trump(self, obs):
        return 0

    def bid(self, obs):
        return 0 if 0 in obs.legal else 1

    def card(self, obs):
        return min(obs.legal)


@pytest.fixture(autouse=True)
def _forget_players():
    yield
    for name in ("low", "low-python", "my-heuristic", "bad"):
        USER_PLAYERS.pop(name, None)


def _same(a, b):
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


def _blank(batch):
    out = copy.copy(batch)
    for f in FIELDS + ("first_dealer",):
        if hasattr(batch, f):
            setattr(out, f, np.zeros_like(getattr(batch, f)))
    return out


# one player for the tests below: the kernels compile for a player's functions once per process
LOW = wizsim.jit_player("low", bid=_zero_bid, card=_low_card, trump=_first_suit)


def test_jitted_player_equals_the_same_player_in_python():
    """Lowest legal card, bid 0: jitted (inside the round kernel) and in Python (the open table's loop)."""
    low = LOW
    _same(wizsim.simulate_rounds(4, 5, 300, [low, "heuristic", "random", "heuristic"], seed=3),
          wizsim.simulate_rounds(4, 5, 300, [LowPython(), "heuristic", "random", "heuristic"], seed=3))
    _same(wizsim.simulate_games(4, 8, [low, "heuristic", "random", "heuristic"], seed=4),
          wizsim.simulate_games(4, 8, [LowPython(), "heuristic", "random", "heuristic"], seed=4))


def test_kernel_path_equals_the_open_table_path():
    """The same jitted player through the kernels and through the open table's loop (``table.batch``, where
    it decides with the round's stream, as built-in players do): identical, a search seat beside it too."""
    low = LOW
    kernel = wizsim.simulate_rounds(4, 5, 300, [low, "heuristic", "random", "heuristic"], seed=3)
    table = _blank(kernel)
    python_rounds(table, False, False)
    _same(kernel, table)
    games = wizsim.simulate_games(4, 8, [low, "search:worlds=2:doublings=0", "random", "heuristic"], seed=4)
    table = _blank(games)
    python_games(table, False, False)
    _same(games, table)
    assert np.array_equal(games.first_dealer, table.first_dealer)


def test_jitted_heuristic_plays_exactly_as_heuristic():
    mine = wizsim.jit_player("my-heuristic", bid=_h_bid, card=_h_card, trump=_h_trump)
    a = wizsim.simulate_games(4, 20, [mine, "random", "heuristic", "random"], seed=5)
    b = wizsim.simulate_games(4, 20, ["heuristic", "random", "heuristic", "random"], seed=5)
    _same(a, b)
    assert a.player_policies[0][0] == "my-heuristic"
    c = wizsim.simulate_rounds(5, 7, 500, [mine, "heuristic", "random", "heuristic", "random"], seed=2, threads=2)
    d = wizsim.simulate_rounds(5, 7, 500, ["heuristic", "heuristic", "random", "heuristic", "random"], seed=2)
    _same(c, d)


def test_an_illegal_card_is_an_error_and_names_are_checked():
    bad = wizsim.jit_player("bad", bid=_zero_bid, card=_bad_card)
    with pytest.raises(ValueError, match="not in obs.legal"):
        wizsim.simulate_rounds(4, 2, 5, [bad, "random"], seed=1)
    allocating = wizsim.jit_player("bad", bid=_zero_bid, card=_allocating_card)
    with pytest.raises(ConfigError, match="may not create arrays"):
        wizsim.simulate_rounds(4, 2, 5, [allocating, "random"], seed=1)
    with pytest.raises(ConfigError, match="built-in"):
        wizsim.jit_player("heuristic", bid=_zero_bid, card=_low_card)
    with pytest.raises(ConfigError, match="njit"):
        wizsim.jit_player("x", bid=lambda obs, rng: 0, card=_low_card)


_BOT = '''
import numba
import wizsim
from wizsim.jit import lowest_card

@numba.njit
def bid(obs, rng):
    return 0 if obs.forbidden != 0 else 1

@numba.njit
def card(obs, rng):
    return lowest_card(obs.legal)

Low = wizsim.jit_player("file-low", bid=bid, card=card)
'''


def test_a_jitted_player_from_a_file_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from wizsim.cli import main

    bot = tmp_path / "lowbot.py"
    bot.write_text(_BOT)
    spec = f"{bot}:Low"
    res = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "50", "--policies", f"{spec},heuristic",
                                    "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert spec in res.output
    USER_PLAYERS.pop(spec, None)
