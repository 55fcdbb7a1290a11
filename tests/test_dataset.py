"""Parquet datasets: schema round trip, row invariants, byte-identical reruns (threads, Dask, resume
after a kill), refusal of foreign folders, partition pruning, reading back and the CLI wiring."""

from __future__ import annotations

import faulthandler
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers import files_of

import wizsim
from wizsim.cards import N_RANKS, N_SUITED, format_card, format_trump
from wizsim.cli import main
from wizsim.dataset.chunk import encode_chunk
from wizsim.dataset.read import read_tricks
from wizsim.dataset.rows import round_batch_tables
from wizsim.dataset.run import MANIFEST, write_dataset
from wizsim.dataset.spec import make_spec
from wizsim.io import schema
from wizsim.io.parquet import DatasetError, encode, to_table
from wizsim.rules.reference import score_round


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks.astype(np.uint64)).astype(np.int64)


# --- schema ---------------------------------------------------------------------------------------

def test_every_field_has_a_description_and_versions_are_stamped():
    for name, sch in schema.TABLES.items():
        assert sch.metadata[schema.KEY_TABLE] == name.encode()
        assert int(sch.metadata[schema.KEY_SCHEMA_VERSION]) == schema.SCHEMA_VERSION
        for f in sch:
            assert len(schema.describe(f)) > 10, f.name
    assert schema.file_schema("rounds").get_field_index("players") == -1


def test_schema_round_trip_through_parquet():
    b = wizsim.simulate_rounds(4, 5, 300, seed=11, trick_log=True)
    for (table, _r), (n, cols) in round_batch_tables("abc", b, ["random"] * 4).items():
        tbl = to_table(table, n, cols, {b"extra": b"1"})
        back = pq.read_table(io.BytesIO(encode(tbl)))
        assert back.schema.equals(schema.file_schema(table, "rounds"), check_metadata=False)  # no game columns
        for f in back.schema:
            assert schema.describe(f) == schema.describe(schema.file_schema(table).field(f.name))
        assert back.schema.metadata[b"extra"] == b"1"
        assert back.equals(tbl)
    n, cols = round_batch_tables("abc", b, ["random"] * 4)[("rounds", 5)]
    assert np.array_equal(cols["hand"], b.hands.reshape(-1))


def test_writer_refuses_columns_that_do_not_fit_the_schema():
    b = wizsim.simulate_rounds(4, 3, 10, seed=1)
    n, cols = round_batch_tables("abc", b, ["random"] * 4)[("rounds", 3)]
    with pytest.raises(DatasetError, match="missing"):
        to_table("rounds", n, {k: v for k, v in cols.items() if k != "bid"})
    with pytest.raises(DatasetError, match="unexpected"):
        to_table("rounds", n, {**cols, "bogus": cols["bid"]})
    with pytest.raises(DatasetError, match="seat"):
        to_table("rounds", n, {**cols, "seat": np.full(n, 300, np.int16)})
    with pytest.raises(DatasetError, match="may not be null"):
        to_table("rounds", n, {**cols, "bid": None})
    with pytest.raises(DatasetError, match="values"):
        to_table("rounds", n, {**cols, "bid": cols["bid"][:-1]})


# --- invariants of written data --------------------------------------------------------------------

@pytest.fixture(scope="module")
def games_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("games")
    write_dataset(out, 4, games=30, seed=5, trick_log=True, chunk_size=12, policies="random")
    return out


@pytest.fixture(scope="module")
def rounds_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("rounds")
    write_dataset(out, 5, r=7, rounds=900, seed=9, trick_log=True, chunk_size=400, hook=True)
    return out


