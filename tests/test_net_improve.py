"""Issue 35: labels valued by ``net``'s own play-outs (``net_data.label_rounds`` with
``params[search.P_ROLLOUT] = ROLLOUT_NET``) and the training script's policy-improvement rounds."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from wizsim.policies import net_reference as R
from wizsim.policies.dispatch import NET
from wizsim.policies.net_data import empty_out, label_rounds
from wizsim.policies.net_weights import read_weights
from wizsim.policies.registry import N_PARAMS, TABLES
from wizsim.policies.search import P_ROLLOUT, ROLLOUT_NET

ROOT = Path(__file__).resolve().parent.parent


def _labels(index: int, rollout: int, weights):
    table = np.concatenate([TABLES["heuristic_values"](), weights])
    params = np.zeros(N_PARAMS)
    params[P_ROLLOUT] = rollout
    out, counts = empty_out(1)
    label_rounds(np.uint64(5), index, 1, NET, params, table, (0.0, 1.0, 0.0), out, counts)
    nb, nc, _ = (int(c) for c in counts)
    return out[0][:nb], out[1][:nb], out[2][:nc], out[3][:nc]


def _chosen(weights, name, x, values):
    """The net's choice on the recorded features: the legal (valued) output of highest logit."""
    z = R.forward(weights, name, x.astype(np.float64))
    z[np.isnan(values)] = -np.inf
    return int(np.argmax(z))


def test_net_play_outs_value_the_nets_own_choice_at_the_score_it_makes():
    """Every seat plays net (no random cards), so the net's own choice, continued by net, is the round as
    played: its value is the seat's final score, the same at every decision of the seat (bids in seat order).
    With the heuristic's play-outs the same examples are valued otherwise."""
    w, _ = read_weights()
    differ = checked = 0
    for index in range(12):
        bx, bv, cx, cv = _labels(index, ROLLOUT_NET, w)
        hb, hbv, hcx, hcv = _labels(index, 0, w)
        assert np.array_equal(bx, hb) and np.array_equal(cx, hcx)  # the same rounds, the same decisions
        vals = np.concatenate([bv[~np.isnan(bv)], cv[~np.isnan(cv)]])
        assert (((vals >= 20) & (vals % 10 == 0)) | ((vals < 0) & (vals % 10 == 0))).all()  # round scores
        finals = {float(bv[i, _chosen(w, "bid", bx[i], bv[i])]) for i in range(len(bx))}
        if len(bx) == 0:
            continue
        for i in range(len(cx)):
            assert float(cv[i, _chosen(w, "card", cx[i], cv[i])]) in finals
            checked += 1
        differ += not (np.array_equal(bv, hbv, equal_nan=True) and np.array_equal(cv, hcv, equal_nan=True))
    assert checked > 50 and differ > 0


def test_improvement_rounds_from_init_equal_the_whole_recipe(tmp_path):
    """``--init`` with the weights of the recipe without ``--improve`` re-makes the whole recipe's file."""
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("train_net", ROOT / "scripts" / "train_net.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = ["--data", str(tmp_path / "data"), "--rounds", "200", "--dagger", "1", "--dagger-rounds", "100",
            "--epochs", "1", "--seed", "4", "--chunk-size", "100"]
    more = ["--improve", "1", "--improve-rounds", "60", "--improve-epochs", "1"]
    first, whole, then = tmp_path / "base.npz", tmp_path / "whole.npz", tmp_path / "then.npz"
    mod.train(mod.parse([*base, "--out", str(first)]), log=lambda s: None)
    meta = mod.train(mod.parse([*base, *more, "--out", str(whole)]), log=lambda s: None)
    meta2 = mod.train(mod.parse([*base, *more, "--init", str(first), "--out", str(then)]), log=lambda s: None)
    assert meta["improve_examples"]["card"] > 50 and meta2["init"]["meta"]["seed"] == 4
    w = read_weights(whole)[0]
    assert np.array_equal(read_weights(then)[0], w) and not np.array_equal(read_weights(first)[0], w)


def test_training_never_overwrites_a_file_that_is_not_net_weights(tmp_path):
    """The DAgger round's weights file beside --out is written by the script; a file of the user's there
    is left as it was and the run stops with one line (exit 2)."""
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("train_net", ROOT / "scripts" / "train_net.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "w.npz"
    mine = tmp_path / "w.phase0.npz"
    mine.write_bytes(b"my notes")
    code = mod.main(["--data", str(tmp_path / "data"), "--rounds", "50", "--dagger", "1", "--dagger-rounds", "20",
                     "--epochs", "1", "--seed", "4", "--out", str(out)])
    assert code == 2 and mine.read_bytes() == b"my notes" and not out.exists()


def test_heuristic_seats_set_the_tables_of_the_self_valued_rounds_only(tmp_path):
    """``--heuristic-seats 0.5`` (the shipped recipe's): the heuristic-valued improvement rounds are played
    by the net in every seat as before (their folders are the same runs), the self-valued round by the net
    with the heuristic in about half the seats; the file records the share, and the weights differ from the
    same recipe without it."""
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("train_net", ROOT / "scripts" / "train_net.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = ["--data", str(tmp_path / "data"), "--rounds", "200", "--dagger", "0", "--epochs", "1", "--seed", "4",
            "--chunk-size", "100"]
    first = tmp_path / "base.npz"
    mod.train(mod.parse([*base, "--out", str(first)]), log=lambda s: None)
    more = ["--init", str(first), "--improve", "2", "--improve-self", "1", "--improve-rounds", "40",
            "--improve-epochs", "1"]
    plain, mixed = tmp_path / "plain.npz", tmp_path / "mixed.npz"
    mod.train(mod.parse([*base, *more, "--out", str(plain)]), log=lambda s: None)
    runs = [json.loads((tmp_path / f"data-improve{k}" / "_wizsim_run.json").read_text()) for k in (1, 2)]
    meta = mod.train(mod.parse([*base, *more, "--heuristic-seats", "0.5", "--out", str(mixed),
                                "--overwrite"]), log=lambda s: None)
    again = [json.loads((tmp_path / f"data-improve{k}" / "_wizsim_run.json").read_text()) for k in (1, 2)]
    assert again[0]["run_id"] == runs[0]["run_id"] and "heuristic_seats" not in again[0]["identity"]
    assert again[1]["identity"]["heuristic_seats"] == 0.5 and again[1]["identity"]["rollout"] == "self"
    assert "heuristic_seats" not in runs[1]["identity"] and meta["heuristic_seats"] == 0.5
    assert not np.array_equal(read_weights(plain)[0], read_weights(mixed)[0])
