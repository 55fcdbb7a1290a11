"""``POST /api/advise`` through the framework's test client: the answer is the library's
``Advice.to_dict()`` (plus ``p_tricks``), every bad input is a 4xx with one line naming the problem
(the CLI's own message where the library writes it), the server's bounds hold, and the page ships
every asset itself."""

import json
import os
import re
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner

if os.environ.get("CI") != "true":  # in CI the test extra installs the web stack: a missing one fails
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")

import wizsim
from wizsim.cli import main
from wizsim.config import MAX_SEED
from wizsim.web.api import MAX_BODY_BYTES, MAX_CARD_PLAYS, MAX_SAMPLES
from wizsim.web.app import create_app

EXAMPLE = {"hand": "W,AS,3H", "trump": "S", "seat": 2}
FIFTEEN = ",".join(f"{r}H" for r in "23456789TJQKA") + ",AS,KS"


API_WORKERS = 2  # the conftest's client: two requests at once


def post(client, body, **kwargs):
    if isinstance(body, (str, bytes)):
        kwargs.setdefault("headers", {"content-type": "application/json"})
        return client.post("/api/advise", content=body, **kwargs)
    return client.post("/api/advise", json=body, **kwargs)


def test_bid_answer_is_the_librarys_to_dict_plus_p_tricks(client):
    res = post(client, {**EXAMPLE, "seed": 7})
    assert res.status_code == 200, res.text
    advice = wizsim.advise("W,AS,3H", "S", 2, seed=7)
    assert res.json() == {**advice.to_dict(), "p_tricks": advice.p_tricks.tolist()}
    assert list(res.json())[: len(advice.to_dict())] == list(advice.to_dict())  # the CLI's keys, in its order


def test_every_option_reaches_the_library(client):
    body = {"hand": "KS,9H,2C,J", "trump_card": "7D", "seat": 4, "players": 4, "bids": [1, 0, 2], "hook": True,
            "samples": 300, "seed": 3, "policy": "random"}
    res = post(client, body)
    assert res.status_code == 200, res.text
    advice = wizsim.advise("KS,9H,2C,J", None, 4, 4, bids=[1, 0, 2], hook=True, trump_card="7D", samples=300, seed=3,
                           policy="random")
    assert res.json() == {**advice.to_dict(), "p_tricks": advice.p_tricks.tolist()}
    assert res.json()["table"][1]["allowed"] is False  # the hook forbids 4 - 3 = 1
    text_bids = post(client, {**body, "bids": "1,0,2"})
    assert text_bids.json() == res.json()


def test_the_opponents_model_reaches_the_library(client):
    body = {**EXAMPLE, "bids": [3], "samples": 300, "seed": 3, "bid_trust": 0.9, "play_noise": 0.2, "doubt": 0.5}
    res = post(client, body)
    assert res.status_code == 200, res.text
    advice = wizsim.advise("W,AS,3H", "S", 2, bids=[3], samples=300, seed=3, bid_trust=0.9, play_noise=0.2, doubt=0.5)
    assert res.json() == {**advice.to_dict(), "p_tricks": advice.p_tricks.tolist()}
    assert res.json() != post(client, {**body, "doubt": 0.0}).json()  # the doubt is not dropped on the way
    play = post(client, {"hand": "AS,KH", "trump": "S", "seat": 2, "bids": "1,0,1,0", "played": "5H", "doubt": 0.5,
                         "seed": 3})
    assert play.status_code == 200, play.text
    assert play.json() == wizsim.advise_play("AS,KH", "S", 2, bids=[1, 0, 1, 0], played="5H", doubt=0.5,
                                             seed=3).to_dict()
    assert play.json()["doubt"] == 0.5


def test_round_one_is_exact(client):
    res = post(client, {"hand": "AS", "trump": "S", "seat": 1})
    assert res.status_code == 200
    assert res.json()["method"] == "exact"
    assert res.json() == {**(a := wizsim.advise("AS", "S", 1)).to_dict(), "p_tricks": a.p_tricks.tolist()}


