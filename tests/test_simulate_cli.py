"""``wizsim simulate`` without --out: the summary and its JSON (docs/guide/simulate.md), policy lists, and every
bad input exiting 2 with a one-line message naming it."""

import json

import numpy as np
import pytest
from helpers import invoke

import wizsim


def test_json_summary_has_the_contract_rates_and_matches_the_api():
    res = invoke("simulate", "--players", "5", "--round", "4", "--rounds", "3000", "--seed", "3", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["rounds_per_second"] > 0 and obj["card_plays_per_second"] > 0
    assert obj["card_plays"] == 3000 * 4 * 5
    batch = wizsim.simulate_rounds(5, 4, 3000, policies="heuristic", seed=3)  # the command's default policy
    assert obj["mean_tricks_by_seat"] == pytest.approx(batch.tricks.mean(axis=0).tolist())
    assert obj["mean_score_by_seat"] == pytest.approx(batch.scores.mean(axis=0).tolist())


def test_games_summary_counts_every_round_of_every_game():
    res = invoke("simulate", "--players", "6", "--games", "20", "--seed", "2", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["mode"] == "games" and obj["games"] == 20
    assert obj["card_plays"] == 20 * 6 * sum(range(1, 11))


def test_a_short_policy_list_repeats_to_fill_the_table():
    short = wizsim.simulate_rounds(4, 6, 500, policies="heuristic,random", seed=5)
    full = wizsim.simulate_rounds(4, 6, 500, policies="heuristic,random,heuristic,random", seed=5)
    assert short.policies == full.policies
    assert np.array_equal(short.bids, full.bids) and np.array_equal(short.tricks, full.tricks)
    res = invoke("simulate", "--round", "6", "--rounds", "50", "--policies", "heuristic,random")
    assert res.exit_code == 0 and "heuristic,random,heuristic,random" in res.output, res.output


@pytest.mark.parametrize("args,needle", [
    (["--round", "16", "--rounds", "5"], "round size must be 1..15 for 4 players"),
    (["--players", "6", "--round", "11", "--rounds", "5"], "round size must be 1..10 for 6 players"),
    (["--round", "0", "--rounds", "5"], "round size must be"),
    (["--players", "7", "--round", "3"], "'--players'"),
    (["--players", "2", "--round", "1"], "'--players'"),
    (["--round", "3", "--rounds", "0"], "'--rounds'"),
    (["--games", "0"], "'--games'"),
    (["--round", "3", "--seed", "-1"], "'--seed'"),
    (["--round", "3", "--threads", "0"], "'--threads'"),
    (["--round", "3", "--threads", "99"], "threads must be"),
    (["--rounds", "5"], "give --round R"),
    (["--round", "3", "--games", "5"], "--round and --games do not go together"),
    (["--games", "5", "--rounds", "3"], "--rounds and --games do not go together"),
    (["--round", "3", "--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["--round", "3", "--policies", "random,heuristic,random"], "give 4 policies"),
    (["--round", "3", "--policy", "random", "--policies", "random"], "not both"),
    (["--round", "3", "--chunk-size", "10"], "need --out DIR"),
    (["--round", "3", "--out", "/tmp/x", "--scheduler", "tcp://h:1"], "--engine dask"),
])
def test_bad_input_exits_2_naming_the_problem(args, needle):
    res = invoke("simulate", *args)
    assert res.exit_code == 2, res.output
    assert "Error:" in res.output and needle in res.output, res.output
    assert "Traceback" not in res.output
