"""The game record (issue 19 item 1): JSON round trip, the rules' scores, seats from the first dealer,
the export of simulated games, the JSON Schema, and every bad record refused with one line naming the
entry, alike in Python (ValueError), on the command line (exit 2) and over HTTP (422)."""

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import wizsim
from wizsim.cards import format_cards, mask_to_cards
from wizsim.cli import main
from wizsim.record import GameRecord, RecordError, from_games, schema
from wizsim.rules.api import score

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "example-game.json"


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def test_round_trip_text_file_and_dict(tmp_path):
    rec = GameRecord.load(EXAMPLE)
    assert GameRecord.from_json(rec.to_json()).to_dict() == rec.to_dict() == example()
    assert GameRecord.from_json(rec.to_json(indent=None)).to_dict() == rec.to_dict()
    rec.save(tmp_path / "g.json")
    assert GameRecord.load(tmp_path / "g.json") == rec
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left behind
    assert wizsim.GameRecord is GameRecord


def test_canonical_text_and_defaults():
    d = {"players": [" Ann", "Bob", "Cleo"], "first_dealer": 0,
         "rounds": [{"r": 1, "turn_up": "10h", "trump": "h", "bids": [0, 1, 0], "tricks": [0, 1, 0],
                     "hand": "z"}], "me": 1}
    rec = GameRecord.from_dict(d)
    assert rec.players[0] == "Ann" and rec.hook is False
    assert rec.rounds[0].turn_up == "TH" and rec.rounds[0].trump == "H" and rec.rounds[0].hand == "W"


def test_totals_are_the_rules_scores():
    rec = GameRecord.load(EXAMPLE)
    expect = np.zeros(3, int)
    for k, rd in enumerate(rec.rounds):
        expect += [score(b, t) for b, t in zip(rd.bids, rd.tricks, strict=True)]
        assert rec.totals()[k] == list(expect)
    assert rec.totals()[-1] == [90, 30, 20]
    # bid 0 took 0: 20; bid 2 took 3: -10; bid 4 took 4: 60
    assert score(0, 0) == 20 and score(2, 3) == -10 and score(4, 4) == 60


def test_seats_follow_the_dealer_clockwise():
    rec = GameRecord.load(EXAMPLE)  # first_dealer 1 (Bob)
    assert [rec.dealer(k) for k in range(4)] == [1, 2, 0, 1]
    assert rec.seat_players(0) == (2, 0, 1)  # Cleo bids first, Bob deals
    f = rec.facts(2)  # Ann deals round 3: Bob is seat 1 and leads
    assert f.seat_of(1) == 1 and f.seat_of(0) == 3 and f.bids_by_seat == (1, 0, 2)
    assert [pl.player for pl in f.plays[:3]] == [1, 2, 0]


def test_a_partial_game_is_a_record():
    d = example()
    d["rounds"] = d["rounds"][:3]
    d["rounds"][-1]["tricks"] = None
    d["rounds"][-1]["played"] = "5C,8H"
    rec = GameRecord.from_dict(d)
    assert rec.scores()[-1] is None and len(rec.totals()) == 2
    assert rec.facts(2).hand is not None and not rec.facts(2).complete
    assert GameRecord.from_dict({"players": ["a", "b", "c"], "first_dealer": 2, "rounds": []}).totals() == []


def test_hand_read_off_a_complete_round():
    d = example()
    del d["rounds"][3]["hand"]
    rec = GameRecord.from_dict(d)
    assert sorted(rec.facts(3).hand) == sorted(GameRecord.load(EXAMPLE).facts(3).hand)


@pytest.mark.parametrize("players,hook", [(3, False), (4, True), (6, False)])
def test_export_of_simulated_games_revalidates(players, hook):
    batch = wizsim.simulate_games(players, 3, "heuristic", seed=5, hook=hook, trick_log=True)
    for g in range(batch.n):
        rec = from_games(batch, g, me=g % players, hook=hook)
        again = GameRecord.from_json(rec.to_json())
        assert again.to_dict() == rec.to_dict()
        assert again.totals()[-1] == list(batch.final[g])
        assert all(again.facts(k).complete for k in range(len(rec.rounds)))
        for k in range(len(rec.rounds)):  # me's hand is the seat's dealt hand
            seat = again.facts(k).seat_of(rec.me) - 1
            dealt = format_cards(mask_to_cards(int(batch.hands[g, k, seat])))
            assert format_cards(sorted(again.facts(k).hand)) == dealt  # Wizards and Jesters by kind
    plain = from_games(wizsim.simulate_games(players, 1, "random", seed=1), 0, me=None)
    assert plain.rounds[0].played is None and plain.rounds[0].hand is None and plain.me is None


def test_schema_accepts_records_and_refuses_unknown_fields():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    assert not list(validator.iter_errors(example()))
    batch = wizsim.simulate_games(4, 1, "heuristic", seed=2, trick_log=True)
    assert not list(validator.iter_errors(from_games(batch, 0).to_dict()))
    d = example()
    d["rounds"][0]["score"] = 20
    assert list(validator.iter_errors(d))


