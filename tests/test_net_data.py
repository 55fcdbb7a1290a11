"""The net's training examples are an ordinary dataset (issue 35): ``dataset.labels`` writes
``label_rounds``' examples through the dataset engine. The folder reads back as the kernel's output in
memory, the Dask engine writes the same bytes, a resume after an interrupted run gives the same files,
the run id holds the behaviour (and a net's weights), and a bad option of the recipe is one line."""

import faulthandler
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from helpers import files_of

from wizsim.config import ConfigError
from wizsim.dataset.labels import TABLES, make_label_spec, read_labels, write_labels
from wizsim.io.parquet import DatasetError
from wizsim.policies import net as K
from wizsim.policies.dispatch import HEURISTIC, NET
from wizsim.policies.net_data import WHO, empty_out, label_rounds
from wizsim.policies.net_weights import DEFAULT_PATH, read_weights, save_weights
from wizsim.policies.registry import N_PARAMS
from wizsim.policies.search import P_ROLLOUT, ROLLOUT_SELF

ROOT = Path(__file__).resolve().parents[1]


def in_memory(spec):
    """``label_rounds`` over the whole run in one call: the six arrays and the three ``who`` arrays, trimmed."""
    out, counts = empty_out(spec.rounds)
    kind = NET if spec.behaviour == "net" else HEURISTIC
    params = np.zeros(N_PARAMS)
    params[P_ROLLOUT] = ROLLOUT_SELF if spec.rollout == "self" else 0
    label_rounds(np.uint64(spec.seed), spec.first, spec.rounds, kind, params, spec.table(),
                 (float(spec.eps), float(spec.p_card), float(spec.heuristic_seats)), out, counts)
    return [a[:counts[t]] for t, a in zip((0, 0, 1, 1, 2, 2, 0, 1, 2), out, strict=True)]


def test_a_labels_folder_reads_back_as_label_rounds_in_memory(tmp_path):
    spec = make_label_spec(45, first=7, seed=4, chunk_size=20)  # chunks of 20, 20 and 5 rounds
    report = write_labels(tmp_path / "d", spec)
    assert (report.chunks, report.chunks_written, report.files_written) == (3, 3, 9)
    got = read_labels(tmp_path / "d")
    mem = in_memory(spec)
    for t, name in enumerate(TABLES):
        ex = got[name]
        assert np.array_equal(ex.features, mem[2 * t].reshape(len(mem[2 * t]), -1))
        assert np.array_equal(ex.scores, mem[2 * t + 1], equal_nan=True)
        who = mem[6 + t]
        for i, col in enumerate(WHO):
            want = who[:, i] + (1 if col == "seat" else 0)  # seats are 1-based in the files
            assert np.array_equal(ex.who[col], want), (name, col)
    bid, card, trump = (got[n] for n in TABLES)
    assert len(bid) > 100 and len(card) > 100 and set(np.unique(bid.who["round_index"])) == set(range(7, 52))
    # the who columns agree with what the bid features encode, and the dealer names the trump
    x = bid.features
    assert np.array_equal(x[:, K.B_PLAYERS:K.B_PLAYERS + 4].argmax(1) + 3, bid.who["players"])
    assert np.array_equal(x[:, K.B_R:K.B_R + K.MAX_BID].argmax(1) + 1, bid.who["round"])
    assert np.array_equal(x[:, K.B_SEAT:K.B_SEAT + 6].argmax(1) + 1, bid.who["seat"])
    assert np.array_equal(x[:, K.B_HOOK] == 1, bid.who["hook"])
    assert (trump.who["seat"] == trump.who["players"]).all()
    assert ((card.who["seat"] >= 1) & (card.who["seat"] <= card.who["players"])).all()
    # legal candidates have values, illegal ones NaN: every bid example values at least one bid
    above = np.arange(K.MAX_BID + 1)[None, :] > bid.who["round"][:, None]  # bids above the round size
    assert (~np.isnan(bid.scores)).sum(1).min() >= 1 and np.isnan(bid.scores[above]).all()
    # an ordinary Parquet dataset: pyarrow's reader and pandas see the rows
    assert ds.dataset(str(tmp_path / "d" / "card_examples")).count_rows() == len(card)
    df = pq.read_table(tmp_path / "d" / "bid_examples").to_pandas()
    assert len(df) == len(bid) and np.array_equal(np.stack(df["features"]), bid.features)


