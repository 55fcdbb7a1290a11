"""Reasons (``explain=True``, ``advise --explain``, the review): the figures come from the advice's own
simulation and add up, the line of play is drawn from a real play-out of the advice's deals, and asking
for reasons changes nothing else."""

import json
import os
import re

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_advisor_kernel import questions

import wizsim
from wizsim.advisor.kernels import reference as ref
from wizsim.advisor.kernels.candidate_rounds import candidate_rounds_kernel
from wizsim.advisor.reasons import compare_cards
from wizsim.cards import parse_cards
from wizsim.cli import main
from wizsim.policies import make_slots
from wizsim.policies.dispatch import kernel_ext
from wizsim.policies.records import Fixed, Seats
from wizsim.record import review
from wizsim.rules.reference import trick_winners
from wizsim.stats import Z95

BID = dict(hand="W,AS,3H,KD,7C", trump="S", seat=2, players=4, bids=[1])
PLAY = dict(hand="AS,7S,KH,3D", trump="H", seat=2, players=4, bids=[1, 2, 0, 1], played="QS")
EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "docs", "example-game.json")
TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "none": -1}


@settings(deadline=None, max_examples=40)
@given(questions(), st.integers(0, 2**63 - 1), st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
def test_won_cards_match_the_twin_and_the_tricks(q, seed, indices):
    """The candidate kernel's ``won``: the advisor's cards that took a trick, as the plain-Python twin reads
    them off its trick log; as many as the tricks taken; the tricks themselves unchanged by asking."""
    players, r, n, k = q["players"], q["r"], len(indices), len(q["candidates"])
    slots = make_slots(["random"])

    def run(want):
        tricks = np.zeros((n, k), np.int8)
        won = np.zeros((n, k) if want else (0, 0), np.uint64)
        candidate_rounds_kernel(np.uint64(seed), np.asarray(indices, np.int64), players, r, q["hook"],
                                Seats(np.zeros(players, np.int8), slots.kinds, slots.params, slots.table),
                                Fixed(np.asarray(q["fixed_hands"], np.uint64), np.uint64(q["pool"]),
                                      np.int64(q["fixed_trump"]), np.asarray(q["bid_mode"], np.int8),
                                      np.asarray(q["fixed_bids"], np.int8)), np.asarray(q["candidates"], np.int8),
                                (q["seat"], False, tricks, np.zeros(n, np.int8), np.zeros((1, players), np.uint64),
                                 np.zeros(n, np.int16), won), kernel_ext(slots.kinds))
        return tricks, won

    tricks, won = run(True)
    want = ref.candidate_rounds(seed, indices, players, r, q["hook"], q["fixed_hands"], q["pool"], q["fixed_trump"],
                                q["bid_mode"], q["fixed_bids"], q["seat"], q["candidates"])
    assert won.astype(object).tolist() == want[3]
    assert [[bin(int(m)).count("1") for m in row] for row in won] == tricks.tolist()
    hand = int(q["fixed_hands"][q["seat"]])
    assert all(int(m) & ~hand == 0 for m in won.ravel())
    assert (run(False)[0] == tricks).all()


def _chance_sums(reasons):
    return np.array([sum(x["p_trick"]) for x in reasons["by_bid"]])


@pytest.mark.parametrize("doubt", [0.0, 0.2])
def test_bid_card_chances_add_up_to_the_expected_tricks(doubt):
    """Each bid's per-card chances add up to its expected tricks: exactly (the same deals and weights), so
    well within the Monte Carlo error of the figure; and with the table in doubt (blind seats drawn) too."""
    a = wizsim.advise(**BID, samples=3000, seed=5, explain=True, doubt=doubt)
    r = a.reasons
    assert [x["card"] for x in r["cards"]] == BID["hand"].split(",")
    assert r["bid"] == a.best_bid and [x["p_trick"] for x in r["cards"]] == r["by_bid"][a.best_bid]["p_trick"]
    assert _chance_sums(r) == pytest.approx(a.expected_tricks, abs=1e-9)
    assert np.array([x["p_tricks"] for x in r["by_bid"]]) == pytest.approx(a.p_tricks, abs=1e-12)
    assert all(0 <= p <= 1 for x in r["by_bid"] for p in x["p_trick"])
    # against another seed's answer: the same quantity within the Monte Carlo error of the two
    b = wizsim.advise(**BID, samples=3000, seed=6, explain=True, doubt=doubt)
    se = np.sqrt(2) * 1.0 / np.sqrt(3000)  # tricks' sd is at most about 1 here (5 cards, p_tricks above)
    assert np.abs(_chance_sums(b.reasons) - a.expected_tricks).max() < 2 * Z95 * se
    assert "W" in r["text"] and f"{a.expected_tricks[a.best_bid]:.2f}" in r["text"]


def test_round_one_exact_card_chance_is_the_expected_tricks():
    a = wizsim.advise("AS", "S", 2, bids=[1], explain=True)
    assert a.method == "exact"
    assert [x["p_trick"][0] for x in a.reasons["by_bid"]] == a.expected_tricks.tolist()
    t = wizsim.advise_trump("AS", 4, explain=True)
    assert t.reasons["cards"][0]["p_trick"] == t.reasons["suits"][t.best_index]["expected_tricks"]


def test_explain_changes_nothing_else_and_the_same_seed_gives_the_same_reasons():
    plain = wizsim.advise(**BID, samples=1500, seed=9)
    told = wizsim.advise(**BID, samples=1500, seed=9, explain=True)
    again = wizsim.advise(**BID, samples=1500, seed=9, explain=True)
    assert "reasons" not in plain.to_dict()
    d = told.to_dict()
    assert d.pop("reasons") == again.to_dict()["reasons"]
    assert json.dumps(d) == json.dumps(plain.to_dict())
    plain = wizsim.advise_play(**PLAY, samples=400, seed=9)
    told = wizsim.advise_play(**PLAY, samples=400, seed=9, explain=True)
    d = told.to_dict()
    assert d.pop("reasons") == wizsim.advise_play(**PLAY, samples=400, seed=9, explain=True).to_dict()["reasons"]
    assert json.dumps(d) == json.dumps(plain.to_dict()) and "reasons" not in plain.to_dict()
    plain = wizsim.advise_trump("W,AS,3H,KD", 4, samples=300, seed=9)
    told = wizsim.advise_trump("W,AS,3H,KD", 4, samples=300, seed=9, explain=True)
    d = told.to_dict()
    assert d.pop("reasons")["suit"] == plain.best_suit
    assert json.dumps(d) == json.dumps(plain.to_dict())
    for bad in (1, "yes", None):
        with pytest.raises(ValueError, match="explain must be True or False"):
            wizsim.advise(**BID, samples=10, seed=1, explain=bad)


def test_trump_card_chances_add_up_for_the_best_suit():
    t = wizsim.advise_trump("W,AS,3H,KD", 4, samples=800, seed=2, explain=True)
    r = t.reasons
    assert r["suit"] == t.best_suit
    assert [x["best_bid"] for x in r["suits"]] == t.best_bid.tolist()
    best = r["suits"][t.best_index]["expected_tricks"]
    assert sum(x["p_trick"] for x in r["cards"]) == pytest.approx(best, abs=1e-9)


def _check_play_out(advice, compare, hand_cards, trump):
    """The deal of a line of play: both play-outs are legal rounds with the rules' winners, start from
    the question's trick, and end with the tricks the advice counted on that deal."""
    ex = advice.explained
    deal = compare["deal"]
    i = deal["index"]
    cards = [wizsim.cards.format_card(int(c)) for c in advice.cards]
    a, b = cards.index(compare["card"]), cards.index(compare["other"])
    seat = advice.question["seat"]
    players = advice.question["players"]
    for play, j in zip(deal["plays"], (a, b), strict=True):
        assert play["tricks_taken"] == ex.tricks[i, j]
        taken = advice.question["tricks_taken"][seat - 1]
        for t in play["tricks"]:
            winner = trick_winners([parse_cards(",".join(t["cards"]))], trump)[0]
            assert t["winner"] == (t["leader"] - 1 + winner) % players + 1
            taken += t["winner"] == seat
        assert taken == play["tricks_taken"]
        mine = [t["cards"][(seat - t["leader"]) % players] for t in play["tricks"]]
        assert sorted(mine) == sorted(hand_cards) and mine[0] == play["card"]
    return deal


def _check_line(c, deal, seat, bid):
    """The line names the first trick the player wins after one card and not after the other, with the
    player's card in it, as the two play-outs' logs say, and how each play-out ends."""
    m = re.match(r"(?:after (\w+), your )?(\w+) (wins|loses) trick (\d+)", c["line"])
    assert m and (m.group(1) or m.group(2)) == c["card"], c["line"]
    t = int(m.group(4))
    pa, pb = deal["plays"]
    x = next(x for x in pa["tricks"] if x["trick"] == t)
    y = next(y for y in pb["tricks"] if y["trick"] == t)
    players = len(x["cards"])
    assert x["cards"][(seat - x["leader"]) % players] == m.group(2)
    assert (x["winner"] == seat) == (m.group(3) == "wins") != (y["winner"] == seat)
    earlier = [(u["winner"] == seat, v["winner"] == seat) for u, v in zip(pa["tricks"], pb["tricks"], strict=True)
               if u["trick"] < t]
    assert all(u == v for u, v in earlier)  # the first trick where they differ
    assert pa["tricks_taken"] != pb["tricks_taken"]
    ends = re.findall(r"you (make your bid|end \w+ (?:under|over))", c["line"])
    assert len(ends) == 2
    for play, end in zip((pa, pb), ends, strict=True):
        taken = play["tricks_taken"]
        assert ("make your bid" if taken == bid else "under" if taken < bid else "over") in end
    named = set(re.findall(r"\b([2-9TJQKA][SHDC]|W|J)\b", c["line"]))  # every card named is one of the deal
    assert named <= {card for p in deal["plays"] for t in p["tricks"] for card in t["cards"]}


def test_card_reasons_restate_the_table_and_the_line_is_its_deal():
    adv = wizsim.advise_play(**PLAY, samples=600, seed=3, explain=True)
    r = adv.reasons
    assert r["cards"] == [{k: row[k] for k in ("card", "expected_tricks", "p_make", "ev")} for row in adv.rows()]
    c = r["compare"]
    assert c["card"] == adv.best_card and c["other"] != c["card"]
    deal = _check_play_out(adv, c, PLAY["hand"].split(","), TRUMPS[PLAY["trump"]])
    _check_line(c, deal, PLAY["seat"], PLAY["bids"][PLAY["seat"] - 1])
    # the advised card against any other: the review's comparison, the same deals
    other = compare_cards(adv, adv.best_index, 1 - adv.best_index)
    assert other == c
    assert 0 <= c["worse"] <= c["better"] + c["worse"] <= 1


def test_card_reasons_on_the_exact_path():
    """A late trick is enumerated: the line comes from an enumerated deal, played out again."""
    q = dict(hand="AS,7S", trump="H", seat=2, players=3, bids=[1, 1, 1], played="2H,3H,4H/5H,6H", trump_card="KH")
    adv = wizsim.advise_play(**q, explain=True)
    assert adv.method == "exact"
    c = adv.reasons["compare"]
    deal = _check_play_out(adv, c, q["hand"].split(","), TRUMPS[q["trump"]])
    _check_line(c, deal, q["seat"], q["bids"][q["seat"] - 1])


def test_cli_explain_text_and_json():
    runner = CliRunner()
    args = ["advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--samples", "500", "--seed", "4"]
    out = runner.invoke(main, [*args, "--explain"])
    assert out.exit_code == 0 and "Why: each card's chance of taking a trick when you bid" in out.output
    assert "Why" not in runner.invoke(main, args).output
    d = json.loads(runner.invoke(main, [*args, "--explain", "--json"]).output)
    assert d["reasons"] == wizsim.advise("W,AS,3H", "S", 2, samples=500, seed=4, explain=True).reasons
    assert "reasons" not in json.loads(runner.invoke(main, [*args, "--json"]).output)
    play = ["advise", "--hand", PLAY["hand"], "--trump", "H", "--seat", "2", "--bids", "1,2,0,1", "--played", "QS",
            "--samples", "300", "--seed", "4", "--explain"]
    out = runner.invoke(main, play)
    assert out.exit_code == 0
    line = wizsim.advise_play(**PLAY, samples=300, seed=4, explain=True).reasons["compare"]["line"]
    assert f"Why: {line}." in out.output


def test_http_explain():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from wizsim.web.app import create_app

    with TestClient(create_app(workers=1), base_url="http://127.0.0.1") as client:
        body = {"hand": "W,AS,3H", "trump": "S", "seat": 2, "samples": 400, "seed": 2}
        got = client.post("/api/advise", json={**body, "explain": True})
        assert got.status_code == 200
        assert got.json()["reasons"] == wizsim.advise("W,AS,3H", "S", 2, samples=400, seed=2, explain=True).reasons
        assert "reasons" not in client.post("/api/advise", json=body).json()
        bad = client.post("/api/advise", json={**body, "explain": "yes"})
        assert bad.status_code == 422 and bad.json()["detail"] == 'explain must be true or false, got "yes"'
        play = client.post("/api/advise", json={**PLAY, "samples": 300, "seed": 2, "explain": True})
        assert play.status_code == 200
        assert play.json()["reasons"]["compare"]["line"]


def test_review_carries_reasons_for_each_decision():
    rv = review(EXAMPLE, samples=300, seed=1).to_dict()
    for d in rv["decisions"]:
        r = d["reasons"]
        assert r["kind"] == d["kind"]
        if d["kind"] == "bid":
            assert r["bid"] == d["best"] and r["chosen"] == d["chosen"]
            assert sum(r["best"]["p_trick"]) == pytest.approx(r["best"]["expected_tricks"], abs=1e-9)
        elif d["kind"] == "card":
            c = r["compare"]
            assert c is None or c["card"] == d["best"]
            if d["chosen"] != d["best"]:
                assert c["other"] == d["chosen"] and c["line"]
    text = wizsim.render.render(review(EXAMPLE, samples=300, seed=1))
    lost = [d for d in rv["decisions"] if d["chosen"] != d["best"]]
    assert all(d["reasons"]["text"] in text for d in lost if d["kind"] != "trump")
