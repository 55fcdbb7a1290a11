"""Issue 32, records: a record nested too deep for Python's JSON reader, a file that never ends
(/dev/zero) or is too large, a number too long for Python to convert, and player names holding control
characters, bidi overrides or lone surrogates are each refused with one line naming the entry: a
``RecordError`` (a ``ValueError``) in Python, exit 2 on the command line (``review`` and ``advise
--game``), a 4xx over HTTP."""

import json
import os
from pathlib import Path

import pytest
from cli_errors import one_error

from wizsim.record import GameRecord, RecordError
from wizsim.record.game import MAX_RECORD_BYTES

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "docs" / "example-game.json").read_text())
DEEP = "[" * 100_000 + "]" * 100_000  # RecursionError in json.loads, before
DEEP_ENTRY = '{"players": ' + DEEP + ', "first_dealer": 0, "rounds": []}'
LONG_NUMBER = json.dumps({**EXAMPLE, "first_dealer": 0}).replace('"first_dealer": 0', '"first_dealer": ' + "9" * 5000)
ADVISE_GAME = ["advise", "--hand", "AS", "--trump", "S", "--seat", "1", "--players", "3", "--seed", "1"]


def _short(value):
    """A test id for a long JSON text: its length and first characters."""
    return f"{len(value)}:{value[:12]}" if isinstance(value, str) and len(value) > 40 else None


def _named_names(name: str) -> str:
    return json.dumps({**EXAMPLE, "players": [name, *EXAMPLE["players"][1:]]})


NAMES = [("Ann\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),  # reverses how the names after it read
         ("A\u0000nn", "U+0000"), ("Ann\u0007", "U+0007"), ("A\u2066nn", "U+2066"), ("A\u200fnn", "U+200F"),
         ("A\u2028nn", "U+2028")]


@pytest.mark.parametrize("text, needle", [
    (DEEP, "record: nested too deeply"),
    (DEEP_ENTRY, "record: nested too deeply"),
    (LONG_NUMBER, "first_dealer: the index of the first dealer in players, 0..2, got a number of 5,000 digits"),
    ('{"players": ["a\\ud800", "b", "c"], "first_dealer": 0, "rounds": []}', "players[0]: a name may not hold"),
    *[(_named_names(name), "players[0]: a name may not hold control characters, bidi overrides or marks, or lone "
                           "surrogates: character") for name, _ in NAMES],
], ids=_short)
def test_python_refuses_naming_the_entry(text, needle):
    with pytest.raises(RecordError) as err:
        GameRecord.from_json(text)
    assert str(err.value).startswith(needle) and "\n" not in str(err.value), str(err.value)


@pytest.mark.parametrize("name, code", NAMES)
def test_each_unprintable_name_names_its_character(name, code):
    with pytest.raises(RecordError) as err:
        GameRecord(players=["Ann", name, "Cleo"])
    assert str(err.value).startswith("players[1]: ") and f" is {code}" in str(err.value), str(err.value)


def test_names_of_every_script_and_emoji_still_read():
    rec = GameRecord(players=["Zoë", "李雷", "Ann 😀", "עמית"])
    assert rec.players[1] == "李雷"


def test_an_already_parsed_object_nested_deep_is_refused_too():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecordError, match="nested too deeply|players"):
        GameRecord.from_dict({"players": deep, "first_dealer": 0, "rounds": []})


def test_load_refuses_an_endless_or_large_file_by_name_and_cap(tmp_path):
    with pytest.raises(RecordError) as err:
        GameRecord.load("/dev/zero")  # read until memory ran out, before
    assert str(err.value) == (f"record: /dev/zero holds more than {MAX_RECORD_BYTES:,} bytes (1 MiB), the most a game "
                              f"record may hold (a whole game's record is a few KB)")
    big = tmp_path / "big.json"
    big.write_text(json.dumps(EXAMPLE) + " " * MAX_RECORD_BYTES)
    with pytest.raises(RecordError, match=f"record: {big} holds more than"):
        GameRecord.load(big)
    just = tmp_path / "just.json"
    text = json.dumps(EXAMPLE)
    just.write_text(text + " " * (MAX_RECORD_BYTES - len(text.encode())))
    assert GameRecord.load(just).players == EXAMPLE["players"]  # the cap itself is allowed
    (tmp_path / "latin.json").write_bytes(b'{"players": ["\xe9"]}')
    with pytest.raises(RecordError, match="not UTF-8"):
        GameRecord.load(tmp_path / "latin.json")


@pytest.mark.parametrize("text, needle", [
    (DEEP, "record: nested too deeply"),
    (LONG_NUMBER, "first_dealer: "),
    (_named_names("Ann\u202e"), "players[0]: a name may not hold"),
    (_named_names("A\u0000nn"), "U+0000"),
], ids=_short)
@pytest.mark.parametrize("command", ["review", "advise --game"])
def test_cli_refuses_naming_the_entry(tmp_path, text, needle, command):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    args = ["review", str(path)] if command == "review" else [*ADVISE_GAME, "--game", str(path)]
    one_error(args, needle)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("command", ["review", "advise --game"])
def test_cli_refuses_dev_zero_naming_the_file_and_the_cap(command):
    args = ["review", "/dev/zero"] if command == "review" else [*ADVISE_GAME, "--game", "/dev/zero"]
    one_error(args, "record: /dev/zero holds more than 1,048,576 bytes (1 MiB)")


if os.environ.get("CI") != "true":
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    from wizsim.web.app import create_app

    with TestClient(create_app(workers=1), base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c


DEEP_BODY = '{"players": ' + "[" * 5000 + "]" * 5000 + ', "first_dealer": 0, "rounds": []}'  # within 16 KB


@pytest.mark.parametrize("path", ["/api/review", "/api/record/check"])
@pytest.mark.parametrize("body, status, needle", [
    (DEEP_BODY, 400, "the body is nested too deeply"),  # "There was an error parsing the body", before
    (LONG_NUMBER, 400, "first_dealer: a number of 5,000 digits is not a count or an index"),
    (_named_names("Ann\u202e"), 422, "players[0]: a name may not hold"),
    (_named_names("A\u0000nn"), 422, "U+0000"),
    ('{"players": ["a\\ud800", "b", "c"], "first_dealer": 0, "rounds": []}', 422, "U+D800 (a lone surrogate)"),
], ids=_short)
def test_http_refuses_naming_the_entry(client, path, body, status, needle):
    res = client.post(path, content=body.encode("utf-8"), headers={"content-type": "application/json"})
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert needle in detail and "\n" not in detail, detail


def test_http_long_numbers_in_advice_name_the_field(client):
    body = '{"hand": "AS", "trump": "S", "seat": 1, "players": ' + "9" * 5000 + "}"
    res = client.post("/api/advise", content=body, headers={"content-type": "application/json"})
    assert res.status_code == 400 and res.json()["detail"].startswith("players: a number of 5,000 digits"), res.text
    game = {**EXAMPLE, "first_dealer": 0}
    body = json.dumps({"hand": "AS", "trump": "S", "seat": 1, "players": 3, "game": game})
    body = body.replace('"first_dealer": 0', '"first_dealer": ' + "9" * 5000)
    res = client.post("/api/advise", content=body, headers={"content-type": "application/json"})
    assert res.status_code == 400 and res.json()["detail"].startswith("game.first_dealer: a number of"), res.text
