"""Issue 16 item 3 on the command line and over HTTP: the junk the library refuses is refused there
too, naming the option or field, with exit status 2 and one ``Error:`` line (the CLI) or a 4xx and
one line (HTTP), never a traceback and never a silent default."""

import os

import pytest
from click.testing import CliRunner

from wizsim.cli import main

PLAY = ["advise", "--hand", "AS,KD,3H", "--trump", "S", "--seat", "1", "--bids", "1,0,1,1", "--seed", "1"]
BID = ["advise", "--hand", "AS,KD,3H", "--trump", "S", "--seat", "1", "--seed", "1"]


@pytest.mark.parametrize("args, needle", [
    (["simulate", "--round", "2", "--rounds", "10", "--policy", ""], "'--policy'"),  # ran as random
    (["simulate", "--round", "2", "--rounds", "10", "--policies", ""], "'--policies'"),  # ran as random
    (["simulate", "--round", "2", "--rounds", "10", "--policies", " , "], "'--policies'"),
    (["tournament", "--policies", "", "--games", "4"], "'--policies'"),
    ([*BID, "--policy", ""], "'--policy'"),
    ([*BID, "--play", ""], "'--play'"),
    ([*PLAY, "--policy", ""], "'--policy'"),
    ([*PLAY, "--samples", str(2**70)], "samples must be at most 100,000,000"),  # "Maximum allowed dimension"
    ([*PLAY, "--samples", str(10**9)], "samples must be at most 100,000,000"),  # a MemoryError's traceback
    ([*BID, "--samples", str(2**70)], "samples must be at most 100,000,000"),
    ([*PLAY, "--play", "clever"], "play: unknown policy 'clever'"),
])
def test_cli_junk_exits_2_with_one_line_naming_it(args, needle):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, (res.output, res.exception)
    errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and needle in errors[0], res.output
    assert "Traceback" not in res.output


if os.environ.get("CI") != "true":
    fastapi = pytest.importorskip("fastapi")
    pytest.importorskip("httpx")


EXAMPLE = {"hand": "W,AS,3H", "trump": "S", "seat": 2}


@pytest.mark.parametrize("body, needle", [
    ({**EXAMPLE, "players": 10**40, "samples": 100}, "players must be 3..6"),  # blamed samples
    ({**EXAMPLE, "players": -(10**40), "samples": 100}, "players must be 3..6"),
    ({**EXAMPLE, "bids": "1" * 201}, "bids is too long: at most 200 characters, got 201"),  # "must be text"
    ({**EXAMPLE, "bids": [1] * 201}, "bids is too long: at most 200 items, got 201"),
    ({**EXAMPLE, "hand": "A" * 201}, "hand is too long"),
    ({**EXAMPLE, "policy": ""}, "policy must name a policy, got ''"),
])
def test_http_junk_is_a_4xx_naming_the_field(client, body, needle):
    res = client.post("/api/advise", json=body)
    assert 400 <= res.status_code < 500, res.text
    detail = res.json()["detail"]
    assert needle in detail and "\n" not in detail, detail
