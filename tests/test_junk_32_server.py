"""Issue 32, the server: a body shorter than its Content-Length is answered 400 (it got no answer at
all); a whole game's review holds a worker for one decision at a time, so advice asked meanwhile is
answered between two of its decisions, not after the game; ``serve`` warms the kernels of every
built-in policy (the search build included) before it says it is ready."""

import json
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "docs" / "example-game.json").read_text())


@pytest.fixture(scope="module")
def live_server():
    """The app under uvicorn with wizsim's own HTTP protocol on 127.0.0.1 (one worker), as ``serve`` runs it."""
    import uvicorn

    from wizsim.web.app import create_app
    from wizsim.web.connections import DeadlineH11Protocol
    from wizsim.web.server import bind

    sock = bind("127.0.0.1", 0)
    config = uvicorn.Config(create_app(workers=1), http=DeadlineH11Protocol, log_level="warning",
                            timeout_keep_alive=5, access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs=dict(sockets=[sock]), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)


def _raw(port: int, data: bytes, half_close: bool, wait: float = 10.0) -> tuple[bytes, float]:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as conn:
        conn.sendall(data)
        if half_close:
            conn.shutdown(socket.SHUT_WR)
        started = time.monotonic()
        reply = b""
        while True:
            try:
                chunk = conn.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            reply += chunk
        return reply, time.monotonic() - started


BODY = json.dumps(EXAMPLE).encode()


def _post(path: str, body: bytes, declared: int) -> bytes:
    return (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (path.encode(), declared, body))


@pytest.mark.parametrize("path", ["/api/record/check", "/api/review", "/api/advise"])
def test_a_body_shorter_than_its_content_length_is_a_400(live_server, path):
    reply, took = _raw(live_server, _post(path, BODY[:50], len(BODY)), half_close=True)
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), reply  # no answer at all, before
    assert json.loads(body)["detail"] == ("the request ended before its body did: fewer bytes came than its "
                                          "Content-Length says")
    assert took < 2, took


def test_a_head_cut_short_is_a_400(live_server):
    reply, _ = _raw(live_server, b"POST /api/record/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le", half_close=True)
    assert reply.startswith(b"HTTP/1.1 400 ") and b"ended before its head did" in reply, reply


def test_a_short_body_left_open_is_a_408_at_the_deadline(live_server):
    from wizsim.web.connections import REQUEST_TIMEOUT_S

    reply, took = _raw(live_server, _post("/api/record/check", BODY[:50], len(BODY)), half_close=False,
                       wait=REQUEST_TIMEOUT_S + 10)
    assert reply.startswith(b"HTTP/1.1 408 ") and b"did not arrive whole" in reply, reply  # closed silently, before
    assert took < REQUEST_TIMEOUT_S + 5, took


def test_a_whole_body_is_still_answered(live_server):
    reply, _ = _raw(live_server, _post("/api/record/check", BODY, len(BODY)) , half_close=True)
    assert reply.startswith(b"HTTP/1.1 200 "), reply


def _ask(port: int, path: str, body: dict, box: dict, key: str) -> None:
    import httpx

    started = time.monotonic()
    res = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=300)
    box[key] = (res.status_code, time.monotonic(), time.monotonic() - started, res.text[:200])


def test_advice_asked_during_a_review_is_answered_between_its_decisions(live_server):
    """One worker: the review (9 decisions, at the most samples a review may ask: seconds of work, so that the
    advice comes while it runs) must hand it over between decisions, else the advice would wait for the whole
    review (and be turned away after 15 s of waiting)."""
    box: dict = {}
    review = threading.Thread(target=_ask, args=(live_server, "/api/review", {**EXAMPLE, "samples": 4000, "seed": 1},
                                                  box, "review"))
    review.start()
    # the review has its turn; not much longer: warm, 4000 samples a decision end in about a second on 2 cores
    time.sleep(0.3)
    _ask(live_server, "/api/advise", {"hand": "AS,KD,3H", "trump": "S", "seat": 2, "bids": "1", "samples": 50,
                                      "seed": 1}, box, "advice")
    review.join(300)
    assert box["review"][0] == 200 and box["advice"][0] == 200, box
    assert box["advice"][1] < box["review"][1], box  # answered before the review ended, not after it
    assert box["advice"][2] < box["review"][2], box


def test_the_queue_gives_a_stepping_answers_worker_to_those_waiting():
    """``AnswerQueue`` itself: a turn that gives way between steps lets a waiting question in, and goes on
    after it; a turn with nobody waiting keeps its worker."""
    import anyio

    from wizsim.web.app import AnswerQueue

    order = []

    async def main():
        queue = AnswerQueue(workers=1, max_waiting=4, wait_s=5)

        async def long_answer():
            async with queue.turn() as turn:
                for step in range(3):
                    order.append(f"review {step}")
                    await anyio.sleep(0.2)
                    await turn.give_way()

        async def short_answer():
            await anyio.sleep(0.1)
            async with queue.turn():
                order.append("advice")

        async with anyio.create_task_group() as tg:
            tg.start_soon(long_answer)
            tg.start_soon(short_answer)
        assert queue.busy == 0 and queue.waiting == 0

    anyio.run(main)
    assert order == ["review 0", "advice", "review 1", "review 2"], order


def test_serve_warms_every_built_in_policys_build():
    """Every built-in policy compiles into one of the kernels' builds (``dispatch.kernel_ext``); the warm
    questions run each build through each kind of question, so no first request compiles in a worker."""
    from wizsim.advisor.opponents import DEFAULT_OPPONENTS
    from wizsim.policies import policy_names
    from wizsim.policies.dispatch import kernel_ext
    from wizsim.policies.registry import policy_entry
    from wizsim.web.server import WARM_QUESTIONS

    def build(names):
        return kernel_ext([policy_entry(n).kind for n in names])

    def kind(q):
        return ("play" if len(q.get("bids", "").split(",")) == 4 else "bid", "samples" in q)

    warmed = {(build([q.get("policy", DEFAULT_OPPONENTS), q.get("play", "heuristic")]), kind(q))
              for q in WARM_QUESTIONS}
    kinds = {kind(q) for q in WARM_QUESTIONS}
    assert len(kinds) == 4  # bid and play, each exact and by Monte Carlo
    for name in policy_names():
        for k in kinds:
            assert (build([name, "heuristic"]), k) in warmed, (name, k)