BAD = [
    ({**EXAMPLE, "hand": "W,XS,3H"}, 422, "unknown card 'XS'"),
    ({**EXAMPLE, "hand": "AS,AS"}, 422, "duplicate card 'AS'"),
    ({**EXAMPLE, "hand": "1S,3H"}, 422, "'1S' is not a rank"),
    ({**EXAMPLE, "hand": ""}, 422, "the hand is empty"),
    ({**EXAMPLE, "hand": ",".join(f"{r}{s}" for s in "SH" for r in "23456789TJQKA")}, 422, "too many for 4 players"),
    ({**EXAMPLE, "seat": 5}, 422, "seat must be 1..4"),
    ({**EXAMPLE, "seat": 0}, 422, "seat must be 1..4"),
    ({**EXAMPLE, "players": 7}, 422, "players must be 3..6, got 7"),
    ({**EXAMPLE, "players": 2}, 422, "players must be 3..6, got 2"),
    ({**EXAMPLE, "bids": "1,0"}, 422, "seat 2 hears 1 earlier bid"),
    ({**EXAMPLE, "bids": [1, 0, 2]}, 422, "seat 2 hears 1 earlier bid"),
    ({**EXAMPLE, "bids": "4"}, 422, "bids are 0..3"),
    ({**EXAMPLE, "bids": "x"}, 422, "not a whole number"),
    ({**EXAMPLE, "trump_card": "AS"}, 422, "also in the hand"),
    ({**EXAMPLE, "trump_card": "7H"}, 422, "makes trump H, not S"),
    ({**EXAMPLE, "trump": "X"}, 422, "unknown trump 'X'"),
    ({"hand": "W,AS,3H", "seat": 2}, 422, "give the trump"),
    ({**EXAMPLE, "samples": 0}, 422, "samples must be 1 or more, got 0"),
    ({**EXAMPLE, "samples": MAX_SAMPLES + 1}, 422, f"samples on this server must be 1..{MAX_SAMPLES}, got"),
    ({"hand": FIFTEEN, "trump": "S", "seat": 2, "samples": MAX_CARD_PLAYS // (16 * 15 * 4) + 1}, 422,
     f"samples for a 15-card hand at 4 players on this server (at most {MAX_CARD_PLAYS:,} simulated heuristic card "
     f"plays a request) must be 1..{MAX_CARD_PLAYS // (16 * 15 * 4)}, got"),
    # search players cost tens of thousands of heuristic card plays a card: 2,000 deals were minutes of a worker
    ({**EXAMPLE, "policy": "search", "samples": 2000}, 422, "each for these policies) must be 1.."),
    ({**EXAMPLE, "play": "search", "samples": 2000}, 422, "each for these policies) must be 1.."),
    ({**EXAMPLE, "seed": -3}, 422, f"seed must be 0..{MAX_SEED}, got -3"),
    ({**EXAMPLE, "policy": "clever"}, 422, "unknown policy 'clever'"),
    ({"hand": "W,AS,3H", "trump": "S", "seat": 4, "hook": True}, 422, "needs the earlier bids"),
    # wrong JSON types: named, never coerced
    ({**EXAMPLE, "seat": "2"}, 422, "seat must be a whole number, got \"2\""),
    ({**EXAMPLE, "seat": 2.0}, 422, "seat must be a whole number, got 2.0"),
    ({**EXAMPLE, "seat": True}, 422, "seat must be a whole number, got true"),
    ({**EXAMPLE, "hand": ["W", "AS"]}, 422, "hand must be text like"),
    ({**EXAMPLE, "hook": "yes"}, 422, "hook must be true or false, got \"yes\""),
    ({**EXAMPLE, "bids": [1.5]}, 422, "bids must be text like \"1,0\" or a list of whole numbers, got [1.5]"),
    ({**EXAMPLE, "samples": "many"}, 422, "samples must be a whole number"),
    ({"trump": "S", "seat": 2}, 422, "hand is required"),
    ({**EXAMPLE, "colour": "red"}, 422, "unknown field 'colour'"),
    ({**EXAMPLE, "hand": "AS," * 100}, 422, "hand is too long"),
    ('{"hand": "W,AS', 400, "not valid JSON"),
    ("[1, 2]", 400, "must be a JSON object, got [1, 2]"),
    ("\"W,AS,3H\"", 400, "must be a JSON object"),
    ("", 400, "needs a JSON object body"),
]


@pytest.mark.parametrize("body,status,needle", BAD, ids=[f"{i}-{b[2][:30]}" for i, b in enumerate(BAD)])
def test_bad_input_is_a_4xx_with_one_line(client, body, status, needle):
    res = post(client, body)
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail
    assert needle in detail, detail


def test_body_too_large_is_413(client):
    big = json.dumps({**EXAMPLE, "policy": "x" * MAX_BODY_BYTES})
    res = post(client, big)
    assert res.status_code == 413
    assert res.json() == {"detail": f"the request body is larger than {MAX_BODY_BYTES:,} bytes"}
    chunked = client.post("/api/advise", content=iter([big[:9000].encode(), big[9000:].encode()]),
                          headers={"content-type": "application/json"})
    assert chunked.status_code == 413


def test_not_sent_as_json_says_so(client):
    res = client.post("/api/advise", content=json.dumps(EXAMPLE), headers={"content-type": "text/plain"})
    assert res.status_code == 400
    assert "Content-Type: application/json" in res.json()["detail"]


# Where the library writes the message, the API's is the CLI's: the same text after the CLI's
# "Error: " (and, for the hand, after click's "Invalid value for '--hand': " / the API's "hand: ").
PARITY = [
    (["--hand", "W,XS,3H", "--trump", "S", "--seat", "2"], {**EXAMPLE, "hand": "W,XS,3H"}),
    (["--hand", "AS,AS", "--trump", "S", "--seat", "2"], {**EXAMPLE, "hand": "AS,AS"}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "5"], {**EXAMPLE, "seat": 5}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--bids", "1,0"], {**EXAMPLE, "bids": "1,0"}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--bids", "4"], {**EXAMPLE, "bids": [4]}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--trump-card", "7H"], {**EXAMPLE, "trump_card": "7H"}),
    (["--hand", "W,AS,3H", "--seat", "2"], {"hand": "W,AS,3H", "seat": 2}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "4", "--hook"], {**EXAMPLE, "seat": 4, "hook": True}),
    (["--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--policy", "clever"], {**EXAMPLE, "policy": "clever"}),
]