def test_the_dask_engine_writes_the_local_files_byte_for_byte(tmp_path):
    pytest.importorskip("dask.distributed")
    heuristic = make_label_spec(30, seed=2, chunk_size=8, p_card=0.5)
    net = make_label_spec(12, first=30, seed=2, chunk_size=5, behaviour=DEFAULT_PATH, eps=0.05)
    faulthandler.dump_traceback_later(240, exit=True)  # a hung cluster fails the run instead of stalling it
    try:
        for name, spec in (("h", heuristic), ("n", net)):
            write_labels(tmp_path / f"{name}-local", spec)
            write_labels(tmp_path / f"{name}-dask", spec, engine="dask", workers=2, dask_processes=False)
            a, b = files_of(tmp_path / f"{name}-local"), files_of(tmp_path / f"{name}-dask")
            assert len(a) == 3 * spec.n_chunks and a == b
            digests = [json.loads((tmp_path / f"{name}-{e}" / "_wizsim_run.json").read_text())["digests"]
                       for e in ("local", "dask")]
            assert digests[0] == digests[1]
    finally:
        faulthandler.cancel_dump_traceback_later()


def test_a_resume_after_an_interrupted_run_gives_the_same_files(tmp_path):
    spec = make_label_spec(40, seed=6, chunk_size=10)
    write_labels(tmp_path / "whole", spec)
    whole = files_of(tmp_path / "whole")

    def stop_after_one(n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_labels(tmp_path / "cut", spec, progress=stop_after_one)
    kept = files_of(tmp_path / "cut")
    assert 0 < len(kept) < len(whole) and all(whole[k] == v for k, v in kept.items())
    run = json.loads((tmp_path / "cut" / "_wizsim_run.json").read_text())
    assert run["status"] == "interrupted"
    # a chunk cut short by a kill: one file truncated, one a temporary
    part = tmp_path / "cut" / "card_examples" / "part-000000.parquet"
    part.write_bytes(part.read_bytes()[:100])
    (tmp_path / "cut" / "bid_examples" / ".part-000003.parquet.0123abcd.tmp").write_bytes(b"PAR1")
    report = write_labels(tmp_path / "cut", spec)
    assert report.chunks_rewritten == [0] and report.chunks_skipped == len(kept) // 3 - 1
    assert files_of(tmp_path / "cut") == whole
    assert not list((tmp_path / "cut").rglob("*.tmp"))
    again = write_labels(tmp_path / "cut", spec)  # complete: nothing to do
    assert again.chunks_written == 0 and again.files_verified == len(whole)


def test_the_run_id_holds_the_behaviour_and_its_weights(tmp_path):
    w, meta = read_weights(DEFAULT_PATH)
    other = tmp_path / "other.npz"
    w2 = w.copy()
    w2[0] += 0.5
    save_weights(other, w2, meta)
    base = dict(rounds=6, seed=1, chunk_size=3)
    heuristic, net, net2 = (make_label_spec(**base, behaviour=b) for b in (None, DEFAULT_PATH, other))
    assert len({heuristic.run_id, net.run_id, net2.run_id}) == 3
    assert net.identity()["identities"] == [{"player": "net", "kind": "weights", "sha256": net.weights_sha256}]
    assert "--behaviour" in net.command() and str(DEFAULT_PATH) in net.command()
    # the same weights from another path are the same run
    copy = tmp_path / "copy.npz"
    copy.write_bytes(DEFAULT_PATH.read_bytes())
    assert make_label_spec(**base, behaviour=copy).run_id == net.run_id
    write_labels(tmp_path / "d", net)
    with pytest.raises(DatasetError, match="seat 1: 'net' changed"):
        write_labels(tmp_path / "d", net2)
    with pytest.raises(DatasetError, match="pass --overwrite"):
        write_labels(tmp_path / "d", heuristic)
    write_labels(tmp_path / "d", net2, overwrite=True)
    assert json.loads((tmp_path / "d" / "_wizsim_run.json").read_text())["run_id"] == net2.run_id


def test_bad_parameters_and_folders_are_refused(tmp_path):
    for kw, match in ((dict(rounds=0), "rounds"), (dict(rounds=5, p_card=1.5), "p_card"),
                      (dict(rounds=5, eps="x"), "eps"), (dict(rounds=5, chunk_size=0), "chunk_size"),
                      (dict(rounds=5, behaviour=tmp_path / "none.npz"), "file not found")):
        with pytest.raises(ConfigError, match=match):
            make_label_spec(**kw)
    with pytest.raises(DatasetError, match="not a folder of net training examples"):
        read_labels(tmp_path)


def run_script(*args):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "train_net.py"), *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.mark.parametrize("args", [
    ["--rounds", "5", "--label-only"],  # no --data
    ["--data", "D", "--label-only"],  # no --rounds
    ["--data", "D", "--rounds", "0", "--label-only"],
    ["--data", "D", "--rounds", "5", "--p-card", "2", "--label-only"],
    ["--data", "D", "--rounds", "5", "--label-only", "--behaviour", "missing.npz"],
    ["--data", "D", "--rounds", "5", "--label-only", "--heuristic-seats", "0.5"],  # no net behaviour to replace
    ["--data", "D", "--rounds", "5", "--label-only", "--heuristic-seats", "2"],
    ["--data", "D", "--heuristic-seats", "0.5", "--improve", "2"],  # no self-valued round to set the tables of
    ["--data", "D", "--first", "3"],
    ["--data", "D", "--engine", "spark"],
    ["--data", "D", "--epochs", "0"],
    ["--data", "D", "--bogus"],
])
def test_a_bad_option_of_the_recipe_is_one_line(tmp_path, args):
    args = [str(tmp_path / a) if a in ("D", "missing.npz") else a for a in args]
    p = run_script(*args)
    assert p.returncode == 2, p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in p.stderr, p.stderr
    assert not (tmp_path / "D").exists()


