"""The policy registry: names with parameters, canonical names, one validated name per seat, and the
kernel slots built from the entries; the run plan's checks are the errors the CLI prints."""

import numpy as np
import pytest
from click.testing import CliRunner

from wizsim.cli import main
from wizsim.config import ConfigError, check_count
from wizsim.policies import POLICIES, check_policy, make_slots, parse_policy, policy_entry, seat_policies
from wizsim.policies.heuristic import DEFAULT_BID_SHIFT, P_BID_SHIFT
from wizsim.sim.plan import make_plan
from wizsim.sim.summary import summarize


def test_a_bare_name_at_its_defaults_is_its_own_canonical_name():
    assert [check_policy(n) for n in ("random", " Heuristic ", "heuristic:bid_shift=0")] == \
        ["random", "heuristic", "heuristic"]


def test_parameters_by_position_or_by_name_give_one_canonical_name():
    assert check_policy("heuristic:0.25") == check_policy("heuristic:bid_shift=0.25") == "heuristic:bid_shift=0.25"


@pytest.mark.parametrize("name,needle", [
    ("nosuch", "unknown policy 'nosuch'"),
    ("heuristic:x", "bid_shift must be a number"),
    ("heuristic:5", "bid_shift must be -1..1"),
    ("heuristic:foo=1", "unknown parameter 'foo'"),
    ("random:1", "random takes 0 parameter"),
])
def test_bad_names_and_parameters_are_named(name, needle):
    with pytest.raises(ConfigError, match=needle):
        parse_policy(name)


def test_seat_policies_repeats_a_short_list_and_validates_every_name():
    assert seat_policies("heuristic,random", 4) == ["heuristic", "random", "heuristic", "random"]
    with pytest.raises(ConfigError, match="give 4 policies"):
        seat_policies("random,random,random", 4)
    with pytest.raises(ConfigError, match="unknown policy"):
        seat_policies(["random", "nosuch"], 4)


def test_slots_take_kind_parameters_and_table_from_the_entries():
    slots = make_slots(["random", "heuristic", "Heuristic", "heuristic:0.5"])
    assert slots.names == ("random", "heuristic", "heuristic:bid_shift=0.5")
    assert slots.kinds.tolist() == [POLICIES["random"].kind, POLICIES["heuristic"].kind, POLICIES["heuristic"].kind]
    assert slots.params[1, P_BID_SHIFT] == DEFAULT_BID_SHIFT and slots.params[2, P_BID_SHIFT] == 0.5
    assert slots.table.size > 1  # the heuristic's value table
    assert make_slots(["random"]).table.size == 1
    assert slots.slot_of("HEURISTIC:bid_shift=0.5") == 2


def test_only_the_random_policy_bids_without_looking():
    assert policy_entry("random").hand_blind and not policy_entry("heuristic").hand_blind


@pytest.mark.parametrize("value", [True, 1.0, np.float64(2), "3", None])
def test_check_count_refuses_what_is_not_a_whole_number(value):
    with pytest.raises(ConfigError, match="n must be a whole number"):
        check_count(value, "n")


def test_check_count_names_the_range():
    assert check_count(np.int16(3), "n", 1, 5) == 3
    with pytest.raises(ConfigError, match="n must be 1..5, got 6"):
        check_count(6, "n", 1, 5)
    with pytest.raises(ConfigError, match="n must be 1 or more, got 0"):
        check_count(0, "n", 1)


def test_plan_chunks_cover_the_run_in_order():
    plan = make_plan(4, r=3, rounds=10, chunk_size=4)
    assert [(c.start, c.stop) for c in plan.chunks()] == [(0, 4), (4, 8), (8, 10)]
    assert make_plan(4, games=5).rounds_per_unit == 15


@pytest.mark.parametrize("kwargs,args", [
    (dict(), ["--rounds", "5"]),
    (dict(r=3, games=5), ["--round", "3", "--games", "5"]),
    (dict(games=5, rounds=3), ["--games", "5", "--rounds", "3"]),
])
def test_summarize_refuses_what_the_cli_refuses_with_the_same_words(kwargs, args):
    with pytest.raises(ConfigError) as err:
        summarize(4, **kwargs)
    res = CliRunner().invoke(main, ["simulate", *args])
    assert res.exit_code == 2 and str(err.value) in res.output