def _core(message: str) -> str:
    return re.sub(r"^(Invalid value for '--[a-z-]+': |hand: )", "", message)


@pytest.mark.parametrize("args,body", PARITY)
def test_same_message_as_the_cli(client, args, body):
    cli = CliRunner().invoke(main, ["advise", *args])
    assert cli.exit_code == 2
    cli_line = cli.output.strip().splitlines()[-1].removeprefix("Error: ")
    res = post(client, body)
    assert res.status_code == 422
    assert _core(res.json()["detail"]) == _core(cli_line)


def test_health(client):
    res = client.get("/api/health")
    assert res.status_code == 200
    assert res.json()["status"] == "ok" and res.json()["version"] == wizsim.__version__


def test_unknown_path_is_a_json_404(client):
    res = client.get("/api/nothing")
    assert res.status_code == 404 and res.json() == {"detail": "Not Found"}


def test_page_and_assets_ship_in_the_package_and_load_nothing_else(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    static = files("wizsim.web") / "static"
    names = sorted(p.name for p in static.iterdir())
    assert {"index.html", "app.js", "app.css"} <= set(names)
    for name in names:
        text = (static / name).read_text(encoding="utf-8")
        assert client.get(f"/static/{name}").status_code == 200
        # the one absolute URL allowed is the SVG namespace, which is a name, not a fetch
        urls = set(re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", text)) - {"http://www.w3.org/2000/svg"}
        assert not urls, f"{name} refers to {urls}"
    for ref in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        assert ref.startswith(("/static/", "/docs", "data:")), ref


def test_openapi_docs_are_served_offline(client):
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "cdn" not in docs.text.lower()
    for ref in re.findall(r"""['"](/static-offline-docs/[^'"]+)['"]""", docs.text):
        assert client.get(ref).status_code == 200
    schema = client.get("/openapi.json").json()
    assert set(schema["components"]["schemas"]["AdviseRequest"]["properties"]) == {
        "hand", "trump", "seat", "players", "bids", "played", "hook", "trump_card", "samples", "seed", "policy", "play",
        "bid_trust", "trump_trust", "play_trust", "play_noise", "seat_doubt", "doubt", "game", "explain"}


@pytest.mark.parametrize("body,needle", [
    ({"hand": "AS,KD,3H", "trump_card": "W", "seat": 4, "seat_doubt": 0.1}, "seat_doubt: it is for the seats heard"),
    ({"hand": "AS,KD,3H", "trump": "S", "seat": 2, "bids": "1", "seat_doubt": 2}, "seat_doubt"),
])
def test_seat_doubt_is_for_the_seats_heard(client, body, needle):
    res = post(client, body)
    assert res.status_code == 422 and res.json()["detail"].startswith(needle), res.json()
    for seat, bids in ((2, "1"), (1, "1,0,1,1")):  # bid advice, play advice
        ok = post(client, {"hand": "AS,KD,3H", "trump": "S", "seat": seat, "bids": bids, "seat_doubt": 0.3,
                           "samples": 200})
        assert ok.status_code == 200 and ok.json()["seat_doubt"] == 0.3


def test_trump_trust_is_for_a_suit_an_opponent_dealer_named(client):
    """A bid question after a named suit takes trump_trust and says it; the dealer's own question refuses it."""
    ok = post(client, {"hand": "5H", "trump": "H", "trump_card": "W", "seat": 2, "trump_trust": 0.4})
    assert ok.status_code == 200 and ok.json()["trump_trust"] == 0.4
    res = post(client, {"hand": "AS,KD,3H", "trump_card": "W", "seat": 4, "trump_trust": 0.4})
    assert res.status_code == 422 and res.json()["detail"].startswith("trump_trust: it weighs the suit"), res.json()
    bad = post(client, {"hand": "5H", "trump": "H", "trump_card": "W", "seat": 2, "trump_trust": "high"})
    assert bad.status_code == 422 and "trump_trust" in bad.json()["detail"]


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: wizsim serve needs the web extra: pip install 'wizsim[web]' (uvicorn not installed)"]


def test_serve_on_a_taken_port_is_a_one_line_error():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"Error: cannot listen on 127.0.0.1:{port}" in result.output and "Traceback" not in result.output


def test_played_without_every_bid_is_refused(client):
    res = post(client, {**EXAMPLE, "played": "5H"})
    assert res.status_code == 422
    assert res.json()["detail"].startswith("played: the cards played are for play advice")


def test_every_players_bid_asks_for_play_advice(client):
    body = {"hand": "AS,KH", "trump": "S", "seat": 2, "bids": "1,0,1,0", "played": "5H", "samples": 200, "seed": 1}
    res = post(client, body)
    assert res.status_code == 200, res.text
    want = wizsim.advise_play("AS,KH", "S", 2, bids="1,0,1,0", played="5H", samples=200, seed=1)
    assert res.json() == want.to_dict()
    assert res.json()["phase"] == "play"


def test_a_long_answer_neither_blocks_the_server_nor_queues_forever(monkeypatch):
    """Answers run in worker threads, ``workers`` at once, first come first served: meanwhile the health
    check answers at once; a request that cannot start within the queue's wait gets a 503 naming it,
    and one that finds the line full gets a 503 at once; both with Retry-After."""
    import threading
    import time

    from fastapi.testclient import TestClient

    import wizsim.web.app as web_app

    release = threading.Event()
    started = threading.Event()

    def slow_answer(fields):  # stands in for a long simulation: the web layer's queue is what is tested
        started.set()
        release.wait(10)
        return {"ok": True}

    monkeypatch.setattr(web_app, "answer", slow_answer)
    monkeypatch.setattr(web_app, "QUEUE_WAIT_S", 0.3)
    monkeypatch.setattr(web_app, "WAITING_PER_WORKER", 1)
    with TestClient(create_app(workers=1), base_url="http://localhost") as c:
        results = {}
        first = threading.Thread(target=lambda: results.setdefault("first", post(c, EXAMPLE)))
        first.start()
        assert started.wait(10)
        t0 = time.perf_counter()
        health = c.get("/api/health")
        assert health.status_code == 200 and health.json()["busy"] == 1
        assert time.perf_counter() - t0 < 1.0
        waiter = threading.Thread(target=lambda: results.setdefault("waited", post(c, EXAMPLE)))
        waiter.start()
        deadline = time.monotonic() + 5
        while c.get("/api/health").json()["waiting"] != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        t0 = time.perf_counter()
        full = post(c, EXAMPLE)  # one waits already, the line's bound: turned away at once
        assert time.perf_counter() - t0 < 0.25
        assert full.status_code == 503 and int(full.headers["retry-after"]) >= 1
        assert full.json()["detail"].startswith("the server is busy: the line of questions is full (1 waiting); try again in ")
        waiter.join(10)
        waited = results["waited"]
        assert waited.status_code == 503 and int(waited.headers["retry-after"]) >= 1
        assert waited.json()["detail"].startswith("the server is busy: no answer could start within 0.3 s; try again")
        release.set()
        first.join(10)
        assert results["first"].status_code == 200 and results["first"].json() == {"ok": True}
        assert c.get("/api/health").json() == {**health.json(), "busy": 0, "waiting": 0}


HOSTS = [("localhost", 200), ("localhost:8000", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200), ("LocalHost.", 200),
         ("table.lan", 200), ("evil.example", 400), ("evil.example:8000", 400), ("127.0.0.1.evil.example", 400),
         ("localhost.evil.example", 400), ("192.168.1.20", 400), ("[::1", 400), ("localhost:x", 400), ("", 400),
         ("a b", 400)]


@pytest.mark.parametrize("host,status", HOSTS)
def test_only_the_hosts_the_server_was_started_for_are_answered(host, status):
    """DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 sends Host: evil.example."""
    from fastapi.testclient import TestClient

    with TestClient(create_app(hosts=("localhost", "127.0.0.1", "::1", "table.lan"))) as c:
        for method, path in (("get", "/"), ("get", "/api/health"), ("post", "/api/advise")):
            res = c.request(method, path, headers={"host": host}, json=EXAMPLE if method == "post" else None)
            assert res.status_code == status, (path, res.text)
            if status == 400:
                detail = res.json()["detail"]
                assert "\n" not in detail and detail.startswith("this server does not answer for the host ")
                assert detail.endswith("wizsim serve --allow-host NAME adds a name)")


def test_on_every_interface_any_numeric_address_is_answered_but_no_other_name():
    from fastapi.testclient import TestClient

    with TestClient(create_app(hosts=("localhost", "127.0.0.1", "::1", "0.0.0.0"), any_address=True)) as c:
        for host, status in (("192.168.1.20:8000", 200), ("[fe80::1]:8000", 200), ("evil.example", 400),
                             ("my-box.local", 400)):
            assert c.get("/api/health", headers={"host": host}).status_code == status, host


@pytest.mark.parametrize("host", ["", "  "])
def test_serve_with_an_empty_host_is_refused(host):
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "0"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "Error: --host is empty: give the address to listen on, 127.0.0.1 for this machine only (the default) or "
        "0.0.0.0 for every interface")


@pytest.mark.parametrize("name", ["", "http://table.lan", "table.lan:8000", "table lan", "a/b"])
def test_serve_refuses_an_allow_host_that_is_not_a_host(name):
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--allow-host", name])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith(f"Error: --allow-host {name!r} is not a host name")


def test_listening_beyond_this_machine_is_said_in_one_line():
    from wizsim.web.server import reach

    for local in ("127.0.0.1", "127.0.0.2", "::1"):
        assert reach(local) is None
    for address, start in (("0.0.0.0", "listening on every interface (0.0.0.0)"),
                           ("::", "listening on every interface (::)"),
                           ("192.168.1.20", "listening on 192.168.1.20: other machines on that network")):
        line = reach(address)
        assert line.startswith(f"wizsim serve: {start}") and "\n" not in line and "no login" in line


def test_the_warm_up_asks_every_kind_of_question():
    """Bid and play advice, each by enumeration and by Monte Carlo: the first person's question of
    any kind finds its kernels loaded (the first play question after "ready" took 0.48 s)."""
    from wizsim.web.api import answer
    from wizsim.web.server import WARM_QUESTIONS

    kinds = {(a.get("phase"), a["method"]) for a in (answer(dict(q)) for q in WARM_QUESTIONS)}
    assert kinds == {("bid", "exact"), ("bid", "monte-carlo"), ("play", "exact"), ("play", "monte-carlo")}


def test_record_check_answers_the_canonical_record_and_totals(client):
    """POST /api/record/check (the score sheet's import and export): the record in wizsim's canonical
    form and the running totals; a bad record is a 422 with the validator's one line naming the entry."""
    from wizsim.record import GameRecord

    example = GameRecord.load(Path(__file__).resolve().parents[1] / "docs" / "example-game.json")
    body = example.to_dict()
    body["rounds"][1]["played"] = body["rounds"][1]["played"].lower()
    res = client.post("/api/record/check", json=body)
    assert res.status_code == 200, res.text
    assert res.json() == {"record": example.to_dict(), "totals": example.totals()}
    bad = example.to_dict()
    bad["rounds"][3]["bids"][2] = 5
    res = client.post("/api/record/check", json=bad)
    assert res.status_code == 422
    assert res.json() == {"detail": "rounds[3].bids: Cleo's bid 5 is above the hand size 4"}
    bad = example.to_dict()
    bad["rounds"][0]["score"] = 1
    res = client.post("/api/record/check", json=bad)
    assert res.status_code == 422 and res.json()["detail"].startswith("rounds[0]: unknown field 'score'")
    res = client.post("/api/record/check", content=b"[1]", headers={"content-type": "application/json"})
    assert res.status_code in (400, 422) and "detail" in res.json()
