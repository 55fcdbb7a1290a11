"""Train the ``net`` policy's three networks and write their weights (``wizsim/data/net.npz``).

Recipe (docs/net.md): ``policies.net_data.label_rounds`` plays rounds with the heuristic in every seat
and values every candidate of every trump and bid decision, and of a share ``--p-card`` of the card
decisions, by the search policy's play-out on the round's true deal; each network regresses those values
(mean squared error on the legal candidates, scores / 10). Then ``--dagger`` rounds: fresh rounds played
by the net trained so far (with ``--eps`` random cards), labelled the same way, added to the data, and
the networks trained on. Then ``--improve`` rounds: fresh rounds played by the net, labelled the same way
(or valued by the net's own play-outs, ``--improve-by net``), the networks fine-tuned on them alone.
Everything depends on ``--seed`` only (one torch thread):

    pip install -e ".[train]"
    NUMBA_NUM_THREADS=1 nice -n 10 python scripts/train_net.py --rounds 200000 --dagger 1 --seed 1

Needs PyTorch (the ``train`` extra); playing with the weights never does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from wizsim.policies import net as K  # noqa: E402
from wizsim.policies.dispatch import HEURISTIC, NET  # noqa: E402
from wizsim.policies.net_data import empty_out, label_rounds  # noqa: E402
from wizsim.policies.net_weights import DEFAULT_PATH, digest, read_weights, save_weights  # noqa: E402
from wizsim.policies.registry import N_PARAMS, TABLES  # noqa: E402
from wizsim.policies.search import P_ROLLOUT, ROLLOUT_NET  # noqa: E402

SCALE = 10.0  # values (round scores) are regressed in tens of points
BLOCK = 5000  # rounds labelled per kernel call


def label(seed: int, first: int, n: int, weights: np.ndarray | None, eps: float, p_card: float,
          net_play_outs: bool = False):
    """Examples of rounds ``first .. first + n - 1``: behaviour the heuristic (``weights`` None) or the net;
    the candidates valued by the heuristic's play-outs, or by the net's (``net_play_outs``, with ``weights``)."""
    table = np.concatenate([TABLES["heuristic_values"](),
                            np.zeros(K.N_WEIGHTS) if weights is None else weights])
    kind = HEURISTIC if weights is None else NET
    params = np.zeros(N_PARAMS)
    if net_play_outs:
        params[P_ROLLOUT] = ROLLOUT_NET
    parts = []
    for a in range(first, first + n, BLOCK):
        b = min(a + BLOCK, first + n)
        out, counts = empty_out(b - a)
        label_rounds(np.uint64(seed), a, b - a, kind, params, table, eps, p_card, out, counts)
        nb, nc, nt = (int(c) for c in counts)
        parts.append((out[0][:nb], out[1][:nb], out[2][:nc], out[3][:nc], out[4][:nt], out[5][:nt]))
    return [np.concatenate([p[i] for p in parts]) for i in range(6)]


def _mlp(torch, name):
    _, d_in, hidden, d_out = next(n for n in K.NETS if n[0] == name)
    sizes = (d_in, *hidden, d_out)
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        layers.append(torch.nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def _loss(torch, model, x, v, trump: bool):
    """Squared error on the legal candidates' values, each example's mean over its candidates taken out of
    both the outputs and the values: every candidate is valued on the same deal, so their differences
    carry the signal and the deal's luck (shared by all) is noise; only the ranking is ever used."""
    if trump:  # (n, 4, D): one score per suit
        z = model(x.reshape(-1, x.shape[-1])).reshape(x.shape[0], 4)
    else:
        z = model(x)
    mask = ~torch.isnan(v)
    m = mask.to(z.dtype)
    k = m.sum(1, keepdim=True).clamp(min=1)
    t = torch.nan_to_num(v) / SCALE
    z = z - (z * m).sum(1, keepdim=True) / k
    t = t - (t * m).sum(1, keepdim=True) / k
    d = (z - t) * m
    return (d * d).sum() / m.sum().clamp(min=1)


