"""The learned policy ``net`` (issue 35): its kernels against their NumPy twin (and PyTorch's forward pass),
legal and reproducible play at every table size, the weights file's checks, and a tiny training run."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wizsim
from wizsim.config import ConfigError
from wizsim.deal.reference import Stream
from wizsim.policies import net as K
from wizsim.policies import net_reference as R
from wizsim.policies.net_weights import ENV_PATH, layer_sizes, read_weights, save_weights, weights_path
from wizsim.policies.registry import make_slots
from wizsim.table.batch import python_games, python_rounds
from wizsim.table.players import kernel_view

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("hands", "turn_up", "trump", "bids", "tricks", "scores")


def _random_weights(seed: int, scale: float = 0.2) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, scale, K.N_WEIGHTS).astype(np.float32).astype(np.float64)


def _table(weights: np.ndarray) -> np.ndarray:
    return np.concatenate([np.zeros(K.NET_OFFSET), weights])


def _kernel_forward(table, name, x):
    """Every output of network ``name`` by the kernels (``hidden`` then ``logit``)."""
    _, d_in, (n1, n2), d_out = next(n for n in K.NETS if n[0] == name)
    (w1, b1), (w2, b2), (w3, b3) = [(K.NET_OFFSET + w, K.NET_OFFSET + b) for w, b in K.LAYOUT[name]]
    h1, h2 = np.empty(n1), np.empty(n2)
    K.hidden(table, x, d_in, w1, b1, h1, w2, b2, h2)
    return np.array([K.logit(table, h2, w3, b3, a) for a in range(d_out)])


def _inputs(rng, d):
    """A feature-like vector: mostly zeros, some ones and counts, a few fractions."""
    x = np.zeros(d)
    on = rng.random(d) < 0.15
    x[on] = rng.integers(1, 5, on.sum())
    x[rng.integers(0, d, 3)] = rng.normal(0.0, 1.0, 3)
    return x


@settings(deadline=None, max_examples=30)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["card", "bid", "trump"]))
def test_kernel_forward_pass_equals_numpy(seed, name):
    rng = np.random.default_rng(seed)
    w = _random_weights(seed)
    d_in = next(n for n in K.NETS if n[0] == name)[1]
    x = _inputs(rng, d_in)
    np.testing.assert_allclose(_kernel_forward(_table(w), name, x), R.forward(w, name, x), rtol=1e-9, atol=1e-9)


def test_kernel_forward_pass_equals_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    w = _random_weights(7)
    for name, d_in, _, _ in K.NETS:
        ls = R.layers(w, name)
        for _ in range(20):
            x = _inputs(rng, d_in)
            h = torch.from_numpy(x)
            for i, (W, b) in enumerate(ls):
                h = h @ torch.from_numpy(np.ascontiguousarray(W)) + torch.from_numpy(b)
                if i < len(ls) - 1:
                    h = torch.relu(h)
            np.testing.assert_allclose(_kernel_forward(_table(w), name, x), h.numpy(), rtol=1e-9, atol=1e-9)


class _Twin:
    """A player that decides by the NumPy twin (``net_reference``) and checks the kernels' features agree."""

    def __init__(self, weights):
        self.w = weights
        self.table = _table(weights)
        self.decisions = 0

    def trump(self, obs):
        v = kernel_view(obs)
        for s in range(4):
            x = np.empty(K.D_TRUMP)
            K.trump_features(v.hand, v.players, v.r, s, x)
            assert np.array_equal(x, R.trump_features(int(v.hand), int(v.players), int(v.r), s))
        return self._check(R.net_trump(self.w, v), K.net_trump(self.table, v))

    def bid(self, obs):
        return self._decide(kernel_view(obs), K.D_BID, K.bid_features, R.bid_features, R.net_bid, K.net_bid)

    def card(self, obs):
        return self._decide(kernel_view(obs), K.D_CARD, K.card_features, R.card_features, R.net_card, K.net_card)

    def _decide(self, v, d, kernel_features, twin_features, twin, kernel):
        x = np.empty(d)
        kernel_features(v, x)
        np.testing.assert_allclose(x, twin_features(v), rtol=1e-12, atol=1e-12)
        self._drawn(v, kernel)
        return self._check(twin(self.w, v), kernel(self.table, v))

    def _drawn(self, v, kernel):
        """``net:temperature``: the drawn decision and the stream after it, kernel against twin."""
        drawn = {K.net_card: (K.net_card_drawn, R.net_card_drawn), K.net_bid: (K.net_bid_drawn, R.net_bid_drawn)}
        kern, twin = drawn[kernel]
        state, t = 1000 + self.decisions, (0.3, 1.0, 2.5)[self.decisions % 3]
        rng, stream = np.array([state], np.uint64), Stream(state)
        assert kern(self.table, v, t, rng) == twin(self.w, v, t, stream)
        assert int(rng[0]) == stream.state

    def _check(self, twin, kern):
        assert twin == kern
        self.decisions += 1
        return int(twin)