def test_label_only_writes_the_folder_its_run_file_names(tmp_path):
    p = run_script("--label-only", "--data", str(tmp_path / "d"), "--rounds", "12", "--chunk-size", "5",
                   "--seed", "9")
    assert p.returncode == 0, p.stderr
    run = json.loads((tmp_path / "d" / "_wizsim_run.json").read_text())
    assert run["status"] == "complete" and run["identity"]["eps"] == 0.0
    assert run["command"].startswith("python scripts/train_net.py --label-only --data")
    assert run["run_id"] == make_label_spec(12, seed=9, chunk_size=5).run_id


def test_a_self_valued_run_is_its_own_run_and_values_by_the_nets_play(tmp_path):
    """``rollout="self"`` (the improvement rounds of ``--improve-self``): the behaviour net plays the deciding
    seat's later cards in the valuing play-outs. The folder reads back as ``label_rounds`` with the search's
    ``rollout=self`` in memory, its run id and command name the rollout, its values differ from the
    heuristic-valued run of the same rounds on the same decisions, and the heuristic cannot be its behaviour."""
    spec = make_label_spec(30, first=3, seed=5, behaviour=DEFAULT_PATH, eps=0.05, chunk_size=15, rollout="self")
    plain = make_label_spec(30, first=3, seed=5, behaviour=DEFAULT_PATH, eps=0.05, chunk_size=15)
    assert spec.run_id != plain.run_id and "--rollout self" in spec.command()
    assert "rollout" not in plain.identity()  # a heuristic-valued run keeps the id it had before the option
    write_labels(tmp_path / "s", spec)
    got, mem = read_labels(tmp_path / "s"), in_memory(spec)
    for t, name in enumerate(TABLES):
        assert np.array_equal(got[name].features, mem[2 * t].reshape(len(mem[2 * t]), -1))
        assert np.array_equal(got[name].scores, mem[2 * t + 1], equal_nan=True)
    base = in_memory(plain)
    assert np.array_equal(base[0], mem[0])  # the same rounds, played the same way: the same decisions
    assert not np.array_equal(base[1], mem[1], equal_nan=True)  # valued by other play-outs
    with pytest.raises(ConfigError, match="give a net weights file as the behaviour"):
        make_label_spec(10, rollout="self")
    with pytest.raises(ConfigError, match="rollout must be heuristic or self"):
        make_label_spec(10, behaviour=DEFAULT_PATH, rollout="net")