def fit(torch, model, x, v, *, trump: bool, epochs: int, seed: int, lr: float, batch: int, log):
    """Adam on the masked squared error; returns the held-out loss (the last 5% of the examples)."""
    n = len(x)
    n_val = max(1, n // 20) if n > 20 else 0
    xt, vt = torch.from_numpy(x[:n - n_val]), torch.from_numpy(v[:n - n_val])
    xv, vv = torch.from_numpy(x[n - n_val:]), torch.from_numpy(v[n - n_val:])
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs))
    gen = torch.Generator().manual_seed(seed)
    val = float("nan")
    for epoch in range(epochs):
        perm = torch.randperm(len(xt), generator=gen)
        model.train()
        total = 0.0
        for i in range(0, len(xt), batch):
            idx = perm[i:i + batch]
            loss = _loss(torch, model, xt[idx], vt[idx], trump)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        if n_val:
            with torch.no_grad():
                val = float(_loss(torch, model, xv, vv, trump))
        log(f"    epoch {epoch + 1}/{epochs}: train {total / max(1, len(xt)):.4f}, held-out {val:.4f}")
    return val


def flatten(torch, models) -> np.ndarray:
    """The models' parameters in ``policies.net``'s layout (the last layer transposed)."""
    w = np.zeros(K.N_WEIGHTS)
    for name, _, _, _ in K.NETS:
        linears = [m for m in models[name] if isinstance(m, torch.nn.Linear)]
        for i, (lin, (wo, bo)) in enumerate(zip(linears, K.LAYOUT[name], strict=True)):
            W = lin.weight.detach().double().numpy()  # (out, in)
            W = W if i == len(linears) - 1 else W.T  # the last layer is stored (out, in), the others (in, out)
            w[wo:wo + W.size] = W.ravel()
            w[bo:bo + lin.bias.numel()] = lin.bias.detach().double().numpy()
    return w.astype(np.float32).astype(np.float64)


def unflatten(torch, models, w: np.ndarray) -> None:
    """``flatten``'s inverse: ``w`` (in ``policies.net``'s layout) into the models' parameters."""
    with torch.no_grad():
        for name, _, _, _ in K.NETS:
            linears = [m for m in models[name] if isinstance(m, torch.nn.Linear)]
            for i, (lin, (wo, bo)) in enumerate(zip(linears, K.LAYOUT[name], strict=True)):
                shape = tuple(lin.weight.shape) if i == len(linears) - 1 else tuple(lin.weight.shape)[::-1]
                W = w[wo:wo + lin.weight.numel()].reshape(shape)
                lin.weight.copy_(torch.from_numpy(W if i == len(linears) - 1 else W.T))
                lin.bias.copy_(torch.from_numpy(w[bo:bo + lin.bias.numel()]))


def improve(torch, args, models, first: int, log) -> tuple[dict, dict]:
    """``--improve`` rounds after the DAgger rounds: ``--improve-rounds`` fresh rounds played by the net
    trained so far (``--eps`` random cards), every candidate valued by the heuristic's play-out
    (``--improve-by heuristic``: a DAgger round without the old data) or by the *net's*
    (``--improve-by net``: the net plays the rest of the round, a step of policy improvement over the net),
    and the networks trained on these examples alone (``--improve-epochs``, ``--improve-lr``). The models'
    parameters are the only state carried in, so ``--init`` with the weights of the same recipe without
    ``--improve`` gives the same file."""
    held, counts = {}, {}
    for phase in range(args.improve):
        w = flatten(torch, models)
        t = time.process_time()
        data = label(args.seed, first, args.improve_rounds, w, args.eps, args.p_card,
                     net_play_outs=args.improve_by == "net")
        first += args.improve_rounds
        counts = {"bid": len(data[0]), "card": len(data[2]), "trump": len(data[4])}
        log(f"improvement round {phase + 1}: {args.improve_rounds} rounds played by the net, valued by the "
            f"{args.improve_by}'s play-outs ({time.process_time() - t:.0f} s CPU): {counts}")
        for name, (xi, vi) in (("bid", (0, 1)), ("card", (2, 3)), ("trump", (4, 5))):
            log(f"  {name} network, {len(data[xi])} examples")
            held[name] = fit(torch, models[name], data[xi], data[vi], trump=name == "trump",
                             epochs=args.improve_epochs, seed=args.seed + 100 + phase, lr=args.improve_lr,
                             batch=args.batch, log=log)
    return held, counts