@settings(deadline=None, max_examples=12)
@given(st.integers(3, 6), st.integers(0, 10**6), st.booleans(), st.data())
def test_kernels_decide_as_their_twin_at_the_open_table(players, seed, hook, data):
    """Features, forward pass and choice of the kernels equal the NumPy twin's on every decision of whole
    rounds; the open table checks every action is legal (a bad one raises)."""
    r = data.draw(st.integers(1, 60 // players))
    twin = _Twin(_random_weights(seed % 1000))
    rd = wizsim.Round(players, r, seed=seed, hook=hook)
    rd.play([twin] * players)
    assert twin.decisions >= players  # every bid at least


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("hook", [False, True])
def test_net_plays_legally_and_as_the_open_table_does(players, hook):
    """The shipped weights in the round kernel: the same rounds as at the open table, where every action is
    checked against the rules; whole games too."""
    r = 60 // players
    kernel = wizsim.simulate_rounds(players, r, 40, ["net", "heuristic"] if players % 2 == 0 else "net",
                                    seed=players, hook=hook)
    table = copy.deepcopy(kernel)
    for f in FIELDS:
        getattr(table, f)[...] = 0
    python_rounds(table, hook, False)
    for f in FIELDS:
        assert np.array_equal(getattr(kernel, f), getattr(table, f)), f
    games = wizsim.simulate_games(players, 2, "net", seed=11, hook=hook)
    gt = copy.deepcopy(games)
    for f in FIELDS:
        getattr(gt, f)[...] = 0
    python_games(gt, hook, False)
    for f in FIELDS:
        assert np.array_equal(getattr(games, f), getattr(gt, f)), f


def test_same_seed_same_choices():
    a = wizsim.simulate_games(4, 3, ["net", "heuristic"], seed=5)
    b = wizsim.simulate_games(4, 3, ["net", "heuristic"], seed=5)
    c = wizsim.simulate_games(4, 3, ["net", "heuristic"], seed=6)
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f))
    assert not np.array_equal(a.hands, c.hands)


def test_net_is_a_registered_policy():
    assert wizsim.player("net").name == "net"
    slots = make_slots(["net", "heuristic", "search:worlds=2"])
    assert slots.table.shape == (K.TABLE_LEN,)  # one table: the heuristic's values, then the weights
    with pytest.raises(ConfigError, match="takes 3 parameter"):
        make_slots(["net:0.1:0.2:play:3"])
    with pytest.raises(ConfigError, match="play_noise must be 0..1"):
        make_slots(["net:3"])


def test_shipped_weights_load_and_say_how_they_were_made():
    w, meta = read_weights()
    assert w.shape == (K.N_WEIGHTS,)
    assert meta["encoding_version"] == K.ENCODING_VERSION and "command" in meta


def _good_file(tmp_path):
    path = tmp_path / "net.npz"
    save_weights(path, _random_weights(1), {"note": "test"})
    return path


def test_bad_weights_missing_file(tmp_path):
    with pytest.raises(ConfigError, match=r"net\.npz.*not found"):
        read_weights(tmp_path / "net.npz")