def _set(path, value):
    def change(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return d
    return change


def _drop_round(i):
    def change(d):
        del d["rounds"][i]
        return d
    return change


BAD = [
    (_set(("rounds", 3, "bids"), [2, 2, 5]), "rounds[3].bids: Cleo's bid 5 is above the hand size 4"),
    (_set(("rounds", 2, "tricks"), [2, 1, 1]), "rounds[2].tricks: the tricks add up to 4, but round 3 has 3 tricks"),
    (_drop_round(1), "rounds[1].r: round 2 expected here"),
    (_set(("rounds", 0, "score"), 20), "rounds[0]: unknown field 'score'"),
    (_set(("colour",), "red"), "record: unknown field 'colour'"),
    (_set(("me",), 3), "me: the index of the reviewed player in players, 0..2"),
    (_set(("hook",), True), "rounds[2].bids: with the hook the dealer (Ann) may not bid 2"),
    (_set(("rounds", 1, "turn_up"), "8H"), "rounds[1].turn_up: 8H is also in the hand"),
    (_set(("rounds", 2, "played"), "5C,QH,6C/W,8C,5S/J,8H,2D"), "rounds[2].played: card 2 (QH, trick 1, Cleo): "
                                                               "QH is in Bob's hand"),
    (_set(("rounds", 3, "played"), "6H,JS,5H/AC,5C,TD/KC,AS,KH/4S,KD,6H"), "rounds[3].played: 6H is played twice"),
    (_set(("rounds", 3, "tricks"), [2, 2, 0]), "rounds[3].tricks: the cards played give Ann 3 trick(s), the record "
                                              "says 2"),
    (_set(("rounds", 0, "trump"), "S"), "rounds[0].trump: the turned-up 5H makes H trump"),
    (_set(("rounds", 2, "hand"), "QH,5C"), "rounds[2].hand: 2 cards, but round 3 deals 3"),
    (_set(("rounds", 1, "bids"), [1, "0", 0]), "rounds[1].bids: Bob's bid must be a whole number"),
    (_set(("rounds", 1, "tricks"), KeyError), "rounds[1].tricks: required"),
    (_set(("players",), ["Ann", "Bob"]), "players: a list of 3..6 names"),
    (_set(("players",), ["Ann", "Bob", "Ann"]), "players[2]: 'Ann' is also players[0]"),
    (_set(("first_dealer",), 3), "first_dealer: the index of the first dealer in players, 0..2"),
    (_set(("rounds", 3, "played"), "6H,JS,5H/AC,5C,TD/KC,AS,KH/4S,KD,7S/2C"), "rounds[3].played: 13 cards, but "
                                                                            "round 4 has only 12"),
    (_set(("rounds", 2, "played"), "5C,8H,6C/W,8C,5S/J,2D,QH"), "rounds[2].played: card 8 (2D, trick 3, Bob): 2D is "
                                                               "not in Bob's hand"),
    (_set(("rounds", 3, "turn_up"), "J"), "rounds[3].trump: a Jester turned up means no trump"),
    (_set(("rounds", 1, "played"), "J,8H,3H/TH,TC,8S,9S"), "rounds[1].played: 7 cards, but round 2 has only 6"),
    (_set(("rounds", 1, "played"), "J,8H/3H,TH,TC,8S"), "rounds[1].played: the '/' after card 2 does not close a "
                                                       "trick"),
]


@pytest.mark.parametrize("change,message", BAD, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BAD)])
def test_bad_record_python(change, message):
    with pytest.raises(ValueError) as err:
        GameRecord.from_dict(change(example()))
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)
    assert isinstance(err.value, RecordError)


@pytest.mark.parametrize("change,message", BAD[:8] + BAD[10:12], ids=[m.split(":")[0] for _, m in BAD[:8] + BAD[10:12]])
def test_bad_record_cli_exits_2(tmp_path, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(change(example())))
    res = CliRunner().invoke(main, ["review", str(path), "--json"])
    assert res.exit_code == 2, res.output
    assert f"Error: {message}" in res.output
    assert "Traceback" not in res.output


def test_cli_bad_file(tmp_path):
    res = CliRunner().invoke(main, ["review", str(tmp_path / "none.json")])
    assert res.exit_code == 2 and "Error: record: cannot read" in res.output
    (tmp_path / "x.json").write_text("{not json")
    res = CliRunner().invoke(main, ["review", str(tmp_path / "x.json")])
    assert res.exit_code == 2 and "Error: record: not valid JSON" in res.output
    nobody = {**example(), "me": None}
    for rd in nobody["rounds"]:
        rd.pop("hand")
    (tmp_path / "y.json").write_text(json.dumps(nobody))
    res = CliRunner().invoke(main, ["review", str(tmp_path / "y.json")])
    assert res.exit_code == 2 and "Error: me: the review rates the decisions of one player" in res.output


@pytest.mark.parametrize("change,message", BAD, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BAD)])
def test_bad_record_http_422(client, change, message):
    res = client.post("/api/review", json=change(example()))
    assert res.status_code == 422, res.text
    assert res.json()["detail"].startswith(message)


def test_http_bad_bodies(client):
    assert client.post("/api/review", json=[1, 2]).status_code == 400
    res = client.post("/api/review", json={**example(), "samples": 10**7})
    assert res.status_code == 422 and "samples on this server" in res.json()["detail"]
    res = client.post("/api/review", json={**example(), "seed": "x"})
    assert res.status_code == 422 and res.json()["detail"] == 'seed must be a whole number, got "x"'
    res = client.post("/api/review", json={**example(), "round": 9})
    assert res.status_code == 422 and res.json()["detail"].startswith("round: round numbers 1..4")


def test_record_is_not_changed_by_an_error():
    d = example()
    before = copy.deepcopy(d)
    with pytest.raises(RecordError):
        GameRecord.from_dict(_set(("rounds", 3, "bids"), [2, 2, 5])(d))
    d["rounds"][3]["bids"] = before["rounds"][3]["bids"]
    assert d == before
