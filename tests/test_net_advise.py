"""``wizsim advise --policy net`` (issue 35 deliverable 5): the advisor's opponents modelled as the learned
player, for bid, play and trump advice; the same seed gives the same answer, the answer says which model
it used and is not the heuristic's, and only legal choices are advised."""

import json

import pytest
from helpers import invoke

QUESTIONS = {
    "bid": ["--hand", "W,AS,3H,KD,9C", "--trump", "S", "--seat", "2", "--bids", "1"],
    "play": ["--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--bids", "1,1,0,1", "--played", "5S"],
    "trump": ["--hand", "AS,3H,KD,7C,9H,2D", "--seat", "4", "--trump-card", "W"],
}
KEY = {"bid": "bid", "play": "card", "trump": "suit"}
BEST = {"bid": "best_bid", "play": "best_card", "trump": "best_suit"}


def _ask(phase: str, policy: str) -> dict:
    res = invoke("advise", *QUESTIONS[phase], "--policy", policy, "--seed", "1", "--samples", "600", "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.mark.parametrize("phase", ["bid", "play", "trump"])
def test_advise_with_policy_net(phase):
    got = _ask(phase, "net")
    assert got["phase"] == phase and got["policy"] == "net" and got["warning"] is None
    assert got == _ask(phase, "net")  # same seed, same answer
    rows = {row[KEY[phase]]: row for row in got["table"]}
    assert got[BEST[phase]] in rows
    if phase == "play":  # spades led: the ace follows, the Wizard may always be played, the 3H may not
        assert set(rows) == {"AS", "W"}
    if phase == "trump":
        assert set(rows) == set("SHDC")
    if phase == "bid":
        assert set(rows) == set(range(6))
    # the opponents' model is used: the heuristic's answer to the same question, on the same seed, differs
    assert got["table"] != _ask(phase, "heuristic")["table"]


def test_advise_net_for_some_seats_and_bad_parameters():
    res = invoke("advise", *QUESTIONS["bid"], "--policy", "net,heuristic,net", "--seed", "1", "--samples", "300",
                 "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["policy"] == "net,heuristic,net"
    bad = invoke("advise", *QUESTIONS["bid"], "--policy", "net:worlds=3")
    assert bad.exit_code == 2 and "unknown parameter 'worlds'" in bad.output and "Traceback" not in bad.output
