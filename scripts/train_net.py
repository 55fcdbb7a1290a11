"""Train the ``net`` policy's three networks and write their weights (``wizsim/data/net.npz``).

Recipe (docs/net.md): the training data is a folder of examples written by wizsim's dataset engine
(``wizsim.dataset.labels``: rounds played with the heuristic in every seat, every candidate of every trump
and bid decision, and of a share ``--p-card`` of the card decisions, valued by the search policy's
play-out on the round's true deal); each network regresses those values (mean squared error on the legal
candidates, scores / 10). Then ``--dagger`` rounds: a folder of fresh rounds played by the net trained so
far (with ``--eps`` random cards; its weights file ``OUT.phaseN.npz`` is part of that run's identity),
labelled the same way, added to the data, and the networks trained on. Then ``--improve`` rounds: a folder
of fresh rounds played by the net (``OUT.improveN.npz``), labelled the same way, and the networks fine-tuned
on them alone (``--improve-epochs``, ``--improve-lr``); the last ``--improve-self`` of them value the
candidates by play-outs with the net itself in the deciding seat (the heuristic in the others: the search's
``rollout=self``) rather than the heuristic in every seat; with ``--heuristic-seats P`` each seat of each
self-valued round is played by the heuristic instead of the net with probability P (tables beside weaker
players, like those the net is measured at; ``--heuristic-seats-rounds all``: of every improvement round,
which with ``--improve 2`` and no self-valued round makes ``net:weights=search``'s file). ``--init`` starts from the weights of the same recipe without
``--improve`` and skips its earlier phases. Everything depends on ``--seed`` only (one torch
thread), whatever the engine, workers or chunk size:

    pip install -e ".[train]"
    nice -n 10 python scripts/train_net.py --data runs/net-data --rounds 200000 --dagger 1 --seed 1

``--data DIR`` with ``--rounds N`` makes (or resumes, or finds complete) N rounds of examples in DIR, then
trains; without ``--rounds`` it trains on the examples DIR holds. DAgger folders go beside it
(``DIR-dagger1``, ...). ``--label-only`` makes the folder and stops (no PyTorch): that is the command each
folder's run file records. ``--engine dask --workers N`` (or ``--scheduler ADDRESS``) labels the chunks on a
Dask cluster. Needs PyTorch (the ``train`` extra) to train; playing with the weights never does.
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

from wizsim.config import ENGINES, ConfigError  # noqa: E402
from wizsim.dataset.labels import LABEL_CHUNK, make_label_spec, read_labels, write_labels  # noqa: E402
from wizsim.io.parquet import DatasetError  # noqa: E402
from wizsim.policies import net as K  # noqa: E402
from wizsim.policies.net_weights import DEFAULT_PATH, digest, read_weights, save_weights  # noqa: E402

SCALE = 10.0  # values (round scores) are regressed in tens of points


def as_arrays(examples) -> list[np.ndarray]:
    """A labels folder's tables (``read_labels``) as the six arrays the networks train on: bid x, bid values,
    card x, card values, trump x (n, 4, D_TRUMP), trump values."""
    b, c, t = (examples[name] for name in ("bid_examples", "card_examples", "trump_examples"))
    return [b.features, b.scores, c.features, c.scores, t.features.reshape(-1, 4, K.D_TRUMP), t.scores]


def make_data(args, out: Path, first: int, rounds: int, behaviour=None, eps: float = 0.0, log=print,
              rollout: str = "heuristic", heuristic_seats: float = 0.0) -> list:
    """Write (or resume, or find complete) a labels folder through the dataset engine, and read it back."""
    spec = make_label_spec(rounds, first=first, seed=args.seed, behaviour=behaviour, eps=eps, p_card=args.p_card,
                           chunk_size=args.chunk_size, rollout=rollout, heuristic_seats=heuristic_seats)
    report = write_labels(out, spec, engine=args.engine, workers=args.workers, scheduler=args.scheduler,
                          overwrite=args.overwrite)
    log(f"{out}: run {report.run_id}, {report.chunks} chunks ({report.chunks_skipped} found complete, "
        f"{report.chunks_written} written, {report.bytes_written / 1e6:.1f} MB in {report.seconds:.1f} s)")
    return as_arrays(read_labels(out))


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


def _save(path: Path, weights: np.ndarray, meta: dict) -> None:
    """``save_weights``, but never over a file that is not a net weights file (one wizsim did not write)."""
    if path.exists():
        try:
            read_weights(path)
        except ConfigError:
            raise ConfigError(f"{path} exists and is not a net weights file: not overwritten (move it, or "
                              f"choose another --out)") from None
    save_weights(path, weights, meta)


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
    """``--improve`` rounds after the DAgger rounds: a folder ``DATA-improveN`` of ``--improve-rounds`` fresh
    rounds played by the net trained so far (``--eps`` random cards; its weights ``OUT.improveN.npz`` are in
    that run's identity), every candidate valued by the heuristic's play-out as in the other folders, and the
    networks fine-tuned on these examples alone (``--improve-epochs``, ``--improve-lr``). The models'
    parameters are the only state carried in, so ``--init`` with the weights of the same recipe without
    ``--improve`` gives the same file. (Valuing by net's own play-outs, ``label_rounds`` with
    ``params[search.P_ROLLOUT]`` net, was measured and not kept: docs/net.md.)"""
    held, counts = {}, {}
    for phase in range(args.improve):
        behaviour = args.out.with_suffix(f".improve{phase + 1}.npz")
        _save(behaviour, flatten(torch, models), {"improve": phase + 1, "seed": args.seed,
                                                         "encoding_version": K.ENCODING_VERSION})
        folder = args.data.with_name(f"{args.data.name}-improve{phase + 1}")
        t = time.process_time()
        data = None  # the previous round's examples, freed before the next round's are read
        rollout = "self" if phase >= args.improve - args.improve_self else "heuristic"
        # the shipped player mixes the self-valued round only (mixing the others too lost 14 points there);
        # the model of search players (net:weights=search) is the heuristic-valued rounds, all mixed
        mix = args.heuristic_seats if rollout == "self" or args.heuristic_seats_rounds == "all" else 0.0
        data = make_data(args, folder, first, args.improve_rounds, behaviour, args.eps, log, rollout, mix)
        first += args.improve_rounds
        counts = {"bid": len(data[0]), "card": len(data[2]), "trump": len(data[4])}
        by = f"the net ({mix:g} of the seats the heuristic)" if mix else "the net"
        log(f"improvement round {phase + 1}: {args.improve_rounds} rounds played by {by}, valued by the "
            f"{'net in the deciding seat' if rollout == 'self' else 'heuristic'}'s play-outs "
            f"({time.process_time() - t:.0f} s CPU): {counts}")
        for name, (xi, vi) in (("bid", (0, 1)), ("card", (2, 3)), ("trump", (4, 5))):
            log(f"  {name} network, {len(data[xi])} examples")
            held[name] = fit(torch, models[name], data[xi], data[vi], trump=name == "trump",
                             epochs=args.improve_epochs, seed=args.seed + 100 + phase, lr=args.improve_lr,
                             batch=args.batch, log=log)
    return held, counts


def imitation_data(args, log=print) -> tuple[list, dict]:
    """The heuristic rounds' examples (made through the engine with ``--rounds``, else read from ``--data``)
    and the identity of their run (its seed, first round and rounds place the DAgger rounds after them)."""
    if args.rounds is not None:
        data = make_data(args, args.data, 0, args.rounds, log=log)
    else:
        data = as_arrays(read_labels(args.data))
    ident = json.loads((args.data / "_wizsim_run.json").read_text())["identity"]
    if ident["behaviour"] != "heuristic" or ident["seed"] != args.seed:
        raise DatasetError(f"{args.data} holds rounds of seed {ident['seed']} played by {ident['behaviour']}: "
                           f"train on heuristic rounds of --seed {args.seed}")
    return data, ident


def train(args, log=print) -> dict:
    try:
        import torch
    except ImportError:
        raise ConfigError("training needs PyTorch: pip install -e \".[train]\" (--label-only makes the data "
                          "without it)") from None

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    t_cpu, t_wall = time.process_time(), time.time()
    models = {name: _mlp(torch, name) for name, *_ in K.NETS}
    held = {}
    if args.init is not None:  # the weights of the recipe's earlier phases, made before
        w0, meta0 = read_weights(args.init)
        unflatten(torch, models, w0)
        ident = {"first": 0, "rounds": meta0.get("rounds", args.rounds or 0), "p_card": args.p_card}
        data = [np.zeros((0,))] * 6
        first = ident["rounds"] + args.dagger * args.dagger_rounds
        log(f"started from {args.init}: {meta0.get('command')}")
    else:
        data, ident = imitation_data(args, log)
        log(f"{ident['rounds']} heuristic rounds: {len(data[0])} bids, {len(data[2])} cards, {len(data[4])} trumps "
            f"({time.process_time() - t_cpu:.0f} s CPU)")
        first = ident["first"] + ident["rounds"]
    for phase in range(0 if args.init is not None else args.dagger + 1):
        if phase:
            behaviour = args.out.with_suffix(f".phase{phase - 1}.npz")
            _save(behaviour, flatten(torch, models),
                         {"phase": phase - 1, "seed": args.seed, "encoding_version": K.ENCODING_VERSION})
            folder = args.data.with_name(f"{args.data.name}-dagger{phase}")
            more = make_data(args, folder, first, args.dagger_rounds, behaviour, args.eps, log)
            first += args.dagger_rounds
            for i in range(len(data)):  # one table at a time, each old array freed at once: the peak is one copy
                data[i] = np.concatenate([data[i], more[i]])
                more[i] = None
            del more
            log(f"DAgger round {phase}: {args.dagger_rounds} rounds played by the net, now {len(data[0])} bids, "
                f"{len(data[2])} cards, {len(data[4])} trumps")
        epochs = args.epochs if phase == 0 else max(1, args.epochs // 2)
        for name, (xi, vi) in (("bid", (0, 1)), ("card", (2, 3)), ("trump", (4, 5))):
            log(f"  {name} network, {len(data[xi])} examples")
            held[name] = fit(torch, models[name], data[xi], data[vi], trump=name == "trump", epochs=epochs,
                             seed=args.seed + phase, lr=args.lr, batch=args.batch, log=log)
    examples = {"bid": len(data[0]), "card": len(data[2]), "trump": len(data[4])}
    if args.init is not None:  # the earlier phases' data, as the weights started from say
        examples = meta0.get("examples", examples)
    if args.improve:
        data = None  # the earlier phases' examples are not re-read: free them (the full recipe's are ~10 GB)
        held, improve_examples = improve(torch, args, models, first, log)
    weights = flatten(torch, models)
    meta = {"command": "python scripts/train_net.py " + " ".join(args.argv), "seed": args.seed,
            "rounds": ident["rounds"], "dagger": args.dagger, "dagger_rounds": args.dagger_rounds, "eps": args.eps,
            "p_card": ident["p_card"], "epochs": args.epochs,
            "data_run": meta0.get("data_run") if args.init is not None else _run_id(args.data),
            "examples": examples,
            "held_out_mse": held, "cpu_seconds": round(time.process_time() - t_cpu, 1),
            "wall_seconds": round(time.time() - t_wall, 1), "torch": torch.__version__,
            "encoding_version": K.ENCODING_VERSION}
    if args.improve:
        meta.update({"improve": args.improve, "improve_self": args.improve_self, "improve_rounds": args.improve_rounds,
                     "improve_epochs": args.improve_epochs, "improve_lr": args.improve_lr,
                     "improve_examples": improve_examples})
        if args.heuristic_seats:
            meta["heuristic_seats"] = args.heuristic_seats
            if args.heuristic_seats_rounds != "self":
                meta["heuristic_seats_rounds"] = args.heuristic_seats_rounds
    if args.init is not None:
        meta["init"] = {"sha256": digest(w0), "meta": meta0}
    _save(args.out, weights, meta)
    read_weights(args.out)  # what was written loads
    log(f"wrote {args.out}: {json.dumps(meta)}")
    return meta


def _run_id(folder: Path) -> str:
    return json.loads((folder / "_wizsim_run.json").read_text())["run_id"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse's own prints the usage first)
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def parse(argv=None):
    ap = _Parser(prog="train_net.py", description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="the folder of heuristic rounds' examples")
    ap.add_argument("--rounds", type=int, default=None,
                    help="make (or resume) this many rounds of examples in --data first; without it, read --data")
    ap.add_argument("--dagger", type=int, default=1, help="rounds of DAgger (games by the net, labelled)")
    ap.add_argument("--dagger-rounds", type=int, default=100_000, help="rounds played by the net per DAgger round")
    ap.add_argument("--eps", type=float, default=None,
                    help="random-card share of the net's play in DAgger rounds (default 0.05; with --label-only, "
                         "0.05 with --behaviour and 0 for the heuristic)")
    ap.add_argument("--p-card", type=float, default=0.3, help="share of card decisions labelled")
    ap.add_argument("--chunk-size", type=int, default=LABEL_CHUNK, help="rounds per file of a labels folder")
    ap.add_argument("--engine", choices=ENGINES, default=ENGINES[0], help="where the rounds are labelled")
    ap.add_argument("--workers", type=int, default=None, help="with --engine dask: a local cluster of N workers")
    ap.add_argument("--scheduler", default=None, help="with --engine dask: an existing cluster's address")
    ap.add_argument("--overwrite", action="store_true", help="replace another run's examples in a folder")
    ap.add_argument("--label-only", action="store_true", help="make the --data folder and stop (no training)")
    ap.add_argument("--first", type=int, default=0, help="with --label-only: the first round's index")
    ap.add_argument("--behaviour", type=Path, default=None,
                    help="with --label-only: a net weights file whose net plays the rounds (default: the heuristic)")
    ap.add_argument("--rollout", choices=("heuristic", "self"), default="heuristic",
                    help="with --label-only: who plays the valuing play-outs (self: the --behaviour net in the deciding "
                         "seat)")
    ap.add_argument("--heuristic-seats", type=float, default=0.0,
                    help="in the self-valued improvement rounds (or with --label-only and --behaviour), the share of "
                         "seats the heuristic plays instead of the net (drawn per seat and round)")
    ap.add_argument("--heuristic-seats-rounds", choices=("self", "all"), default="self",
                    help="which improvement rounds --heuristic-seats sets: the self-valued ones (the shipped player) "
                         "or all (the model of search players, net:weights=search)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--improve", type=int, default=0,
                    help="rounds of improvement after DAgger (fresh games by the net, the networks fine-tuned on them)")
    ap.add_argument("--improve-self", type=int, default=0,
                    help="the last N improvement rounds value the candidates by play-outs with the net in the deciding "
                         "seat (the heuristic in the others) instead of the heuristic in every seat")
    ap.add_argument("--improve-rounds", type=int, default=100_000, help="rounds played per improvement round")
    ap.add_argument("--improve-epochs", type=int, default=3)
    ap.add_argument("--improve-lr", type=float, default=5e-4)
    ap.add_argument("--init", type=Path, default=None,
                    help="weights made by this recipe without --improve: skip its earlier phases")
    ap.add_argument("--out", type=Path, default=DEFAULT_PATH)
    args = ap.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.eps is None:
        args.eps = 0.0 if args.label_only and args.behaviour is None else 0.05
    if args.label_only and args.rounds is None:
        ap.error("--label-only needs --rounds N")
    if not args.label_only and (args.first or args.behaviour is not None or args.rollout != "heuristic"):
        ap.error("--first, --behaviour and --rollout go with --label-only (training places, plays and values its "
                 "later rounds itself)")
    for name in ("dagger", "dagger_rounds", "epochs", "batch", "improve", "improve_self", "improve_rounds",
                 "improve_epochs"):
        low = 0 if name in ("dagger", "improve", "improve_self") else 1
        if getattr(args, name) < low:
            ap.error(f"--{name.replace('_', '-')} must be at least {low}")
    if not 0.0 <= args.heuristic_seats <= 1.0:
        ap.error(f"--heuristic-seats must be in 0..1, got {args.heuristic_seats!r}")
    if args.heuristic_seats and not (args.label_only or args.improve_self or
                                     (args.improve and args.heuristic_seats_rounds == "all")):
        ap.error("--heuristic-seats sets the tables of the self-valued rounds: it goes with --improve-self (or "
                 "--heuristic-seats-rounds all and --improve, or --label-only)")
    if args.improve_self > args.improve:
        ap.error("--improve-self counts among the --improve rounds: at most --improve")
    if args.init is not None and not args.improve:
        ap.error("--init goes with --improve (it skips the phases before the improvement rounds)")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    try:
        if args.label_only:
            make_data(args, args.data, args.first, args.rounds, args.behaviour, args.eps, rollout=args.rollout,
                      heuristic_seats=args.heuristic_seats)
        else:
            train(args)
    except (ConfigError, DatasetError) as err:
        print(f"train_net.py: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
