"""A run knows who played (issue 32 item 1): every seat's player is recorded with what it is (a built-in
by name and wizsim's version, a FILE.py player by its file's digest, a jitted one by its functions'
source, a Python object as unverifiable) in the run id, the run file, every Parquet file, tournament
results and game records; a resume whose players changed stops with one line naming the seat and
leaves the folder as it was; readers refuse files that disagree about a player."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from test_jit_player import _BOT as JIT_LOW_BOT

import wizsim
from wizsim.cli import main
from wizsim.dataset.read import read_tricks
from wizsim.dataset.run import MANIFEST, write_dataset
from wizsim.io.parquet import DatasetError
from wizsim.policies.registry import USER_IDENTITIES, USER_PLAYERS

ROOT = Path(__file__).resolve().parent.parent
PART = "rounds/players=4/round=3/part-{:06d}.parquet"

# The issue's player: bids its lowest legal bid; the edit makes it bid its highest. With I32_KILL_AT set it
# sends its own process a real Ctrl-C at that card decision (an interrupted run, deterministically).
P_MUT = textwrap.dedent('''
    import os
    import signal

    CALLS = [0]


    class P:
        def trump(self, obs):
            return 0

        def bid(self, obs):
            return min(obs.legal)

        def card(self, obs):
            CALLS[0] += 1
            if CALLS[0] == int(os.environ.get("I32_KILL_AT", "0")):
                os.kill(os.getpid(), signal.SIGINT)
            return min(obs.legal)
''')
EDITED = P_MUT.replace("return min(obs.legal)\n\n    def card", "return max(obs.legal)\n\n    def card")
RUN = ["simulate", "--players", "4", "--round", "3", "--rounds", "120", "--chunk-size", "10",
       "--policies", "p_mut.py:P,heuristic", "--seed", "1", "--trick-log"]


@pytest.fixture(autouse=True)
def _forget_players():
    yield
    for name in [n for n in USER_PLAYERS if n.startswith(("p_mut", "jit_mut", "mine"))]:
        USER_PLAYERS.pop(name, None)
        USER_IDENTITIES.pop(name, None)


def everything(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def files_of(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def wizsim_cmd(args, cwd: Path, **env):
    """The real command (``python -m wizsim``, its Ctrl-C handling installed) in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "wizsim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env})


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Error")]


def test_the_issues_mixed_resume_exits_2_and_leaves_the_folder_as_it_was(tmp_path):
    """The reproduction: interrupted by a real Ctrl-C after some chunks, p_mut.py edited (max for min), the
    same command exits 2 with one line naming the seat, the player and the digests, and the folder is
    byte-for-byte as it was; put back, the same command resumes to the bytes of an uninterrupted run."""
    (tmp_path / "p_mut.py").write_text(P_MUT)
    out = tmp_path / "mix"
    res = wizsim_cmd([*RUN, "--out", "mix"], tmp_path, I32_KILL_AT="300")  # 6 card calls a round: in chunk 5
    assert res.returncode == 130 and "run the same command again to resume" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    assert 0 < len(files_of(out)) < 24
    before = everything(out)
    run = json.loads((out / MANIFEST).read_text())
    assert run["status"] == "interrupted"
    ident = run["identity"]["identities"]
    assert ident[0]["player"] == "p_mut.py:P" and ident[0]["kind"] == "file" and len(ident[0]["sha256"]) == 16
    assert ident[1] == {"player": "heuristic", "kind": "builtin", "wizsim": wizsim.__version__}

    (tmp_path / "p_mut.py").write_text(EDITED)
    res = wizsim_cmd([*RUN, "--out", "mix"], tmp_path)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    (line,) = error_lines(res.stderr)
    assert "seat 1: 'p_mut.py:P' changed: its file had sha256 " + ident[0]["sha256"] in line, line
    assert "left as it is" in line and "--overwrite" in line
    assert everything(out) == before

    (tmp_path / "p_mut.py").write_text(P_MUT)
    res = wizsim_cmd([*RUN, "--out", "mix", "--json"], tmp_path)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["chunks_skipped"] > 0 and report["chunks_skipped"] + report["chunks_written"] == 12
    assert wizsim_cmd([*RUN, "--out", "fresh"], tmp_path).returncode == 0
    assert files_of(out) == files_of(tmp_path / "fresh")