def check_round_rows(df, tricks_df):
    df = df.sort_values(["round_index", "seat"])
    p = int(df["players"].iloc[0])
    g = df.groupby("round_index")
    assert (g["seat"].count() == p).all()
    r = g["round"].first().to_numpy().astype(np.int64)
    assert np.array_equal(g["tricks"].sum().to_numpy(), r)
    hands = df["hand"].to_numpy()
    assert np.array_equal(popcount(hands), df["round"].to_numpy().astype(np.int64))
    union = g["hand"].agg(lambda h: int(np.bitwise_or.reduce(h.to_numpy()))).to_numpy().astype(np.uint64)
    assert np.array_equal(popcount(union), r * p)  # disjoint hands
    exp = [score_round(int(b), int(t)) for b, t in zip(df["bid"], df["tricks"], strict=True)]
    assert np.array_equal(df["score"].to_numpy(), exp)
    assert np.array_equal(df["n_wizards"], popcount(hands & np.uint64(0xF << 52)))
    assert np.array_equal(df["n_jesters"], popcount(hands & np.uint64(0xF << 56)))
    tr = df["trump"].to_numpy()
    suit_mask = np.where(tr >= 0, np.uint64((1 << N_RANKS) - 1) << (np.maximum(tr, 0) * N_RANKS).astype(np.uint64),
                         np.uint64(0))
    assert np.array_equal(df["n_trumps"], popcount(hands & suit_mask))
    tu = df["turn_up"].to_numpy()
    suited = (tu >= 0) & (tu < N_SUITED)
    assert np.array_equal(tr[suited], tu[suited] // N_RANKS)
    # the play log: every card of the round played once, winners' counts equal tricks taken
    tricks_df = tricks_df.sort_values(["round_index", "trick"])
    for idx, rows in tricks_df.groupby("round_index"):
        mine = df[df["round_index"] == idx]
        cards = np.concatenate(rows["cards"].to_list())
        assert len(cards) == len(set(cards.tolist())) == mine["round"].iloc[0] * p
        assert int(np.bitwise_or.reduce(np.uint64(1) << cards.astype(np.uint64))) == int(
            np.bitwise_or.reduce(mine["hand"].to_numpy()))
        won = np.bincount(rows["winner"].to_numpy() - 1, minlength=p)
        assert np.array_equal(won, mine["tricks"].to_numpy())
        assert rows["leader"].iloc[0] == 1
        assert np.array_equal(rows["leader"].to_numpy()[1:], rows["winner"].to_numpy()[:-1])
    # the columns a reader needs no rules for
    assert np.array_equal(df["made"].to_numpy(), (df["bid"] == df["tricks"]).to_numpy())
    assert (df["trump_suit"].astype(str) == [format_trump(t) for t in tr]).all()
    assert (df["turn_up_card"].astype(str) == ["none" if t < 0 else format_card(t) for t in tu]).all()


def test_rounds_mode_rows_obey_the_rules_and_equal_the_engine(rounds_dir):
    df = wizsim.read_rounds(rounds_dir)
    tricks = read_tricks(rounds_dir)
    assert len(df) == 900 * 5 and len(tricks) == 900 * 7
    check_round_rows(df, tricks)
    assert not {"game_id", "game_round", "player", "total"} & set(df.columns)  # rounds mode: no game columns
    assert not [c for c in df.columns if df[c].isna().all()] and "game_id" not in tricks.columns
    # the hook: the bids never add up to the round size
    assert (df.groupby("round_index")["bid"].sum() != 7).all()
    b = wizsim.simulate_rounds(5, 7, 900, policies="heuristic", seed=9, hook=True)  # the datasets' default
    df = df.sort_values(["round_index", "seat"])
    assert np.array_equal(df["hand"].to_numpy(), b.hands.reshape(-1))
    assert np.array_equal(df["bid"].to_numpy(), b.bids.reshape(-1))
    assert np.array_equal(df["score"].to_numpy(), b.scores.reshape(-1))


def test_game_mode_rows_obey_the_rules_and_keep_running_totals(games_dir):
    df = wizsim.read_rounds(games_dir)
    tricks = read_tricks(games_dir)
    assert len(df) == 30 * 15 * 4
    check_round_rows(df, tricks)
    assert (df["game_round"] == df["round"]).all()
    assert (df["round_index"] == df["game_id"] * 15 + df["game_round"] - 1).all()
    df = df.sort_values(["game_id", "game_round", "player"])
    running = df.groupby(["game_id", "player"])["score"].cumsum()
    assert np.array_equal(running.to_numpy(), df["total"].to_numpy())
    # the deal passes left: seat s of round k+1 is the player of seat s+1 of round k
    g = wizsim.simulate_games(4, 30, seed=5)
    assert np.array_equal(df["total"].to_numpy().reshape(30, 15, 4), g.totals)
    dealer = df[df["seat"] == 4].sort_values(["game_id", "game_round"])["player"].to_numpy().reshape(30, 15)
    assert np.array_equal((dealer[:, 1:] - dealer[:, :-1]) % 4, np.ones((30, 14)))


def test_files_carry_the_run_and_the_command(games_dir):
    f = next(games_dir.rglob("part-000001.parquet"))
    meta = pq.read_schema(f).metadata
    run = json.loads(meta[schema.KEY_RUN])
    assert run["seed"] == 5 and run["players"] == 4 and run["games"] == 30 and run["hook"] is False
    assert run["policies"] == ["random"] * 4
    assert run["command"].startswith("wizsim simulate --players 4 --games 30 ")
    assert json.loads(meta[schema.KEY_FILE])["chunk"] == 1
    assert meta[schema.KEY_VERSION].decode() == wizsim.__version__
    # pyarrow's own hive reader sees every row of the run
    assert ds.dataset(str(games_dir / "rounds"), partitioning="hive").count_rows() == 30 * 15 * 4


# --- reproducibility -------------------------------------------------------------------------------

def test_same_seed_same_bytes_with_1_and_2_threads_and_on_dask(tmp_path):
    kw = dict(r=6, rounds=1500, seed=21, trick_log=True, chunk_size=500)
    write_dataset(tmp_path / "t1", 4, threads=1, **kw)
    write_dataset(tmp_path / "t2", 4, threads=2, **kw)
    a, b = files_of(tmp_path / "t1"), files_of(tmp_path / "t2")
    assert len(a) == 6 and a == b
    faulthandler.dump_traceback_later(240, exit=True)  # a hung cluster fails the run instead of stalling it
    try:
        write_dataset(tmp_path / "dask", 4, engine="dask", workers=2, dask_processes=False, **kw)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert files_of(tmp_path / "dask") == a
    # the client records each file's digest as the local engine does (resume and read check them)
    digests = [json.loads((tmp_path / d / "_wizsim_run.json").read_text())["digests"] for d in ("t1", "dask")]
    assert digests[0] == digests[1] and len(digests[0]) == 6


def test_cli_on_a_dask_scheduler_address_with_worker_processes_gives_the_local_files(tmp_path):
    # The multi-machine path: an existing scheduler reached by address, workers in their own
    # processes (their own Numba, nothing shared but wizsim being installed), whole games.
    from dask.distributed import LocalCluster

    args = ["simulate", "--players", "5", "--games", "40", "--policies", "heuristic,random,heuristic,random,random",
            "--seed", "8", "--trick-log", "--chunk-size", "15"]
    local = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    faulthandler.dump_traceback_later(240, exit=True)
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "dask"), "--engine", "dask",
                                            "--scheduler", cluster.scheduler_address])
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert res.exit_code == 0, res.output
    a = files_of(tmp_path / "local")
    assert len(a) == 3 * (12 + 12) and files_of(tmp_path / "dask") == a