def test_heuristic_seats_put_the_heuristic_in_a_share_of_the_nets_seats(tmp_path):
    """``heuristic_seats`` (``--heuristic-seats``): each seat of each round is played by the heuristic instead
    of the behaviour net with that probability. All of them: the bid and trump decisions are the heuristic
    run's, example for example (the deal and the bids do not depend on the play stream's extra draws, and
    neither player draws to bid); none: the run is the net run, its id and command unchanged; half: the
    bids are neither run's, and each heard bid is the net's or the heuristic's. The folder reads back as
    ``label_rounds`` in memory."""
    kw = dict(seed=4, behaviour=DEFAULT_PATH, chunk_size=20)
    every, half, none = (make_label_spec(40, heuristic_seats=h, **kw) for h in (1.0, 0.5, 0.0))
    plain, heuristic = make_label_spec(40, **kw), make_label_spec(40, seed=4, chunk_size=20)
    assert none.run_id == plain.run_id and "heuristic_seats" not in plain.identity()
    assert "--heuristic-seats" not in plain.command() and "--heuristic-seats 0.5" in half.command()
    assert len({every.run_id, half.run_id, plain.run_id}) == 3
    h, e, n, m = (in_memory(s) for s in (heuristic, every, plain, half))
    for t in (0, 1, 4, 5):  # bid and trump examples, features and values
        assert np.array_equal(e[t], h[t], equal_nan=True)
    assert not np.array_equal(n[0], h[0])  # the net bids otherwise: the comparison can fail
    assert not np.array_equal(m[0], h[0]) and not np.array_equal(m[0], n[0])
    # the first seat's bid, as the second seat heard it: in each round the net's or the heuristic's, and mixed
    # (rounds whose first seat saw the same in all three runs: a dealer who names the trump may name another)
    def seat(run, k, cols):
        return {int(w[0]): tuple(run[0][i, cols]) for i, w in enumerate(run[6]) if w[4] == k}

    own = [seat(run, 0, slice(None)) for run in (m, n, h)]
    hm, hn, hh = (seat(run, 1, slice(K.B_EARLIER, K.B_EXCESS)) for run in (m, n, h))
    same = [i for i in hm if own[0].get(i) == own[1].get(i) == own[2].get(i) is not None]
    assert len(same) > 20
    assert all(hm[i] in (hn[i], hh[i]) for i in same)
    assert any(hm[i] != hn[i] for i in same) and any(hm[i] != hh[i] for i in same)
    write_labels(tmp_path / "m", half)
    got = read_labels(tmp_path / "m")
    for t, name in enumerate(TABLES):
        assert np.array_equal(got[name].features, m[2 * t].reshape(len(m[2 * t]), -1))
    with pytest.raises(ConfigError, match="give a net weights file as the behaviour"):
        make_label_spec(10, heuristic_seats=0.5)
