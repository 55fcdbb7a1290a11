"""The robustness benchmark's same-question analysis (benchmarks/robustness.py, docs/results.md, "Robustness"): it
pairs each table's bid question with the control's only where the advisor's input is the same (deal,
seat, heard bids, trump), and there the advisor's answer is the same at both tables."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_scripts import benchmark


@pytest.fixture(scope="module")
def robustness():
    return benchmark("robustness")


def asked(index, heard, trump, advised, predicted, made, own_made=False):
    return {"index": index, "seat": len(heard) + 1, "heard": heard, "trump": trump, "advised": advised,
            "predicted": predicted, "made": made, "own_made": own_made}


def row(table, r, questions):
    return {"table": table, "r": r, "bid": {"asked": questions}}


def test_only_questions_with_the_same_input_are_paired(robustness):
    control = row("heuristic (control)", 3, [
        asked(0, [], 1, 1, 0.6, True, True),
        asked(1, [2], 1, 0, 0.5, True, False),
        asked(2, [1, 1], 2, 1, 0.4, False, True),
        asked(3, [0, 1, 1], 0, 2, 0.3, True, True)])
    table = row("random", 3, [
        asked(0, [], 1, 1, 0.6, False, False),  # same input: paired
        asked(1, [3], 1, 0, 0.5, True, True),  # another heard bid: not paired
        asked(2, [1, 1], 3, 1, 0.4, True, True),  # another trump: not paired
        asked(3, [0, 1, 1], 0, 1, 0.35, True, True)])  # same input answered otherwise: counted, left out
    out = robustness.same_questions([control, table])["random"]
    assert (out["same"], out["of"], out["answered_differently"]) == (1, 4, 1)
    assert out["gap"]["mean"] == -1.0 and out["own_bid_gap"]["mean"] == -1.0
    assert out["control"]["mean"] == pytest.approx(0.4) and out["table"]["mean"] == pytest.approx(-0.6)


def test_the_advisor_answers_a_question_it_cannot_tell_apart_the_same_way(robustness):
    """Real questions at two tables: every seat-1 question with the same trump is paired, answered alike,
    and the gap is the difference in how often the same bid was made."""
    control = robustness.bid_questions(["heuristic"] * 3, 2, 8, {})
    table = robustness.bid_questions(["random"] * 3, 2, 8, {})
    rows = [{"table": "heuristic (control)", "r": 2, "bid": control}, {"table": "random", "r": 2, "bid": table}]
    out = robustness.same_questions(rows)["random"]
    assert out["answered_differently"] == 0
    pairs = [(q, c) for q, c in zip(table["asked"], control["asked"], strict=True)
             if (q["heard"], q["trump"]) == (c["heard"], c["trump"])]
    assert any(q["seat"] == 1 for q, _ in pairs)
    for q, c in pairs:
        assert q["advised"] == c["advised"] and q["predicted"] == c["predicted"]
    assert out["same"] == len(pairs)
    assert out["gap"]["mean"] == pytest.approx(np.mean([float(q["made"]) - float(c["made"]) for q, c in pairs]))


def run(first, questions):
    rows = [{"table": "random", "opponents": ["random"] * 3, "r": 3, "seconds": 1.0, "play": None,
             "bid": {"refusals": 0, "asked": questions, "diffs": [float(q["made"]) - q["predicted"] for q in questions],
                     "values": [float(q["index"]) for q in questions]}}]
    return {"seed": 2026, "hero": "heuristic", "trust": {}, "first": first, "questions": len(questions),
            "deals": 0, "results": rows}


def test_merged_runs_hold_each_question_once_in_order(robustness):
    a = run(0, [asked(0, [], 1, 1, 0.5, True), asked(1, [2], 1, 0, 0.25, False)])
    b = run(1, [asked(1, [2], 1, 0, 0.25, False), asked(2, [1, 1], 2, 1, 0.5, False)])
    (row,) = robustness.merge_runs([b, a])
    assert [q["index"] for q in row["bid"]["asked"]] == [0, 1, 2]
    assert row["bid"]["values"] == [0.0, 1.0, 2.0]
    assert row["bid"]["calibration"]["mean"] == pytest.approx((0.5 - 0.25 - 0.5) / 3)


def test_runs_that_disagree_are_not_merged(robustness):
    a = run(0, [asked(0, [], 1, 1, 0.5, True)])
    with pytest.raises(SystemExit, match="answered differently"):
        robustness.merge_runs([a, run(0, [asked(0, [], 1, 2, 0.5, True)])])
    other = run(0, [asked(1, [2], 1, 0, 0.25, False)])
    other["seed"] = 7
    with pytest.raises(SystemExit, match="differ in seed"):
        robustness.merge_runs([a, other])


def test_play_deals_split_over_runs_merge_to_the_one_run(robustness):
    """Play deals 0..3 played as 0..1 and 2..3 (``--first-deal``) merge to what one run of 0..3 gives."""
    def play_run(first, n):
        out = run(0, [])
        out["results"][0]["play"] = robustness.play_questions(["random"] * 3, 2, n, {}, first)
        return out

    whole = play_run(0, 4)["results"][0]["play"]
    (row,) = robustness.merge_runs([play_run(2, 2), play_run(0, 2)])
    got = row["play"]
    assert (got["deals"], got["first_deal"], got["refusals"]) == (4, 0, 0)
    for key in ("values", "diffs", "said", "advice_calls"):
        assert got[key] == whole[key], key
    assert got["value"] == whole["value"]
    with pytest.raises(SystemExit, match="the same play deals"):
        robustness.merge_runs([play_run(1, 2), play_run(0, 2)])


def test_the_own_bid_column_reads_the_bid_made_at_the_true_table(robustness):
    """Calibration at the hero's own bid: the heuristic's bid on the true deal (not the advised one, so no
    selection), whether it was made there, and the advisor's P(exact) of it; a merge keeps it."""
    from wizsim import advise
    from wizsim.cards import format_cards, mask_to_cards
    from wizsim.sim.driver import simulate_rounds

    got = robustness.bid_questions(["random"] * 3, 2, 8, {})
    for q, d in zip(got["asked"], got["own_diffs"], strict=True):
        i, hero = q["index"], q["seat"] - 1
        truth = simulate_rounds(4, 2, 1, robustness.seat_names(["random"] * 3, hero), seed=robustness.SEED, first_index=i)
        assert q["own"] == int(truth.bids[0, hero])
        assert q["own_made"] == bool(truth.tricks[0, hero] == truth.bids[0, hero])
        assert d == pytest.approx(float(q["own_made"]) - q["own_predicted"])
    assert any(q["own"] != q["advised"] for q in got["asked"])
    q = next(q for q in got["asked"] if q["own"] != q["advised"])
    truth = simulate_rounds(4, 2, 1, robustness.seat_names(["random"] * 3, q["seat"] - 1), seed=robustness.SEED,
                            first_index=q["index"])
    again = advise(format_cards(mask_to_cards(int(truth.hands[0, q["seat"] - 1]))), seat=q["seat"], players=4,
                   bids=q["heard"], seed=q["index"], **robustness.trump_args(int(truth.turn_up[0]), int(truth.trump[0])))
    assert q["own_predicted"] == pytest.approx(float(again.p_exact[q["own"]]))
    whole = run(0, got["asked"])
    (row,) = robustness.merge_runs([whole])
    assert row["bid"]["own_diffs"] == pytest.approx(got["own_diffs"])
    assert row["bid"]["own_calibration"]["mean"] == pytest.approx(got["own_calibration"]["mean"])


