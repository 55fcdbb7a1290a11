"""``wizsim serve`` is ready at once and warms the kernels beside it (``web.server.Warming``): a question
waits, outside the line of answers, for the phase of the warm-up it needs (bid advice on the default model
first, then play advice, then search's and net's builds), and gets the same answer as a warm server's."""

import os
import threading
import time

import pytest

if os.environ.get("CI") != "true":  # in CI the test extra installs the web stack: a missing one fails
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from wizsim.web.app import create_app
from wizsim.web.server import WARM_QUESTIONS, Warming

BID = {"hand": "W,AS,3H", "trump": "S", "seat": 2, "seed": 3, "samples": 200}
PLAY = {"hand": "AS,KH", "trump": "S", "seat": 2, "bids": "1,0,1,0", "played": "5H", "seed": 3, "samples": 50}


def test_each_question_waits_for_its_phase():
    w = Warming()
    assert w.needed("advise", BID) is w.done["bid"]
    assert w.needed("advise", {**BID, "bids": "1", "trump_card": "W"}) is w.done["bid"]  # trump advice too
    assert w.needed("advise", PLAY) is w.done["play"]
    for policy in ("search", "net", "search:worlds=8", "mybot.py:Greedy"):
        assert w.needed("advise", {**BID, "policy": policy}) is w.done["all"]
        assert w.needed("advise", {**PLAY, "play": policy}) is w.done["all"]
    assert w.needed("review", {}) is w.done["all"]
    assert w.needed("play", {}) is w.done["all"]  # the practice table seats any policy


def test_the_warm_questions_cover_every_phase_in_order():
    phases = [Warming.phase_of(q) for q in WARM_QUESTIONS]
    assert set(phases) == set(Warming.PHASES)
    assert phases.count("bid") >= 2 and phases.count("play") >= 2  # Monte Carlo and exact, each


def _post_in_thread(client, body):
    out = {}

    def go():
        out["response"] = client.post("/api/advise", json=body)

    t = threading.Thread(target=go)
    t.start()
    return t, out


def test_a_question_is_answered_only_when_its_kernels_are_warm_and_as_a_warm_server_answers():
    warm = TestClient(create_app(workers=2), base_url="http://localhost").post("/api/advise", json=BID)
    assert warm.status_code == 200, warm.text
    warm_answer = warm.json()
    w = Warming()
    client = TestClient(create_app(workers=2, warming=w), base_url="http://localhost")
    assert client.get("/api/health").json()["warm"] is False
    t, out = _post_in_thread(client, BID)
    time.sleep(1.0)
    assert "response" not in out  # waiting for the bid phase
    w.done["bid"].set()
    t.join(60)
    assert out["response"].status_code == 200 and out["response"].json() == warm_answer
    t, out = _post_in_thread(client, PLAY)
    time.sleep(1.0)
    assert "response" not in out  # bid advice is warm, play advice is not yet
    w.done["play"].set()
    t.join(60)
    assert out["response"].status_code == 200 and out["response"].json()["phase"] == "play"
    assert client.get("/api/health").json()["warm"] is False
    w.done["all"].set()
    assert client.get("/api/health").json()["warm"] is True
