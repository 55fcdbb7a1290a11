"""Trump advice (issue 17 item 5): the dealer on a turned-up Wizard asks which suit to name."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import wizsim
from wizsim.advisor import AdviceError
from wizsim.cli import main


def test_each_suit_is_its_best_bid_advice_on_the_same_deals():
    """A suit's row is the bid advisor's answer with that suit named: its best bid and expected score."""
    a = wizsim.advise_trump("W,AS,3H,KH,QH", 4, seed=1, samples=3000)
    assert a.method == "monte-carlo" and a.samples == 3000
    assert list(a.table.columns) == ["suit", "best_bid", "ev", "ev_low", "ev_high"]
    assert list(a.table["suit"]) == ["S", "H", "D", "C"]
    for s, suit in enumerate("SHDC"):
        bid = wizsim.advise("W,AS,3H,KH,QH", suit, 4, trump_card="W", seed=1, samples=3000)
        assert a.best_bid[s] == bid.best_bid
        assert a.ev[s] == pytest.approx(bid.ev[bid.best_bid], abs=1e-9)
    assert a.best_suit == "H"  # three hearts with the king and queen: hearts


def test_round_one_is_exact_and_names_the_cards_suit_only_when_it_pays():
    a = wizsim.advise_trump("AS", 4, players=4)
    assert a.method == "exact" and (a.ev_low == a.ev).all() and (a.ev_high == a.ev).all()
    assert a.best_suit == "S" and a.best_bid[0] == 1  # the ace of trumps loses only to a Wizard
    for s, suit in enumerate("SHDC"):
        bid = wizsim.advise("AS", suit, 4, trump_card="W")
        assert a.ev[s] == pytest.approx(bid.ev.max(), abs=1e-12)


def test_a_close_call_names_the_suits_within_precision():
    """Two Jesters and a Wizard: no suit matters, every suit is within precision of the best."""
    a = wizsim.advise_trump("J,J,W", 4, seed=2)
    assert a.best_suit in a.close_call and len(a.close_call) >= 2


def test_only_the_dealer_names_the_trump_and_before_any_bid():
    with pytest.raises(AdviceError, match="only the dealer"):
        wizsim.advise_trump("7C,8C", 3, players=4)
    with pytest.raises(AdviceError, match="before anyone bids"):
        wizsim.advise_trump("7C,8C", 4, bids=[1, 0, 1])
    with pytest.raises(ValueError, match="bid_trust"):
        wizsim.advise_trump("7C,8C", 4, bid_trust=2)


def test_the_hook_never_scores_a_forbidden_bid():
    """With the hook, a deal on which the others' bids forbid the dealer's bid b scores b as its neighbour
    with the better average (chosen without seeing the deal), never as b itself."""
    from wizsim.advisor.trump import _dealer_scores

    tricks = np.array([[0, 1, 2], [1, 1, 1], [2, 2, 0]], np.int8)  # r = 2: three deals, bids 0..2
    free = _dealer_scores(tricks, None, 2)
    hooked = _dealer_scores(tricks, np.array([2, 1, 0], np.int16), 2)  # forbidden: 0, 1, 2
    assert hooked[0, 0] == free[0, 1]  # 0 forbidden: only 1 is next to it
    better = 0 if free[:, 0].mean() >= free[:, 2].mean() else 2
    assert hooked[1, 1] == free[1, better]
    assert hooked[2, 2] == free[2, 1]
    assert (hooked[[1, 2], 0] == free[[1, 2], 0]).all()  # allowed bids keep their scores


def test_cli_trump_phase_text_and_json():
    args = ["advise", "--hand", "W,AS,3H,KH,QH", "--trump-card", "W", "--seat", "4", "--seed", "1", "--samples",
            "1000"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "name the trump" in text.output and "<- name H" in text.output
    out = CliRunner().invoke(main, [*args, "--json"])
    obj = json.loads(out.output)
    assert obj["phase"] == "trump" and obj["best_suit"] == "H"
    assert [row["suit"] for row in obj["table"]] == ["S", "H", "D", "C"]
    assert list(obj) == ["phase", "hand", "players", "seat", "earlier_bids", "hook", "best_suit", "method",
                         "samples", "table", "close_call", "policy", "warning"]
    bad = CliRunner().invoke(main, ["advise", "--hand", "W,AS", "--trump-card", "W", "--seat", "2"])
    assert bad.exit_code == 2 and "the suit the dealer named" in bad.output  # not the dealer: give the suit
    assert np.isfinite([row["ev"] for row in obj["table"]]).all()
