"""The first hour, timed: each README command's first and second run on a fresh Numba cache.

For every command below this starts from an empty ``NUMBA_CACHE_DIR`` (``--mode each``) or from one
cache shared by the commands in README order (``--mode sequence``: what a newcomer meets, each later kind
of command paying only for what the earlier ones did not compile), runs it twice as a whole process
and prints, per run, the wall time, the compile time wizsim itself reported (``took`` in the output:
compiling and loading kernels, left out of the answer's time) and the answer's time. ``cpu`` is the
processor seconds the first run took more than the second (user + system, of the process and its
threads): on a machine shared with other work the wall times swing with the load, this much less. The
figures in the README and the CLI's notices (``wizsim/data/first_run.json``, with ``--write-notices``) come from here.

    python benchmarks/first_run.py                      # every command, fresh cache each
    python benchmarks/first_run.py --mode sequence      # one cache, README order
    python benchmarks/first_run.py --only "bid advice" --write-notices
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_GAME = ROOT / "docs" / "example-game.json"
VECTOR = ("import time; from wizsim.envs.vector import VectorEnv; t = time.perf_counter(); "
          "env = VectorEnv(256, players=4, r=5, seed=0); obs, masks = env.reset(); n = 0\n"
          "import numpy as np\n"
          "while n < 20000:\n"
          "    obs, masks, rewards, dones = env.step(masks.argmax(axis=1)); n += 256\n"
          "print(f'{n} steps in {time.perf_counter() - t:.2f} s')")

YOUR_TABLE = ("import wizsim, time; t = time.perf_counter(); bot = wizsim.player('search')\n"
              "obs = wizsim.observe('QS,9H,4D,2C', 'H', seat=3, players=4, bids=[1, 0, 1, 2], played='AS,3S,W,JS/', "
              "trump_card='7H')\n"
              "print(obs.phase, wizsim.format_cards([bot.card(obs)]), f'{time.perf_counter() - t:.2f} s')")
RL = ("import time; t = time.perf_counter()\n"
      "import torch\n"
      "from sb3_contrib import MaskablePPO\n"
      "from stable_baselines3.common.env_util import make_vec_env\n"
      "from wizsim.envs.gym import WizardSeatEnv\n"
      "torch.set_num_threads(1)\n"
      "envs = make_vec_env(WizardSeatEnv, n_envs=4, seed=0, env_kwargs=dict(players=4, r=5, opponents='heuristic'))\n"
      "model = MaskablePPO('MlpPolicy', envs, n_steps=128, batch_size=128, seed=0, verbose=0)\n"
      "model.learn(total_timesteps=2_000)\n"
      "print(f'trained on {model.num_timesteps} learner decisions in {time.perf_counter() - t:.2f} s')")

# kind -> the README command (wizsim's arguments, or ("python", code)); "{out}" a fresh folder
COMMANDS: dict[str, tuple[str, ...]] = {
    "bid advice": ("advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "2"),
    "play advice": ("advise", "--hand", "QS,7D", "--trump-card", "3S", "--seat", "3", "--players", "3", "--bids",
                    "1,0,1", "--played", "KH,AH"),
    "trump advice": ("advise", "--hand", "W,AS,3H,KH,QH", "--trump-card", "W", "--seat", "4"),
    "simulate": ("simulate", "--players", "4", "--round", "15", "--rounds", "1000000", "--seed", "7"),
    "simulate --games": ("simulate", "--players", "5", "--games", "10000", "--seed", "7"),
    "datasets": ("simulate", "--players", "4", "--games", "2000", "--seed", "1", "--out", "{out}"),
    "tournament": ("tournament", "--players", "4", "--policies", "heuristic,random", "--games", "20000"),
    "review": ("review", str(EXAMPLE_GAME)),
    "vector env": ("python", VECTOR),
    "search": ("tournament", "--players", "4", "--policies", "search,heuristic", "--games", "8"),
    "net": ("tournament", "--players", "4", "--policies", "net,heuristic", "--games", "2000", "--seed", "1"),
    "serve warm-up": ("python", "from wizsim.web.server import warm; print(f'warmed in {warm():.2f} s')"),
    "your table": ("python", YOUR_TABLE),
    "reinforcement learning": ("python", RL),
}
# the first command of each of the README's sections (the others are later commands of a section)
FIRST_OF_SECTION = ("bid advice", "play advice", "trump advice", "simulate", "tournament", "net", "review",
                    "your table", "reinforcement learning")
TOOK = re.compile(r"(\d[\d,]*\.\d+) s(?: \(and (\d[\d,]*\.\d+) s compiling)?")


def run_once(kind: str, cache: str) -> dict:
    command = COMMANDS[kind]
    out = tempfile.mkdtemp(prefix="wizsim-first-run-")
    try:
        if command[0] == "python":
            argv = [sys.executable, "-c", command[1]]
        else:
            argv = [sys.executable, "-m", "wizsim", *(os.path.join(out, "d") if a == "{out}" else a for a in command)]
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"{kind}: exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    answer = compiled = None
    for m in TOOK.finditer(done.stdout):
        answer = float(m.group(1).replace(",", ""))
        compiled = float(m.group(2).replace(",", "")) if m.group(2) else 0.0
    notice = next((line for line in done.stderr.splitlines() if "Compiling" in line), "")
    return {"wall": round(wall, 2), "cpu": round(cpu, 2), "compile_reported": compiled, "answer_reported": answer, "notice": notice}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("each", "sequence"), default="each")
    ap.add_argument("--only", action="append", choices=list(COMMANDS), help="only this command (repeatable)")
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    ap.add_argument("--write-notices", action="store_true",
                    help="write each command's first-run compile time into wizsim/data/first_run.json (the CLI's "
                         "notices); run on a quiet machine, --mode each")
    args = ap.parse_args()
    kinds = args.only or list(COMMANDS)
    load = os.getloadavg()[0]
    print(f"# {args.mode}: fresh Numba cache {'per command' if args.mode == 'each' else 'shared, README order'}; "
          f"{os.cpu_count()} cores, load {load:.1f} at the start")
    print(f"{'command':<17} {'1st wall':>9} {'compile':>8} {'cpu':>6} {'answer':>8} {'2nd wall':>9} {'answer':>8}  "
          f"compile = 1st - 2nd wall, cpu = 1st - 2nd processor seconds")
    results = {}
    shared = tempfile.mkdtemp(prefix="wizsim-cache-")
    try:
        for kind in kinds:
            cache = tempfile.mkdtemp(prefix="wizsim-cache-") if args.mode == "each" else shared
            try:
                first, second = run_once(kind, cache), run_once(kind, cache)
            finally:
                if cache != shared:
                    shutil.rmtree(cache, ignore_errors=True)
            compile_s = round(first["wall"] - second["wall"], 1)
            cpu_s = round(first["cpu"] - second["cpu"], 1)
            results[kind] = {"first": first, "second": second, "compile": compile_s, "compile_cpu": cpu_s}
            fmt = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
            print(f"{kind:<17} {first['wall']:>9.1f} {compile_s:>8.1f} {cpu_s:>6.1f} {fmt(first['answer_reported']):>8} "
                  f"{second['wall']:>9.1f} {fmt(second['answer_reported']):>8}", flush=True)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    meta = {"mode": args.mode, "cores": os.cpu_count(), "load_at_start": round(load, 2),
            "load_at_end": round(os.getloadavg()[0], 2), "measured": time.strftime("%Y-%m-%d")}
    if args.out:
        Path(args.out).write_text(json.dumps({**meta, "commands": results}, indent=2) + "\n")
    if args.write_notices:
        path = ROOT / "src" / "wizsim" / "data" / "first_run.json"
        table = json.loads(path.read_text()) if path.exists() else {"compile_seconds": {}}
        table.update({k: v for k, v in meta.items() if k != "mode"})
        table["compile_seconds"].update({k: v["compile"] for k, v in results.items()})
        path.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