def test_calibration_is_split_by_where_the_advised_bid_lies_against_the_own_bid(robustness):
    def q(index, advised, own, predicted, made, own_predicted, own_made):
        return {**asked(index, [], 1, advised, predicted, made, own_made), "own": own, "own_predicted": own_predicted}

    rows = [row("search:worlds=8", 3, [q(0, 1, 2, 0.5, False, 0.4, True),  # below: advised -0.5, own +0.6
                                       q(1, 1, 1, 0.75, True, 0.75, True),  # same
                                       q(2, 2, 1, 0.25, True, 0.5, False)]),  # above
            row("random", 3, [asked(0, [], 1, 1, 0.5, True)])]  # a run from before the own bid was kept: skipped
    out = robustness.advised_vs_own(rows)
    assert list(out) == ["search:worlds=8"]
    by = out["search:worlds=8"]
    assert [by[s]["questions"] for s in ("below", "same", "above")] == [1, 1, 1]
    assert by["below"]["advised"]["mean"] == pytest.approx(-0.5) and by["below"]["own"]["mean"] == pytest.approx(0.6)
    assert by["same"]["advised"]["mean"] == by["same"]["own"]["mean"] == pytest.approx(0.25)
    assert by["above"]["advised"]["mean"] == pytest.approx(0.75) and by["above"]["own"]["mean"] == pytest.approx(-0.5)


