"""``search:rollout=net``: the search policy's play-outs played by the learned policy ``net`` (issue 35).

The option parses and names itself, needs net's weights only where it is asked for, plays legal full
rounds at every table size, depends only on the seed, and plays otherwise than the heuristic's play-outs.
Its strength is measured in benchmarks/search_rollout.py, not here."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sim_invariants import check_batch, check_play_log

import wizsim
from wizsim import simulate_rounds
from wizsim.cli import main
from wizsim.config import ConfigError
from wizsim.policies import check_policy, make_slots, parse_policy
from wizsim.policies import net as K
from wizsim.policies import net_reference as R
from wizsim.policies.dispatch import kernel_ext
from wizsim.policies.net import TABLE_LEN
from wizsim.policies.search import WITH_NET
from wizsim.table.players import kernel_view

NET_SEARCH = "search:worlds=2:doublings=0:rollout=net"
HEURISTIC_SEARCH = "search:worlds=2:doublings=0"


def test_the_option_parses_and_names_itself():
    assert check_policy("search:rollout=net") == "search:rollout=net"
    assert check_policy("search:rollout=heuristic") == "search"  # today's, the default
    assert check_policy("SEARCH:rollout=NET:worlds=8") == "search:worlds=8:rollout=net"
    assert check_policy(check_policy(NET_SEARCH)) == NET_SEARCH
    assert parse_policy("search:rollout=net").table == "net"
    assert parse_policy("search").table == "heuristic_values"
    # a decision by net's play-outs costs several by the heuristic's: the advisor's work budget counts it
    assert parse_policy("search:rollout=net").cost > 3 * parse_policy("search").cost


def test_net_weights_and_net_code_only_where_asked():
    assert len(make_slots(["search"]).table) < TABLE_LEN  # the heuristic's values alone
    assert len(make_slots(["search:rollout=net", "heuristic"]).table) == TABLE_LEN
    assert make_slots(["search", "heuristic"]).ext == (True, None, None)
    # net seated, the play-outs the heuristic's: net's deciders compiled in, not its play-outs
    assert make_slots(["search", "net"]).ext == (True, None, True)
    ext = make_slots(["search", "search:rollout=net"]).ext
    assert ext == (WITH_NET, None, None) and type(ext[0]) is not bool  # the type that compiles net's play-outs
    assert kernel_ext(make_slots(["net", "heuristic"]).kinds) == (None, None, True)
    assert kernel_ext(make_slots(["random", "heuristic"]).kinds) is None


@pytest.mark.parametrize("bad", ["search:rollout=mcts", "search:rollout=", "search:rollout=1"])
def test_a_bad_value_is_refused_in_one_line(bad):
    with pytest.raises(ConfigError, match="rollout must be heuristic, net or self"):
        check_policy(bad)
    for args in (["simulate", "--players", "4", "--round", "3", "--rounds", "4", "--policies", f"{bad},heuristic"],
                 ["tournament", "--players", "4", "--games", "4", "--policies", f"{bad},search"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, res.output
        errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1 and "rollout must be heuristic, net or self" in errors[0], res.output
        assert "Traceback" not in res.output


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_net_play_outs_play_legal_full_rounds(players):
    r = 3 if players < 6 else 2
    policies = [NET_SEARCH, "heuristic", HEURISTIC_SEARCH, "net", "random", NET_SEARCH][:players]
    for hook in (False, True):
        batch = simulate_rounds(players, r, 6, policies, seed=players, hook=hook, trick_log=True, threads=1)
        check_batch(batch, hook)
        check_play_log(batch, range(batch.n))


def test_reproducible_and_not_the_heuristic_play_outs():
    def run(search, seed):
        return simulate_rounds(4, 5, 12, [search, "heuristic", "net", "heuristic"], seed=seed, threads=1)

    a, b = run(NET_SEARCH, 7), run(NET_SEARCH, 7)
    for name in ("hands", "bids", "tricks", "scores"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    c = run(HEURISTIC_SEARCH, 7)
    np.testing.assert_array_equal(a.hands, c.hands)  # the same deals
    assert not (np.array_equal(a.bids, c.bids) and np.array_equal(a.tricks, c.tricks))


def test_the_player_object_plays_it():
    from wizsim import Round

    p = wizsim.player("search:rollout=net:worlds=2", seed=0)
    assert p.name == "search:worlds=2:rollout=net"
    rd = Round(4, 3, seed=1)
    while rd.phase != "over":
        rd._step(p)
    assert sum(rd.tricks) == 3


class _TwinNet:
    """``net`` by its NumPy twin (``policies.net_reference``) at the open table, which checks every action."""

    def __init__(self):
        self.table = make_slots(["net"]).table
        self.w = self.table[K.NET_OFFSET:]

    def trump(self, obs):
        return R.net_trump(self.w, kernel_view(obs))

    def bid(self, obs):
        return R.net_bid(self.w, kernel_view(obs))

    def card(self, obs):
        return R.net_card(self.w, kernel_view(obs))


@settings(deadline=None, max_examples=10)
@given(st.integers(3, 6), st.integers(0, 10**6), st.booleans(), st.data())
def test_the_net_play_out_is_its_twins_round(players, seed, hook, data):
    """The search's play-out by net from a round's start (every seat bids, then plays, by net) gives the
    bids and tricks of the same deal played at the open table by net's NumPy twin."""
    from wizsim.bits import ZERO
    from wizsim.policies.records import RoundInfo, state_arrays
    from wizsim.policies.search import _net_out

    r = data.draw(st.integers(1, 60 // players))
    twin = _TwinNet()
    rd = wizsim.Round(players, r, seed=seed, hook=hook)
    world = np.array([sum(1 << c for c in hand) for hand in rd.hands], np.uint64)
    rd.play([twin] * players)
    state = state_arrays(players, world)
    trump = -1 if rd.trump is None else int(rd.trump)
    _net_out(parse_policy("search:rollout=net").params_row(),
             (twin.table, RoundInfo(players, r, hook, rd.turn_up, trump), state, world, 0, 0, 0, ZERO))
    assert state.bids.tolist() == list(rd.bids)
    assert state.tricks.tolist() == list(rd.tricks)


def test_self_play_outs_parse_play_legal_rounds_and_differ():
    """``search:rollout=self``: net plays the searcher's own later cards, the heuristic every other seat."""
    assert check_policy("search:rollout=self:worlds=2") == "search:worlds=2:rollout=self"
    assert parse_policy("search:rollout=self").table == "net"
    assert parse_policy("search").cost < parse_policy("search:rollout=self").cost < parse_policy("search:rollout=net").cost
    ext = make_slots(["search:rollout=self", "heuristic"]).ext
    assert ext[0] == WITH_NET and type(ext[0]) is not bool
    self_search = "search:worlds=2:doublings=0:rollout=self"
    for players in (3, 5):
        batch = simulate_rounds(players, 3, 4, [self_search] + ["heuristic"] * (players - 1), seed=players,
                                hook=True, trick_log=True, threads=1)
        check_batch(batch, True)
        check_play_log(batch, range(batch.n))

    def run(search):
        return simulate_rounds(4, 5, 12, [search, "heuristic", "net", "heuristic"], seed=3, threads=1)

    a, b = run(self_search), run(self_search)
    for name in ("bids", "tricks", "scores"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    others = [run(HEURISTIC_SEARCH), run(NET_SEARCH)]
    assert all(not (np.array_equal(a.bids, o.bids) and np.array_equal(a.tricks, o.tricks)) for o in others)


@settings(deadline=None, max_examples=10)
@given(st.integers(3, 6), st.integers(0, 10**6), st.booleans(), st.data())
def test_the_self_play_out_is_its_twins_round(players, seed, hook, data):
    """The search's self play-out from a round's start (every seat bids by the heuristic, then seat ``s``
    plays by net and the others by the heuristic) gives the bids and tricks of the same deal played at the
    open table by net's NumPy twin in seat ``s`` and the heuristic in the others."""
    from wizsim.bits import ZERO
    from wizsim.policies.records import RoundInfo, state_arrays
    from wizsim.policies.search import _self_out

    r = data.draw(st.integers(1, 60 // players))
    s = data.draw(st.integers(0, players - 1))
    twin = _TwinNet()
    rd = wizsim.Round(players, r, seed=seed, hook=hook)
    world = np.array([sum(1 << c for c in hand) for hand in rd.hands], np.uint64)
    heuristic = wizsim.player("heuristic")

    class Bidder:  # net's twin plays the cards; the bid (and a trump) is the heuristic's, as in the play-out
        def trump(self, obs):
            return heuristic.trump(obs)

        def bid(self, obs):
            return heuristic.bid(obs)

        def card(self, obs):
            return twin.card(obs)

    seats = [heuristic] * players
    seats[s] = Bidder()
    rd.play(seats)
    state = state_arrays(players, world)
    trump = -1 if rd.trump is None else int(rd.trump)
    _self_out(parse_policy("search:rollout=self").params_row(),
              (twin.table, RoundInfo(players, r, hook, rd.turn_up, trump), state, world, 0, 0, 0, ZERO), s)
    assert state.bids.tolist() == list(rd.bids)
    assert state.tricks.tolist() == list(rd.tricks)


def test_a_table_of_net_and_search_seats_is_cacheable():
    """No kernel of a table that seats both net and the search holds the address of a Python object (a
    function passed as a value), which Numba refuses to cache: such a table compiled again in every
    process. Every wizsim kernel compiled so far in this process is checked."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    simulate_rounds(4, 3, 2, ["net", "search:worlds=1", "heuristic", "net"], seed=1, threads=1)
    wizsim.simulate_games(4, 1, ["net", "search:worlds=1:doublings=0", "net", "heuristic"], seed=1)
    held, checked = [], 0
    for info in pkgutil.walk_packages(wizsim.__path__, "wizsim."):
        try:
            mod = importlib.import_module(info.name)
        except ImportError:  # an optional extra's module
            continue
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher):
                for cres in obj.overloads.values():
                    checked += 1
                    if cres.library.has_dynamic_globals:
                        held.append(f"{info.name}.{name}")
    assert checked > 20 and not held, held