def train(args, log=print) -> dict:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    t_cpu, t_wall = time.process_time(), time.time()
    models = {name: _mlp(torch, name) for name, *_ in K.NETS}
    held = {}
    first = args.rounds
    data = [np.zeros(0)] * 6
    if args.init is not None:  # the weights of the recipe's earlier phases, made before
        w0, meta0 = read_weights(args.init)
        unflatten(torch, models, w0)
        first += args.dagger * args.dagger_rounds
        log(f"started from {args.init}: {meta0.get('command')}")
    else:
        data = label(args.seed, 0, args.rounds, None, 0.0, args.p_card)
        log(f"labelled {args.rounds} heuristic rounds: {len(data[0])} bids, {len(data[2])} cards, "
            f"{len(data[4])} trumps ({time.process_time() - t_cpu:.0f} s CPU)")
    for phase in range(0 if args.init is not None else args.dagger + 1):
        if phase:
            w = flatten(torch, models)
            more = label(args.seed, first, args.dagger_rounds, w, args.eps, args.p_card)
            first += args.dagger_rounds
            data = [np.concatenate([a, b]) for a, b in zip(data, more, strict=True)]
            log(f"DAgger round {phase}: {args.dagger_rounds} rounds played by the net, now {len(data[0])} bids, "
                f"{len(data[2])} cards, {len(data[4])} trumps")
        if phase:
            save_weights(args.out.with_suffix(f".phase{phase - 1}.npz"), flatten(torch, models),
                         {"phase": phase - 1, "seed": args.seed, "encoding_version": K.ENCODING_VERSION})
        epochs = args.epochs if phase == 0 else max(1, args.epochs // 2)
        for name, (xi, vi) in (("bid", (0, 1)), ("card", (2, 3)), ("trump", (4, 5))):
            log(f"  {name} network, {len(data[xi])} examples")
            held[name] = fit(torch, models[name], data[xi], data[vi], trump=name == "trump", epochs=epochs,
                             seed=args.seed + phase, lr=args.lr, batch=args.batch, log=log)
    examples = {"bid": len(data[0]), "card": len(data[2]), "trump": len(data[4])}
    if args.init is not None:  # the earlier phases' data, as the weights started from say
        examples = meta0.get("examples", examples)
    if args.improve:
        save_weights(args.out.with_suffix(".before-improve.npz"), flatten(torch, models),
                     {"seed": args.seed, "encoding_version": K.ENCODING_VERSION})
        held, improve_examples = improve(torch, args, models, first, log)
    weights = flatten(torch, models)
    meta = {"command": "python scripts/train_net.py " + " ".join(args.argv), "seed": args.seed,
            "rounds": args.rounds, "dagger": args.dagger, "dagger_rounds": args.dagger_rounds, "eps": args.eps,
            "p_card": args.p_card, "epochs": args.epochs, "examples": examples,
            "held_out_mse": held, "cpu_seconds": round(time.process_time() - t_cpu, 1),
            "wall_seconds": round(time.time() - t_wall, 1), "torch": torch.__version__,
            "encoding_version": K.ENCODING_VERSION}
    if args.improve:
        meta.update({"improve": args.improve, "improve_rounds": args.improve_rounds, "improve_by": args.improve_by,
                     "improve_epochs": args.improve_epochs, "improve_lr": args.improve_lr,
                     "improve_examples": improve_examples})
    if args.init is not None:
        meta["init"] = {"sha256": digest(w0), "meta": meta0}
    save_weights(args.out, weights, meta)
    read_weights(args.out)  # what was written loads
    log(f"wrote {args.out}: {json.dumps(meta)}")
    return meta


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000, help="heuristic rounds labelled first")
    ap.add_argument("--dagger", type=int, default=1, help="rounds of DAgger (games by the net, labelled)")
    ap.add_argument("--dagger-rounds", type=int, default=100_000, help="rounds played by the net per DAgger round")
    ap.add_argument("--eps", type=float, default=0.05, help="random-card share of the net's play in DAgger rounds")
    ap.add_argument("--p-card", type=float, default=0.3, help="share of card decisions labelled")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--improve", type=int, default=0,
                    help="rounds of policy improvement after DAgger (games by the net, valued by its play-outs)")
    ap.add_argument("--improve-rounds", type=int, default=100_000, help="rounds played per improvement round")
    ap.add_argument("--improve-by", choices=("heuristic", "net"), default="heuristic",
                    help="whose play-outs value the candidates in the improvement rounds")
    ap.add_argument("--improve-epochs", type=int, default=3)
    ap.add_argument("--improve-lr", type=float, default=5e-4)
    ap.add_argument("--init", type=Path, default=None,
                    help="weights made by this recipe without --improve: skip its earlier phases")
    ap.add_argument("--out", type=Path, default=DEFAULT_PATH)
    args = ap.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    return args


if __name__ == "__main__":
    train(parse())