def test_against_pairs_each_question_with_the_base_runs_answer(robustness):
    def answered(index, advised, predicted, diff, value):
        return {**asked(index, [], 1, advised, predicted, False), "d": diff, "v": value}

    def full_row(table, r, qs):
        return {"table": table, "r": r, "bid": {"asked": qs, "diffs": [q["d"] for q in qs],
                                                "values": [q["v"] for q in qs]}}

    base = {"results": [full_row("random", 3, [answered(0, 1, 0.5, -0.5, 0.0), answered(1, 2, 0.4, 0.6, 0.0),
                                                answered(2, 0, 0.3, -0.3, 0.0)])]}
    new = [full_row("random", 3, [answered(1, 2, 0.4, 0.6, 0.0),  # the same answer
                                  answered(2, 1, 0.6, 0.4, 10.0),  # answered otherwise
                                  answered(5, 1, 0.5, 0.5, 0.0)])]  # not in the base run: left out
    out = robustness.against(new, base)
    assert out["random r=3"]["changed"] == 1 and out["random"]["calibration"]["n"] == 2
    assert out["random"]["calibration"]["mean"] == pytest.approx((0.0 + 0.7) / 2)
    assert out["random"]["value"]["mean"] == pytest.approx(5.0)
    assert "play" not in out  # no play deals in either run


def test_against_pairs_each_play_deal_with_the_base_runs_value(robustness):
    """Play deals pair by deal index: the base's values run in deal order from its ``first_deal``."""
    base = {"results": [{"table": "random", "r": 6, "bid": None,
                         "play": {"first_deal": 16, "values": [0.0, -10.0, 30.0]}}]}  # deals 16, 17, 18
    new = [{"table": "random", "r": 6, "bid": None,
            "play": {"asked": [{"index": 17, "value": 20.0}, {"index": 18, "value": 30.0}, {"index": 40, "value": 5.0}]}}]
    out = robustness.against(new, base)["play"]
    assert out["random r=6"]["value"]["n"] == 2 and out["random r=6"]["changed"] == 1
    assert out["random"]["value"]["mean"] == pytest.approx((30.0 + 0.0) / 2)


def test_learn_reads_the_tables_earlier_rounds(robustness):
    """--learn: the heuristic table teaches nothing (the untold answer), a random seat is seen as noisy."""
    names = robustness.seat_names(["heuristic"] * 3, 1)
    assert robustness.learned_table(names, 6, 0, 1)[0] == {}
    names = robustness.seat_names(["random", "heuristic", "heuristic"], 2)
    told, seen = robustness.learned_table(names, 10, 3, 2)
    noise = seen["noise"]
    assert noise[0] > 0.3 and noise[1] == noise[3] == 0.1 and seen["bid_shift"][1] == seen["bid_shift"][3] == 0.0
    assert told["policy"][0].startswith("heuristic:play_noise=0.") and told["policy"][1:] == ["heuristic", "heuristic"]
    assert seen["bid_shift"][1] == 0.0


def test_other_player_counts_fill_every_seat_and_end_at_the_last_round(robustness):
    assert robustness.tables_for(4) == robustness.TABLES  # the 4-player results stay the same questions
    for players in (3, 4, 5, 6):
        for name, opponents in robustness.tables_for(players).items():
            assert len(opponents) == players - 1, name
        assert robustness.rounds_for(players)[-1] == 60 // players
        assert all(r <= 60 // players for r in robustness.rounds_for(players))
    assert robustness.tables_for(6)["mixed"] == ["random", "heuristic:bid_shift=0.5", "search:worlds=8",
                                                  "heuristic:bid_shift=-0.5", "random"]
    assert robustness.rounds_for(4) == (3, 6, 10, 15) and robustness.rounds_for(6) == (3, 6, 10)