def test_cli_unreachable_scheduler_is_a_one_line_error_and_leaves_the_folder_free(tmp_path):
    out = str(tmp_path / "x")
    res = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "10", "--out", out,
                                    "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.output, res.output
    assert "Traceback" not in res.output
    # that run wrote no data, so a different run may use the folder without --overwrite
    res = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "10", "--seed", "5", "--out", out])
    assert res.exit_code == 0, res.output
    # but once a run has data, a different one is refused
    res = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "10", "--seed", "6", "--out", out])
    assert res.exit_code == 2 and "--overwrite" in res.output, res.output


def test_chunk_files_do_not_depend_on_the_output_folder_or_on_each_other():
    spec = make_spec(3, games=7, seed=2, chunk_size=3)
    assert encode_chunk(spec, 1) == encode_chunk(spec, 1, threads=1)
    assert set(encode_chunk(spec, 2)) == set(spec.chunk_files(2))


KILL_RUN = ["--players", "4", "--round", "6", "--rounds", "200000", "--seed", "3", "--chunk-size", "1000",
            "--trick-log"]
KILL_CHUNKS = 200  # long enough after the first chunk (which may compile) for the kill to land mid-run


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_a_killed_run_resumes_to_the_same_dataset(tmp_path, sig):
    out = tmp_path / "killed"
    # the command as users run it (``wizsim``, ``python -m wizsim``), whose handler never drops a Ctrl-C;
    # under ``-m wizsim.cli`` Python's own handler can lose one in a callback and the run goes on (CI, once)
    cmd = [sys.executable, "-m", "wizsim", "simulate", *KILL_RUN, "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    # kill once a few chunks are complete (each chunk is two files, rounds and tricks)
    while len(list(out.rglob("part-*.parquet"))) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0, "the run finished before it could be interrupted"
    written = list(out.rglob("*.parquet"))
    assert 0 < len(written) < 2 * KILL_CHUNKS
    for f in written:  # only complete files under visible names
        pq.read_metadata(f)
    if sig != signal.SIGKILL:  # Ctrl-C, or a scheduler's / kill's SIGTERM: stopped cleanly
        assert json.loads((out / MANIFEST).read_text())["status"] == "interrupted"
        assert not (out / ".wizsim-writing.lock").exists()  # released
        err = proc.stderr.read().decode()
        assert proc.returncode == 128 + sig and "run the same command again to resume" in err, err
        assert "Traceback" not in err
    result = CliRunner().invoke(main, ["simulate", *KILL_RUN, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["chunks_skipped"] > 0 and report["chunks_skipped"] + report["chunks_written"] == KILL_CHUNKS
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]  # temporaries cleaned
    fresh = tmp_path / "fresh"
    assert CliRunner().invoke(main, ["simulate", *KILL_RUN, "--out", str(fresh)]).exit_code == 0
    assert files_of(out) == files_of(fresh)


# --- the folder ------------------------------------------------------------------------------------

def test_a_folder_with_another_run_is_refused_unless_overwrite(tmp_path):
    out = tmp_path / "d"
    write_dataset(out, 4, r=3, rounds=100, seed=1)
    with pytest.raises(DatasetError, match="--overwrite"):
        write_dataset(out, 4, r=3, rounds=100, seed=2)
    with pytest.raises(DatasetError, match="--overwrite"):
        write_dataset(out, 4, r=3, rounds=100, seed=1, trick_log=True)
    rep = write_dataset(out, 4, r=4, rounds=100, seed=2, overwrite=True)
    assert rep.chunks_written == 1
    assert list((out / "rounds" / "players=4").iterdir()) == [out / "rounds" / "players=4" / "round=4"]
    assert wizsim.read_rounds(out)["round"].unique().tolist() == [4]


def test_a_folder_with_other_files_is_never_cleared(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(DatasetError, match="did not write"):
        write_dataset(tmp_path, 4, r=3, rounds=10, overwrite=True)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    result = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "10", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "did not write" in result.output


def test_a_refused_run_leaves_no_folder_behind(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(DatasetError, match="is a file"):
        write_dataset(tmp_path / "file", 4, r=3, rounds=10)
    with pytest.raises(DatasetError, match="cannot create the folder"):
        write_dataset(tmp_path / "file" / "sub", 4, r=3, rounds=10)


# --- reading back ----------------------------------------------------------------------------------

def test_filters_read_only_the_matching_partition(games_dir, tmp_path):
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(games_dir, out)
    for f in (out / "rounds" / "players=4" / "round=2").iterdir():
        f.write_bytes(b"not parquet")  # any read of this partition now fails
    df = wizsim.read_rounds(out, round=3, seat=[1, 2])
    assert len(df) == 30 * 2 and set(df["round"]) == {3} and set(df["seat"]) == {1, 2}
    assert len(wizsim.read_rounds(out, players=4, round=[3, 4], columns=["bid"])) == 30 * 4 * 2
    with pytest.raises(pa.ArrowInvalid, match="round=2"):
        wizsim.read_rounds(out, round=2)


def test_read_rounds_decodes_hands_and_checks_versions(rounds_dir, tmp_path):
    df = wizsim.read_rounds(rounds_dir, decode_hands=True, columns=["round_index", "seat"], seat=1)
    assert list(df.columns) == ["round_index", "seat", "hand_text"]
    full = wizsim.read_rounds(rounds_dir, seat=1)
    for text, mask in zip(df["hand_text"].head(20), full["hand"].head(20), strict=True):
        ids = wizsim.parse_cards(text)
        assert len(ids) == 7 and sum(1 << int(c) for c in set(ids.tolist()) if c < N_SUITED) == int(mask) & ((1 << 52) - 1)
    with pytest.raises(DatasetError, match="cannot filter"):
        wizsim.read_rounds(rounds_dir, colour=1)
    # a file from a future schema version is refused
    old = next(rounds_dir.rglob("part-000000.parquet"))
    tbl = pq.read_table(old)
    meta = {**tbl.schema.metadata, schema.KEY_SCHEMA_VERSION: b"99"}
    bad = tmp_path / "rounds" / "players=5" / "round=7"
    bad.mkdir(parents=True)
    pq.write_table(tbl.replace_schema_metadata(meta), bad / "part-000000.parquet")
    with pytest.raises(DatasetError, match="schema version 99"):
        wizsim.read_rounds(tmp_path)


# --- CLI wiring ------------------------------------------------------------------------------------

def test_cli_writes_a_dataset_and_reports_it(tmp_path):
    out = tmp_path / "cli"
    result = CliRunner().invoke(main, ["simulate", "--players", "3", "--games", "4", "--policies", "random",
                                       "--seed", "4", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["units"] == 4 and report["chunks_written"] == 1 and report["files_written"] == 20
    assert len(wizsim.read_rounds(out)) == 4 * 20 * 3
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["status"] == "complete" and manifest["identity"]["seed"] == 4


@pytest.mark.parametrize("args", [["--trick-log"], ["--engine", "dask"], ["--overwrite"], ["--workers", "2"]])
def test_cli_dataset_options_need_out(args):
    result = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "10", *args])
    assert result.exit_code == 2 and "--out" in result.output


# --- generated docs and the sample ----------------------------------------------------------------

def test_schema_docs_are_generated_from_the_schema():
    root = Path(__file__).resolve().parent.parent
    res = subprocess.run([sys.executable, str(root / "scripts" / "gen_schema_docs.py"), "--check"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    page = (root / "docs" / "schema.md").read_text()
    for sch in schema.TABLES.values():
        for f in sch:
            assert schema.describe(f) in page


def test_sample_dataset_reads_back():
    root = Path(__file__).resolve().parent.parent / "data" / "sample"
    df = wizsim.read_rounds(root, round=[1, 15])
    assert set(df["round"]) == {1, 15} and (df["players"] == 4).all()
    assert len(read_tricks(root, round=15)) == 15 * df["game_id"].nunique()