def test_bad_weights_flipped_byte(tmp_path):
    path = _good_file(tmp_path)
    read_weights(path)
    raw = bytearray(path.read_bytes())
    for at in (len(raw) // 3, len(raw) // 2, 100):  # inside the compressed weights, and in a header
        bad = bytearray(raw)
        bad[at] ^= 0x01
        path.write_bytes(bytes(bad))
        with pytest.raises(ConfigError, match=str(path.name)):
            read_weights(path)


def test_bad_weights_altered_values_fail_the_checksum(tmp_path):
    path = _good_file(tmp_path)
    with np.load(path) as z:
        fields = {k: z[k] for k in z.files}
    fields["weights"] = fields["weights"].copy()
    fields["weights"][5] += 1.0
    np.savez(path, **fields)
    with pytest.raises(ConfigError, match="sha256"):
        read_weights(path)


def test_bad_weights_wrong_encoding_version_or_sizes(tmp_path):
    path = _good_file(tmp_path)
    with np.load(path) as z:
        fields = {k: z[k] for k in z.files}
    np.savez(path, **{**fields, "encoding_version": np.int64(K.ENCODING_VERSION + 1)})
    with pytest.raises(ConfigError, match=f"encoding {K.ENCODING_VERSION + 1}"):
        read_weights(path)
    np.savez(path, **{**fields, "dims": layer_sizes() + 1})
    with pytest.raises(ConfigError, match="layer sizes"):
        read_weights(path)


def test_bad_weights_are_one_line_at_the_command_line(tmp_path):
    path = tmp_path / "gone.npz"
    env = {**__import__("os").environ, ENV_PATH: str(path), "PYTHONPATH": str(ROOT / "src")}
    p = subprocess.run([sys.executable, "-m", "wizsim", "simulate", "--policy", "net", "--round", "3", "--rounds",
                        "10"], capture_output=True, text=True, env=env)
    assert p.returncode == 2
    errors = [line for line in p.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(path) in errors[0] and "Traceback" not in p.stderr


def test_tiny_training_run_ends_in_weights_the_kernels_load(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("train_net", ROOT / "scripts" / "train_net.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out, again = tmp_path / "net.npz", tmp_path / "again.npz"
    # the data are made through the dataset engine (chunks of 120 rounds) the first time; the second
    # training reads the same folder (a labels run, each DAgger folder keyed by the net that played it)
    metas = []
    for path, rounds in ((out, ["--rounds", "300"]), (again, [])):
        metas.append(mod.train(mod.parse(["--data", str(tmp_path / "data"), *rounds, "--chunk-size", "120",
                                          "--dagger", "1", "--dagger-rounds", "100", "--epochs", "1", "--seed", "3",
                                          "--out", str(path)]), log=lambda s: None))
    meta = metas[0]
    assert meta["examples"]["card"] > 100 and json.loads(json.dumps(meta)) == meta
    assert metas[1]["examples"] == meta["examples"] and metas[1]["data_run"] == meta["data_run"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["data", "data-dagger1"]
    w, _ = read_weights(out)
    assert np.array_equal(read_weights(again)[0], w)  # the same seed re-makes the same weights
    monkeypatch.setenv(ENV_PATH, str(out))
    assert weights_path() == out
    slots = make_slots(["net"])
    assert np.array_equal(slots.table[K.NET_OFFSET:], w)
    batch = wizsim.simulate_rounds(4, 5, 20, "net", seed=1)
    assert (batch.tricks.sum(axis=1) == 5).all()


def test_simulate_and_tournament_take_net_at_the_command_line(tmp_path):
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")}
    p = subprocess.run([sys.executable, "-m", "wizsim", "simulate", "--policy", "net", "--round", "3", "--rounds",
                        "50", "--threads", "1", "--json"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["card_plays_per_second"] > 0
    p = subprocess.run([sys.executable, "-m", "wizsim", "tournament", "--players", "3", "--policies", "net,heuristic,random",
                        "--games", "3", "--seed", "1", "--threads", "1", "--json"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert {x["name"] for x in json.loads(p.stdout)["policies"]} == {"net", "heuristic", "random"}


def test_net_is_the_vector_envs_opponent():
    from wizsim.envs.vector import VectorEnv

    env = VectorEnv(8, 4, 5, seed=1, opponents="net", seat=1)
    env.reset()
    for _ in range(40):  # the learner plays its lowest legal action; the net plays the other seats
        env.step(np.array([np.flatnonzero(m)[0] for m in env.masks]))
    assert (env.seat == 1).all()


class _FirstBid:
    """Bids and plays as the heuristic's open-table player and keeps the first bid observation it sees."""

    def __init__(self):
        self.me = wizsim.player("heuristic")
        self.obs = None

    def trump(self, obs):
        return self.me.trump(obs)

    def bid(self, obs):
        self.obs = self.obs or kernel_view(obs)
        return self.me.bid(obs)

    def card(self, obs):
        return self.me.card(obs)


@pytest.mark.parametrize("t", [0.5, 2.0])
def test_net_at_a_temperature_draws_its_bid_from_the_softmax_over_t(t):
    """``net:temperature=t``: each allowed bid as often as softmax(outputs / t) says (the Gumbel-max draw)."""
    w = _random_weights(3, 0.05)
    first = _FirstBid()
    wizsim.Round(4, 3, seed=9).play([first] * 4)
    v, table = first.obs, _table(w)
    z = R.forward(w, "bid", R.bid_features(v))[:int(v.r) + 1] / t
    allowed = [b for b in range(int(v.r) + 1) if b != v.forbidden]
    p = np.exp(z[allowed] - z[allowed].max())
    p /= p.sum()
    rng, trials = np.array([5], np.uint64), 20_000
    counts = np.bincount([K.net_bid_drawn(table, v, t, rng) for _ in range(trials)], minlength=int(v.r) + 1)
    assert counts[[b for b in range(int(v.r) + 1) if b not in allowed]].sum() == 0
    for b, pb in zip(allowed, p, strict=True):
        assert abs(counts[b] / trials - pb) < 4 * np.sqrt(pb * (1 - pb) / trials) + 1e-9, (b, counts[b], pb)


def test_net_at_a_temperature_is_reproducible_and_plays_as_at_the_open_table():
    a = wizsim.simulate_rounds(4, 7, 60, ["net:temperature=0.5", "heuristic"], seed=4)
    b = wizsim.simulate_rounds(4, 7, 60, ["net:temperature=0.5", "heuristic"], seed=4)
    plain = wizsim.simulate_rounds(4, 7, 60, ["net", "heuristic"], seed=4)
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert (a.bids != plain.bids).any() and (a.tricks != plain.tricks).any()
    table = copy.deepcopy(a)
    for f in ("bids", "tricks", "scores"):
        getattr(table, f)[...] = 0
    python_rounds(table, False, False)
    for f in ("bids", "tricks", "scores"):
        assert np.array_equal(getattr(a, f), getattr(table, f)), f
    assert wizsim.policies.check_policy("net:temperature=0") == "net"
    with pytest.raises(ConfigError, match="temperature must be 0..10"):
        make_slots(["net:temperature=-1"])