def test_in_one_process_an_edited_file_is_loaded_again_and_refused_on_resume(tmp_path, monkeypatch):
    """The same through CliRunner (one process): the edited file is not the player loaded before it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p_mut.py").write_text(P_MUT)
    assert CliRunner().invoke(main, [*RUN, "--out", "mix"]).exit_code == 0
    for k in (9, 10, 11):  # an interrupted run
        (tmp_path / "mix" / PART.format(k)).unlink()
        (tmp_path / "mix" / PART.format(k).replace("rounds", "tricks")).unlink()
    before = everything(tmp_path / "mix")
    (tmp_path / "p_mut.py").write_text(EDITED)
    res = CliRunner().invoke(main, [*RUN, "--out", "mix"])
    assert res.exit_code == 2 and "seat 1: 'p_mut.py:P' changed" in res.output, res.output
    assert everything(tmp_path / "mix") == before
    # every file says what played, and the reader refuses a folder whose files disagree about it
    other = tmp_path / "other"
    assert CliRunner().invoke(main, [*RUN, "--out", "other"]).exit_code == 0
    meta = json.loads(pq.read_schema(other / PART.format(0)).metadata[b"wizsim.run"])
    assert meta["identities"][0]["player"] == "p_mut.py:P" and meta["identities"][0]["sha256"]
    assert meta["identities"] == json.loads((other / MANIFEST).read_text())["identity"]["identities"]
    for part in (PART.format(9), PART.format(9).replace("rounds", "tricks")):
        shutil.copy(other / part, tmp_path / "mix" / part)
    disagree = r"part-000000.parquet and .*part-000009.parquet disagree about the player 'p_mut.py:P' \(its file, sha256 "
    with pytest.raises(DatasetError, match=disagree):
        wizsim.read_rounds(tmp_path / "mix")
    with pytest.raises(DatasetError, match=disagree):
        read_tricks(tmp_path / "mix", verify=False)


JIT_MUT = JIT_LOW_BOT.replace('"file-low"', '"jit-mut"')  # lowest card, bid 0


def test_a_jitted_players_edit_is_refused_on_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "jit_mut.py").write_text(JIT_MUT)
    run = ["simulate", "--players", "4", "--round", "3", "--rounds", "300", "--chunk-size", "100", "--policies",
           "jit_mut.py:Low,heuristic", "--seed", "1", "--out", "mix"]
    assert CliRunner().invoke(main, run).exit_code == 0
    (tmp_path / "mix" / PART.format(2)).unlink()
    before = everything(tmp_path / "mix")
    (tmp_path / "jit_mut.py").write_text(JIT_MUT.replace("return 0 if obs.forbidden != 0 else 1",
                                                         "return 1 if obs.forbidden != 1 else 0"))
    res = CliRunner().invoke(main, run)
    assert res.exit_code == 2 and "seat 1: 'jit_mut.py:Low' changed: its file had sha256" in res.output, res.output
    assert len(error_lines(res.output)) == 1
    assert everything(tmp_path / "mix") == before


class Mine:
    """A Python object player: nothing to digest."""

    name = "mine"

    def trump(self, obs):
        return 0

    def bid(self, obs):
        return obs.legal[0]

    def card(self, obs):
        return obs.legal[-1]


def test_an_object_player_is_recorded_as_unverifiable_and_its_resume_needs_leave(tmp_path):
    out = tmp_path / "d"
    write_dataset(out, 4, r=2, rounds=40, chunk_size=10, policies=[Mine(), "random"], seed=2)
    ident = json.loads((out / MANIFEST).read_text())["identity"]["identities"]
    assert ident[0] == {"player": "mine", "kind": "object", "sha256": None,
                        "note": "a Python object: no file to digest, so a resume cannot verify it"}
    fresh = files_of(out)
    (out / "rounds/players=4/round=2/part-000003.parquet").unlink()
    before = everything(out)
    with pytest.raises(DatasetError, match="seat 1: 'mine' is a Python object with no file, unverifiable: wizsim "
                                           "cannot tell"):
        write_dataset(out, 4, r=2, rounds=40, chunk_size=10, policies=[Mine(), "random"], seed=2)
    assert everything(out) == before
    rep = write_dataset(out, 4, r=2, rounds=40, chunk_size=10, policies=[Mine(), "random"], seed=2,
                        allow_unverified_players=True)
    assert rep.chunks_skipped == 3 and rep.chunks_written == 1
    assert files_of(out) == fresh


def test_the_cli_documents_the_option_to_resume_unverified_players():
    out = CliRunner().invoke(main, ["simulate", "--help"]).output
    assert "--allow-unverified-players" in out and "--decision-timeout" in out
    assert "--decision-timeout" in CliRunner().invoke(main, ["tournament", "--help"]).output


def test_tournament_results_and_game_records_carry_the_identity(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p_mut.py").write_text(P_MUT)
    res = CliRunner().invoke(main, ["tournament", "--players", "4", "--policies", "p_mut.py:P,heuristic", "--games",
                                    "2", "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    by_name = {p["name"]: p["identity"] for p in json.loads(res.output)["policies"]}
    digest = by_name["p_mut.py:P"]["sha256"]
    assert by_name["p_mut.py:P"]["kind"] == "file" and len(digest) == 16
    assert by_name["heuristic"] == {"player": "heuristic", "kind": "builtin", "wizsim": wizsim.__version__}
    from wizsim.record import GameRecord, RecordError, from_games

    batch = wizsim.simulate_games(4, 1, ["p_mut.py:P", "heuristic", Mine(), "random"], seed=3, trick_log=True)
    record = from_games(batch)
    assert [i["kind"] for i in record.identities] == ["file", "builtin", "object", "builtin"]
    assert record.identities[0]["sha256"] == digest
    again = GameRecord.from_json(record.to_json())
    assert again.identities == record.identities
    bad = json.loads(record.to_json())
    bad["identities"][1]["colour"] = "red"
    with pytest.raises(RecordError, match=r"identities\[1\]: unknown"):
        GameRecord.from_dict(bad)
    # a net seat's identity carries its weights' digest, and its game's record loads again
    nets = from_games(wizsim.simulate_games(4, 1, ["net", "heuristic", "net", "heuristic"], seed=3, trick_log=True))
    assert nets.identities[0]["net_weights"] and "net_weights" not in nets.identities[1]
    assert GameRecord.from_json(nets.to_json()).identities == nets.identities


def test_a_net_dataset_resumed_with_other_weights_is_refused(tmp_path, monkeypatch):
    """``net`` (and a search playing out by net) is recorded with the sha256 of the weights it plays: the same
    command with other weights (``WIZSIM_NET_WEIGHTS``, one wizsim version) is another player, refused in one
    line, the folder left as it was; with the first weights back it finds its run complete."""
    import numpy as np

    from wizsim.policies.net_weights import read_weights, save_weights
    from wizsim.policies.registry import seat_identity

    args = ["simulate", "--players", "4", "--round", "3", "--rounds", "20", "--chunk-size", "10",
            "--policies", "net,heuristic", "--seed", "1", "--out", str(tmp_path / "d")]
    assert CliRunner().invoke(main, args).exit_code == 0
    run = json.loads((tmp_path / "d" / MANIFEST).read_text())
    assert run["identity"]["identities"][0]["net_weights"] == seat_identity("net")["net_weights"]
    before = everything(tmp_path / "d")
    w, meta = read_weights()
    other = tmp_path / "other.npz"
    save_weights(other, (w * 1.01).astype(np.float32), meta)
    monkeypatch.setenv("WIZSIM_NET_WEIGHTS", str(other))
    assert seat_identity("search:rollout=self")["net_weights"] == seat_identity("net")["net_weights"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert len(error_lines(res.output)) == 1 and "net" in error_lines(res.output)[0], res.output
    assert everything(tmp_path / "d") == before
    monkeypatch.delenv("WIZSIM_NET_WEIGHTS")
    assert CliRunner().invoke(main, args).exit_code == 0  # complete: nothing written but the run file's log
    assert files_of(tmp_path / "d") == {k: v for k, v in before.items() if k.endswith(".parquet")}
