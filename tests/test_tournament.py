"""Tournaments: reproducible for a seed on any thread count, every policy in every seat equally often
on shared deals, statistics consistent with the per-game table, the CLI's JSON shape and bad input."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wizsim.cli import main
from wizsim.sim.driver import simulate_games
from wizsim.tournament import distinct_rotations, run_tournament

TABLE = ["heuristic", "random", "random", "random"]


def test_seeded_tournaments_are_reproducible_on_any_thread_count():
    a = run_tournament(4, TABLE, 40, seed=5, threads=1, keep_games=True)
    b = run_tournament(4, TABLE, 40, seed=5, threads=2, keep_games=True)
    c = run_tournament(4, TABLE, 40, seed=6, keep_games=True)
    assert a.games.equals(b.games) and a.summary.equals(b.summary)
    assert not a.games.score.equals(c.games.score)


def test_every_policy_sits_in_every_seat_equally_often_on_shared_deals():
    res = run_tournament(4, TABLE, 20, seed=2, keep_games=True)
    assert res.rotations == 4 and res.n_deals == 5 and res.n_games == 20
    # each player identity holds each policy as often as the table lists it, in every deal
    counts = res.games.groupby(["deal", "player", "policy"], observed=False).size().unstack()
    assert (counts["heuristic"] == 1).all() and (counts["random"] == 3).all()
    # rotations of a deal replay the same cards, so a seat's policy per round covers the table
    deals = np.repeat(np.arange(res.n_deals), 4)
    per_game = [[TABLE[(i + j) % 4] for i in range(4)] for _ in range(res.n_deals) for j in range(4)]
    g = simulate_games(4, len(deals), seed=2, game_ids=deals, player_policies=per_game)
    hands = g.hands.reshape(res.n_deals, 4, *g.hands.shape[1:])
    assert (hands == hands[:, :1]).all()
    seat_player = g.seat_player.reshape(res.n_deals, 4, g.rounds_per_game, 4)
    for d in range(res.n_deals):
        for k in range(g.rounds_per_game):
            for seat in range(4):
                names = sorted(per_game[d * 4 + j][seat_player[d, j, k, seat]] for j in range(4))
                assert names == sorted(TABLE)


def test_repeated_rotations_are_not_replayed():
    assert distinct_rotations(["heuristic"] * 4) == 1
    assert distinct_rotations(["heuristic", "random"] * 2) == 2
    assert distinct_rotations(TABLE) == 4
    res = run_tournament(4, ["heuristic"] * 4, 7, seed=1, keep_games=True)
    assert res.rotations == 1 and res.n_games == 7
    assert res.summary.win_rate.iloc[0] == pytest.approx(0.25)


def test_summary_matches_the_per_game_table():
    res = run_tournament(3, ["heuristic", "random", "random"], 30, seed=3, keep_games=True)
    g = res.games
    assert np.allclose(g.groupby(["game"]).win.sum(), 1.0)  # ties shared
    for row in res.summary.itertuples():
        sel = g[g.policy == row.name]
        assert row.mean_score == pytest.approx(sel.score.mean())
        assert row.win_rate == pytest.approx(sel.win.mean())
        assert row.bid_accuracy == pytest.approx(sel.exact_rounds.sum() / (len(sel) * 20))
        assert row.mean_abs_bid_error == pytest.approx(sel.abs_bid_error.sum() / (len(sel) * 20))
        assert row.score_low < row.mean_score < row.score_high
    by_round = res.by_round[res.by_round.policy == "heuristic"]
    assert list(by_round["round"]) == list(range(1, 21))
    assert by_round.bid_accuracy.mean() == pytest.approx(res.summary.bid_accuracy.iloc[0])


def test_cli_json_has_the_contract_shape():
    out = CliRunner().invoke(main, ["tournament", "--players", "4", "--policies", ",".join(TABLE), "--games", "8",
                                    "--seed", "1", "--json"])
    assert out.exit_code == 0, out.output
    obj = json.loads(out.output)
    assert {"games", "players", "policies"} <= set(obj)
    assert obj["games"] == 8 and obj["players"] == 4
    assert [p["name"] for p in obj["policies"]] == ["heuristic", "random"]
    for p in obj["policies"]:
        assert {"name", "mean_score", "score_low", "score_high", "win_rate", "bid_accuracy",
                "mean_abs_bid_error"} <= set(p)


def test_cli_table_and_hook():
    out = CliRunner().invoke(main, ["tournament", "--players", "5", "--policies", "heuristic,random,heuristic,random,random",
                                    "--games", "10", "--hook"])
    assert out.exit_code == 0, out.output
    assert "hook on" in out.output and "95% interval" in out.output


def test_a_short_policy_list_repeats_to_fill_the_table():
    short = run_tournament(6, "heuristic,random", 12, seed=3, keep_games=True)
    full = run_tournament(6, "heuristic,random,heuristic,random,heuristic,random", 12, seed=3, keep_games=True)
    assert list(short.policies) == list(full.policies) == ["heuristic", "random"] * 3
    assert short.games.equals(full.games)


@pytest.mark.parametrize("args", [
    ["--players", "4", "--policies", "heuristic,random,random"],
    ["--players", "4", "--policies", "heuristic,random,random,nobody"],
    ["--players", "7", "--policies", "random"],
    ["--players", "3", "--policies", "random,random,random", "--games", "0"],
    ["--players", "3", "--policies", "random,random,random", "--seed", "-1"],
    ["--players", "3"],
])
def test_cli_bad_input_exits_2(args):
    out = CliRunner().invoke(main, ["tournament", *args])
    assert out.exit_code == 2, out.output
    assert "Error" in out.output and "Traceback" not in out.output


GOLDEN = Path(__file__).parent / "golden"
PINNED = sorted(GOLDEN.glob("tournament_*.json"))
# the mean final scores and their intervals: the exact mean of the per-deal means, correctly rounded;
# where a per-deal mean is not a binary fraction, the old float sum could be a last-digit away
ROUNDED_LAST_DIGIT = {"mean_score", "score_low", "score_high"}


def _same(got, want, key=""):
    if isinstance(want, dict):
        assert set(want) <= set(got), (key, set(want) - set(got))  # new keys may join, none leaves
        for k in want:
            _same(got[k], want[k], k if k in ROUNDED_LAST_DIGIT else key)
    elif isinstance(want, list):
        assert len(got) == len(want), key
        for g, w in zip(got, want, strict=True):
            _same(g, w, key)
    elif isinstance(want, float) and key in ROUNDED_LAST_DIGIT:
        assert got == pytest.approx(want, rel=1e-13, abs=1e-13), key
    else:
        assert type(got) is type(want) and got == want, (key, got, want)


def _without_differences(text: str) -> str:
    """The text output without the block of paired differences (issue 11 item 5 added it)."""
    lines, out, skipping = text.splitlines(), [], False
    for line in lines:
        if line.startswith("paired difference"):
            skipping = True
        if skipping and not line:
            skipping = False
            continue
        if not skipping:
            out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


@pytest.mark.parametrize("path", PINNED, ids=lambda p: p.stem)
def test_tournament_output_is_pinned(path):
    """Counting a tournament in running totals (issue 10 item 5) reports what the per-game arrays did:
    the text to the character, the JSON key by key (scores to their last digit, see above)."""
    sys.path.insert(0, str(GOLDEN.parent.parent / "scripts"))
    try:
        from regen_golden import TOURNAMENT_CASES, tournament_outputs
    finally:
        sys.path.pop(0)
    text, js = tournament_outputs(TOURNAMENT_CASES[path.stem])
    assert _without_differences(text) == path.with_suffix(".txt").read_text(), HINT
    _same(json.loads(js), json.loads(path.read_text()))


HINT = "tournament results changed: if intended (a rules change), run scripts/regen_golden.py and review the diff"


def test_paired_differences_equal_a_direct_computation_and_are_narrower():
    """Issue 11 item 5: a - b per deal (each policy's mean final score over its seats in the deal's
    rotations), its mean and 95% interval over deals, from the per-game table with numpy."""
    from wizsim.stats import Z95

    res = run_tournament(4, "heuristic,heuristic:bid_shift=0.5", 80, seed=4, keep_games=True)
    g = res.games
    per = g.groupby(["deal", "policy"], observed=True).score.mean().unstack()
    d = (per["heuristic"] - per["heuristic:bid_shift=0.5"]).to_numpy()
    half = Z95 * d.std(ddof=1) / np.sqrt(len(d))
    (row,) = res.differences.itertuples(index=False)
    assert (row.a, row.b, row.deals) == ("heuristic", "heuristic:bid_shift=0.5", len(d))
    assert row.mean == pytest.approx(d.mean(), abs=1e-9)
    assert (row.low, row.high) == pytest.approx((d.mean() - half, d.mean() + half), abs=1e-9)
    # the unpaired interval of the same difference, from the two means' own intervals, is wider
    s = res.summary.set_index("name")
    unpaired = np.hypot(*(s.score_high - s.score_low) / 2)
    assert half < unpaired
    out = res.to_dict()["differences"]
    assert out == [{"a": row.a, "b": row.b, "mean": row.mean, "low": row.low, "high": row.high, "deals": len(d)}]
    assert "paired differences" in __import__("wizsim.render", fromlist=["render"]).render(res, False)


def test_counts_beyond_int64_round_indices_are_refused_in_one_line():
    for args in (["simulate", "--round", "5", "--rounds", str(10**20)], ["simulate", "--games", str(10**20)],
                 ["tournament", "--players", "4", "--policies", "random", "--games", str(10**20)]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2 and "must be 1.." in res.output and "Traceback" not in res.output, args


def test_a_run_of_days_says_its_estimate_before_it_starts(capsys):
    from wizsim.cli import say_long_estimate

    say_long_estimate(4, ["search", "heuristic"] * 2, 10_000_000, "game", None, 2)  # stderr is not a terminal
    err = capsys.readouterr().err
    assert err.startswith("wizsim: this run is estimated at about") and "days" in err
    say_long_estimate(4, ["random"] * 4, 1000, "game", None, 2)
    assert capsys.readouterr().err == ""


def test_tournament_memory_is_flat_in_games():
    """Issue 10 item 5: peak RSS of a 200,000-game tournament within 10% of a 20,000-game one."""
    import subprocess

    code = ("import resource, wizsim.tournament as t; t.run_tournament(4, 'random', {n}, seed=1); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    rss = [int(subprocess.run([sys.executable, "-c", code.format(n=n)], capture_output=True, text=True,
                              check=True).stdout) for n in (20_000, 200_000)]
    assert rss[1] < 1.1 * rss[0], rss
