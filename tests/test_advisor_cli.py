"""``wizsim advise``: every bad input docs/guide/advisor.md names exits 2 with a message naming it; the table and
the JSON object."""

import json

import pytest
from helpers import invoke

BASE = ["advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "2"]


@pytest.mark.parametrize("args,needle", [
    (["advise", "--hand", "W,XS,3H", "--trump", "S", "--seat", "2"], "unknown card 'XS'"),
    (["advise", "--hand", "AS,AS", "--trump", "S", "--seat", "2"], "duplicate card 'AS'"),
    (["advise", "--hand", "1S,3H", "--trump", "S", "--seat", "2"], "'1S' is not a rank"),
    (["advise", "--hand", "AS,,3H", "--trump", "S", "--seat", "2"], "empty card"),
    (["advise", "--hand", "W,W,W,W,W", "--trump", "S", "--seat", "2"], "more than 4 Wizards"),
    (["advise", "--hand", "", "--trump", "S", "--seat", "2"], "the hand is empty"),
    (["advise", "--hand", ",".join(f"{r}H" for r in "23456789TJQK"), "--trump", "S", "--seat", "2",
      "--players", "6"], "too many for 6 players"),
    (BASE[:-1] + ["5"], "seat must be 1..4"),
    (BASE[:-1] + ["0"], "seat must be 1..4"),
    (BASE + ["--players", "7"], "'--players'"),
    (BASE + ["--players", "2"], "'--players'"),
    (BASE + ["--bids", "1,0"], "seat 2 hears 1 earlier bid"),
    (["advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "1", "--bids", "1"], "no earlier bids"),
    (BASE + ["--bids", "4"], "bids are 0..3"),
    (BASE + ["--bids", "-1"], "bids are 0..3"),
    (BASE + ["--bids", "x"], "not a whole number"),
    (BASE + ["--trump-card", "AS"], "also in the hand"),
    (BASE + ["--trump-card", "7H"], "makes trump H, not S"),
    (BASE + ["--trump-card", "J"], "makes trump none, not S"),
    (BASE + ["--trump-card", "7H,8H"], "one turned-up card"),
    (BASE + ["--trump-card", "1H"], "trump card"),
    (["advise", "--hand", "W,AS,3H", "--trump", "none", "--seat", "2", "--trump-card", "W"], "never 'none'"),
    (["advise", "--hand", "W,AS,3H", "--seat", "2", "--trump-card", "W"], "suit the dealer named"),
    (["advise", "--hand", "W,AS,3H", "--seat", "2"], "give the trump"),
    (["advise", "--hand", "W,AS,3H", "--trump", "X", "--seat", "2"], "unknown trump 'X'"),
    (["advise", "--hand", ",".join(f"{r}{s}" for s in "SH" for r in "23456789TJ"), "--trump", "S",
      "--seat", "1", "--players", "3"], "last round"),
    (["advise", "--hand", ",".join(f"{r}{s}" for s in "SH" for r in "23456789TJ"), "--trump-card", "JD",
      "--seat", "1", "--players", "3"], "nothing is turned up"),
    (["advise", "--hand", "J,J,J,J,AS", "--trump", "none", "--seat", "1"], "all four Jesters are in the hand"),
    (BASE + ["--samples", "0"], "'--samples'"),
    (BASE + ["--seed", "-3"], "'--seed'"),
    (BASE + ["--policy", "clever"], "unknown policy 'clever'"),
    (["advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "4", "--hook"], "needs the earlier bids"),
    (["advise", "--trump", "S", "--seat", "2"], "--hand"),
])

def test_bad_input_exits_2_naming_the_problem(args, needle):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Error:" in result.output
    assert needle in result.output, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)

def test_unlikely_heard_bids_are_answered_with_a_warning():
    """Five opponents each bidding all five tricks is legal, only unlikely for the heuristic model: the
    advisor answers, says so in one line, and reports the effective sample size (it used to refuse)."""
    args = ["advise", "--hand", "2C,3D,4H,5S,J", "--trump", "H", "--seat", "6", "--players", "6", "--bids",
            "5,5,5,5,5", "--samples", "200", "--policy", "heuristic", "--seed", "3"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "Warning: seat 1's bid of 5" in result.output
    got = json.loads(invoke(*[*args, "--json"]).output)
    assert got["warning"].startswith("seat 1's bid of 5") and 0 < got["ess"] <= got["samples"] == 200
    assert got["best_bid"] == 0
    # hard evidence no deal reproduces: the doubted table's blind type (or each seat's) still answers it
    # (issue 17's table types); with both doubts off the bids are ignored, and the warning says that
    hard = json.loads(invoke(*[*args, "--json", "--bid-trust", "1"]).output)
    assert hard["warning"].startswith("seat 1's bid of 5") and hard["best_bid"] == 0
    hard = json.loads(invoke(*[*args, "--json", "--bid-trust", "1", "--doubt", "0"]).output)
    assert hard["warning"].startswith("seat 1's bid of 5") and hard["best_bid"] == 0 and hard["seat_doubt"] == 0.15
    hard = json.loads(invoke(*[*args, "--json", "--bid-trust", "1", "--doubt", "0", "--seat-doubt", "0"]).output)
    assert hard["warning"].startswith("no deal of") and hard["best_bid"] == 0


def test_seat_doubt_is_for_the_seats_heard():
    """Bid and play advice take it (JSON ``seat_doubt``); the dealer's trump advice, before any bid, refuses it."""
    base = ["advise", "--hand", "AS,KD,3H", "--trump", "S", "--seat", "1", "--seed", "4", "--json"]
    for extra in (["--bids", "1,0,1,1"], []):  # play advice, bid advice
        got = invoke(*[*base, *extra, "--seat-doubt", "0.1"])
        assert got.exit_code == 0, got.output
        assert json.loads(got.output)["seat_doubt"] == 0.1
    trump = invoke(*["advise", "--hand", "AS,KD,3H", "--trump-card", "W", "--seat", "4", "--seat-doubt", "0.1"])
    assert trump.exit_code == 2 and "--seat-doubt is for the seats heard bidding" in trump.output
    assert "Traceback" not in trump.output
    bad = invoke(*[*base, "--seat-doubt", "1.5"])
    assert bad.exit_code == 2 and "'--seat-doubt'" in bad.output


def test_trump_trust_weighs_the_suit_an_opponent_dealer_named():
    """Bid and play advice take --trump-trust (JSON ``trump_trust``; the table's line says it where a dealer
    named the suit); the dealer's own trump question refuses it; out of 0..1 it exits 2."""
    base = ["advise", "--hand", "AS,KD,3H", "--trump", "H", "--trump-card", "W", "--seat", "1", "--seed", "4"]
    for extra in (["--bids", "1,0,1,1"], []):  # play advice, bid advice
        got = invoke(*[*base, *extra, "--trump-trust", "0.5", "--json"])
        assert got.exit_code == 0, got.output
        assert json.loads(got.output)["trump_trust"] == 0.5
        text = invoke(*[*base, *extra, "--trump-trust", "0.5"])
        assert "named suit 0.5" in text.output
    plain = invoke(*["advise", "--hand", "AS,KD,3H", "--trump", "H", "--seat", "1", "--seed", "4"])
    assert plain.exit_code == 0 and "named suit" not in plain.output  # no Wizard turned up: nothing named
    trump = invoke(*["advise", "--hand", "AS,KD,3H", "--trump-card", "W", "--seat", "4", "--trump-trust", "0.5"])
    assert trump.exit_code == 2 and "--trump-trust weighs the suit an opponent dealer named" in trump.output
    bad = invoke(*[*base, "--trump-trust", "1.5"])
    assert bad.exit_code == 2 and "'--trump-trust'" in bad.output


def test_table_shows_every_bid_the_recommendation_and_the_deals_used():
    result = invoke(*BASE + ["--seed", "1", "--samples", "2000"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Recommended bid:" in out and "2,000 simulated deals per bid" in out
    for b in range(4):
        assert f"  {b}  " in out or f"> {b:>3}" in out
    assert "Tricks taken when you bid" in out and "#" in out


def test_trick_chart_leaves_out_counts_that_never_happened():
    # Two Wizards and the top three trumps: 0 tricks and 14 tricks do not occur in these 300 deals.
    hand = "W,W,AS,KS,QS,3H,4H,5H,JD,TD,2C,J,7C,8C"
    result = invoke(*["advise", "--hand", hand, "--trump", "S", "--seat", "3", "--samples", "300", "--seed", "2"])
    assert result.exit_code == 0, result.output
    chart = result.output.split("Tricks taken when you bid")[1]
    assert "   0 | " not in chart and "  14 | " not in chart
    assert "tricks: never seen)" in chart and "<- your bid" in chart


def test_round_one_says_it_is_exact():
    result = invoke(*["advise", "--hand", "AS", "--trump", "S", "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "Exact" in result.output and "exact" in result.output


def test_hook_row_is_marked_forbidden():
    result = invoke(*["advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "4", "--bids", "1,1,0", "--hook",
                   "--samples", "500", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "the hook forbids it" in result.output


def test_json_is_the_contract_shape():
    result = invoke(*BASE + ["--json", "--seed", "5", "--samples", "1500", "--bids", "1", "--trump-card", "7S"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output)
    assert list(obj) == ["phase", "hand", "players", "seat", "trump", "trump_card", "earlier_bids", "hook", "best_bid",
                         "method", "samples", "table", "close_call",  # close_call: issue 10 item 11
                         "ess", "policy", "bid_trust", "play_noise", "doubt", "seat_doubt",
                         "warning",  # the opponents' model: issue 17
                         "trump_trust"]  # a dealer's named suit: issue 35
    assert obj["hand"] == "W,AS,3H" and obj["trump"] == "S" and obj["trump_card"] == "7S"
    assert obj["players"] == 4 and obj["seat"] == 2 and obj["earlier_bids"] == [1] and obj["hook"] is False
    assert obj["method"] == "monte-carlo" and obj["samples"] == 1500
    assert [row["bid"] for row in obj["table"]] == [0, 1, 2, 3]
    for row in obj["table"]:
        assert list(row) == ["bid", "allowed", "p_exact", "ev", "ev_low", "ev_high", "expected_tricks"]
        assert row["ev_low"] <= row["ev"] <= row["ev_high"]
    allowed = [row for row in obj["table"] if row["allowed"]]
    assert obj["best_bid"] == max(allowed, key=lambda row: row["ev"])["bid"]
    again = json.loads(invoke(*BASE + ["--json", "--seed", "5", "--samples", "1500", "--bids", "1",
                                    "--trump-card", "7S"]).output)
    assert again == obj


def test_json_round_one_and_wizard_turn_up():
    obj = json.loads(invoke(*["advise", "--hand", "9H", "--trump", "H", "--trump-card", "W", "--seat", "1",
                           "--json"]).output)
    assert obj["method"] == "exact" and obj["trump_card"] == "W" and obj["trump"] == "H"
    assert obj["table"][0]["ev_low"] == obj["table"][0]["ev"] == obj["table"][0]["ev_high"]


def test_one_deal_gives_no_interval_and_no_crash():
    result = invoke(*BASE + ["--samples", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    obj = json.loads(invoke(*BASE + ["--samples", "1", "--seed", "1", "--json"]).output)
    assert all(row["ev_low"] is None and row["ev_high"] is None for row in obj["table"])
