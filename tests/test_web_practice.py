"""``POST /api/play``, the practice table, through the framework's test client: a game played to its end
by the API is a valid game record whose totals are the answer's; the same seed and choices give the same
game (from the memo or replayed from nothing); the others' decisions are those of ``wizsim.player`` seated
at a ``wizsim.Game`` of the same seed; the hint request is one ``POST /api/advise`` answers with a legal
choice; bad setups and choices are one-line 4xx, and no request names a file to load."""

import os
import random

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")

import wizsim
from wizsim.record import GameRecord
from wizsim.web import practice
from wizsim.web.app import create_app


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    with TestClient(create_app(workers=2), base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c


def play_out(client, body: dict, pick=None) -> list[dict]:
    """Every answer of a game played to its end, ``pick(answer)`` choosing (default: a seeded random legal)."""
    rng = random.Random(1)
    pick = pick or (lambda a: rng.choice(a["legal"]))
    body = {**body, "choices": []}
    answers = []
    while True:
        res = client.post("/api/play", json=body)
        assert res.status_code == 200, res.text
        a = res.json()
        answers.append(a)
        if a["game_over"]:
            return answers
        assert a["to_act"] and a["legal"]
        body["choices"] = [*body["choices"], pick(a)]


def test_a_game_played_through_the_api_is_a_valid_record(client):
    answers = play_out(client, {"players": 4, "me": 2, "seed": 11, "rounds": 4, "policies": "heuristic"})
    last = answers[-1]
    record = GameRecord.from_dict(last["record"])
    assert len(record.rounds) == 4 and all(rd.tricks is not None for rd in record.rounds)
    assert list(record.totals()[-1]) == last["totals"]
    assert all(rd.played and len(rd.played.replace("/", ",").split(",")) == 4 * rd.r for rd in record.rounds)
    kinds = {a["phase"] for a in answers[:-1]}
    assert {"bid", "card"} <= kinds
    for a in answers[:-1]:  # the hint asks exactly this decision, from what the seat knows
        hint = client.post("/api/advise", json={**a["advise"], "samples": 50, "seed": 0})
        assert hint.status_code == 200, (a["advise"], hint.text)
        h = hint.json()
        best = h.get("best_card", h.get("best_bid", h.get("best_suit")))
        assert best in a["legal"], (a["phase"], best, a["legal"])


def test_the_others_decide_as_wizsim_players_at_a_game_of_the_same_seed(client):
    body = {"players": 3, "me": 0, "seed": 4, "rounds": 3, "policies": ["heuristic", "random"]}
    answers = play_out(client, body)
    choices = [a["choices_taken"] for a in answers]
    assert choices == list(range(len(answers)))
    mine = []
    rng = random.Random(1)
    for a in answers[:-1]:
        mine.append(rng.choice(a["legal"]))
    # the same game stepped here through the public API alone
    game = wizsim.Game(3, seed=4)
    bots = {1: wizsim.player("heuristic", seed=practice._bot_seed(4, 1)),
            2: wizsim.player("random", seed=practice._bot_seed(4, 2))}
    it = iter(mine)
    while len(game.history) < 3:
        p = game.current_player - 1
        obs = game.observation(p + 1)
        if p == 0:
            choice = next(it)
            action = "SHDC".index(choice) if obs.phase == "trump" else choice if obs.phase == "bid" else \
                wizsim.parse_cards(choice)[0]
            if obs.phase == "card" and action not in obs.legal:  # another copy of a Wizard or Jester
                action = next(c for c in obs.legal if wizsim.format_cards([c]) == choice)
        else:
            action = getattr(bots[p], obs.phase)(obs)
        game.apply(action)
    assert list(game.scores()) == answers[-1]["totals"]


def test_same_seed_and_choices_same_game_from_the_memo_or_from_nothing(client):
    body = {"players": 5, "me": 4, "seed": 3, "rounds": 3}
    answers = play_out(client, body)
    choices = []
    rng = random.Random(1)
    for a in answers[:-1]:
        choices.append(rng.choice(a["legal"]))
    practice._memo.clear()
    again = client.post("/api/play", json={**body, "choices": choices}).json()
    assert again == answers[-1]
    half = client.post("/api/play", json={**body, "choices": choices[:5]}).json()  # a reload mid-game
    assert half == answers[5]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"players": 7}, 422, "players must be a whole number 3..6, got 7"),
    ({"me": 4}, 422, "me must be a whole number 0..3, got 4"),
    ({"seat": 1}, 422, "unknown field 'seat'"),
    ({"policies": "nosuch"}, 422, "policies[0]: unknown policy 'nosuch'"),
    ({"policies": "/tmp/evil.py:Bot"}, 422, "policies[0]: unknown policy"),
    ({"policies": ["heuristic", "random"]}, 422, "a list of 3 (one per other player)"),
    ({"rounds": 16}, 422, "rounds must be a whole number 1..15, got 16"),
    ({"choices": "3"}, 422, "choices must be a list"),
    ({"choices": ["AS"]}, 422, "choices[0]: your bid, a whole number 0..1, got \"AS\""),
    ({"choices": [7]}, 422, "choices[0]: a bid 7 is not legal"),
    ({"rounds": 1, "choices": [0, "XX"]}, 422, "choices[1]"),
    ({"names": ["A", "A", "B", "C"]}, 422, "names must be 4 different names"),
])
def test_bad_setups_and_choices_are_one_line(client, body, status, words):
    res = client.post("/api/play", json={"seed": 1, **body})
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert words in detail and "\n" not in detail


def test_a_body_that_is_not_an_object_is_400(client):
    res = client.post("/api/play", content=b"[1]", headers={"content-type": "application/json"})
    assert res.status_code == 400
