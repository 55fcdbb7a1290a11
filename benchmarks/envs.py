"""Environment speed (issue 18 item 3): actions per second of a random game stepped one action at a time
through the open table's Python API (``wizsim.Game``), beside OpenSpiel's Python loop over its C++
``oh_hell`` (the best Python step loop a user has today); the batched ``VectorEnv`` per thread; and the
PettingZoo and OpenSpiel (``python_wizard``) environments stepped from Python; and the Gymnasium vector environment
(``wizsim.envs.gym.WizardVectorEnv``) beside the ``VectorEnv`` it wraps, stepped in turn, with their ratio.

    python benchmarks/envs.py              # 5 timed runs per case, median quoted
    python benchmarks/envs.py --quick      # 3 shorter runs
    python benchmarks/envs.py --json

An action is one decision (a bid, a card, a trump suit), chosen uniformly among the legal ones; chance
nodes (OpenSpiel's deal) are not counted. The Python loops include asking for the legal actions and
choosing one, as a user's loop does. ``VectorEnv`` draws its random actions in a kernel
(``sample_actions``) and is timed on one thread, by the thread's CPU time (the machine is shared: wall
time would count other people's work) with wall time beside it. Results go to benchmarks/results/envs.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from pathlib import Path

import numpy as np


def _median(fn, runs: int) -> dict:
    """fn() -> (actions, wall seconds, cpu seconds); the median rates over ``runs`` runs after a warm-up."""
    fn()
    walls, cpus = [], []
    for _ in range(runs):
        n, wall, cpu = fn()
        walls.append(n / wall)
        cpus.append(n / cpu)
    return {"actions_per_second": statistics.median(walls), "actions_per_second_cpu": statistics.median(cpus),
            "runs": runs}


def _timed(loop, seconds: float):
    def run():
        t, c, n = time.perf_counter(), time.thread_time(), 0
        while time.perf_counter() - t < seconds:
            n += loop()
        return n, time.perf_counter() - t, time.thread_time() - c
    return run


def wizsim_game_loop(seconds: float, runs: int) -> dict:
    from wizsim import Game

    rng = random.Random(0)

    def one_game():
        game = Game(4, seed=rng.getrandbits(62))
        n = 0
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            n += 1
        return n
    return _median(_timed(one_game, seconds), runs)


def openspiel_oh_hell_loop(seconds: float, runs: int) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(0)

    def one_round():
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n
    return _median(_timed(one_round, seconds), runs)


def openspiel_wizard_loop(seconds: float, runs: int) -> dict | None:
    try:
        import pyspiel

        import wizsim.envs.openspiel  # noqa: F401
    except ImportError:
        return None
    game = pyspiel.load_game("python_wizard", {"players": 4, "r": 10})
    rng = random.Random(0)

    def one_round():
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n
    return _median(_timed(one_round, seconds), runs)


def pettingzoo_loop(seconds: float, runs: int) -> dict | None:
    try:
        from wizsim.envs.pettingzoo import env
    except ImportError:
        return None
    e = env(4, r=None)
    rng = np.random.default_rng(0)

    def one_game():
        e.reset(seed=int(rng.integers(2**31)))
        n = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                n += 1
        return n
    return _median(_timed(one_game, seconds), runs)


def vector_env(seconds: float, runs: int, n: int, opponents: str | None, r: int = 5) -> dict:
    from wizsim.envs.vector import VectorEnv

    env = VectorEnv(n, 4, r, seed=1, opponents=opponents)
    env.reset()

    def steps():
        env.step(env.sample_actions())
        return n
    out = _median(_timed(steps, seconds), runs)
    out.update(n=n, players=4, r=r, opponents=opponents)
    return out


def gym_vector_beside_vector_env(steps: int, n: int, r: int = 5) -> dict | None:
    """``wizsim.envs.gym.WizardVectorEnv`` (Gymnasium's 5-tuple, same-step autoreset with ``final_obs``)
    beside the ``VectorEnv`` it wraps, learner vs 3 heuristic seats, stepped in turn one step each: both play
    the same rounds with the same random actions (one seed), so each pair of steps does the same work and
    sees the same machine. The ratio is the median of the pairs' ratios of thread CPU time (wall beside)."""
    try:
        from wizsim.envs.gym import WizardVectorEnv
    except ImportError:
        return None
    from wizsim.envs.vector import VectorEnv

    raw = VectorEnv(n, 4, r, seed=1, opponents="heuristic")
    gym = WizardVectorEnv(n, 4, r, seed=1, opponents="heuristic")
    raw.reset()
    gym.reset()
    times = {"vector_env": ([], []), "gym_vector_env": ([], [])}
    for k in range(steps + 20):  # the first 20: warm-up
        for key, env in (("vector_env", raw), ("gym_vector_env", gym)):
            c, w = time.thread_time_ns(), time.perf_counter_ns()
            env.step(env.sample_actions())
            if k >= 20:
                times[key][0].append(time.thread_time_ns() - c)
                times[key][1].append(time.perf_counter_ns() - w)
    out = {key: {"actions_per_second_cpu": n * 1e9 / statistics.median(cpu),
                 "actions_per_second": n * 1e9 / statistics.median(wall), "steps": steps}
           for key, (cpu, wall) in times.items()}
    pairs = zip(times["vector_env"][0], times["gym_vector_env"][0], strict=True)
    out["ratio_cpu"] = statistics.median(v / g for v, g in pairs)
    pairs = zip(times["vector_env"][1], times["gym_vector_env"][1], strict=True)
    out["ratio_wall"] = statistics.median(v / g for v, g in pairs)
    out.update(n=n, players=4, r=r, opponents="heuristic")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs, seconds = (3, 0.5) if args.quick else (5, 1.5)
    import numba

    import wizsim

    res = {
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_average_at_start": list(os.getloadavg()), "python": platform.python_version(),
                    "numpy": np.__version__, "numba": numba.__version__, "wizsim": wizsim.__version__},
        "wizsim_game_python_loop": wizsim_game_loop(seconds, runs),
        "openspiel_oh_hell_python_loop": openspiel_oh_hell_loop(seconds, runs),
        "openspiel_python_wizard_loop": openspiel_wizard_loop(seconds, runs),
        "pettingzoo_game_loop": pettingzoo_loop(seconds, runs),
        "vector_env_self_play": vector_env(seconds, runs, 4096, None),
        "vector_env_self_play_r15": vector_env(seconds, runs, 4096, None, r=15),
        "vector_env_vs_heuristic": vector_env(seconds, runs, 4096, "heuristic"),
        "gym_vector_env_beside_vector_env": gym_vector_beside_vector_env(300 if args.quick else 1500, 4096),
    }
    res["machine"]["load_average_at_end"] = list(os.getloadavg())
    out = Path(__file__).with_name("results").joinpath("envs-quick.json" if args.quick else "envs.json")
    out.write_text(json.dumps(res, indent=1) + "\n")
    if args.json:
        print(json.dumps(res, indent=1))
        return
    labels = {"wizsim_game_python_loop": "wizsim.Game, Python step loop (4 players, whole games)",
              "openspiel_oh_hell_python_loop": "OpenSpiel oh_hell (C++), Python step loop (4 players)",
              "openspiel_python_wizard_loop": "OpenSpiel python_wizard, Python step loop (4 players, r=10)",
              "pettingzoo_game_loop": "PettingZoo wizard env, agent_iter loop (4 players, whole games)",
              "vector_env_self_play": "VectorEnv self-play, one thread (n=4096, 4 players, r=5)",
              "vector_env_self_play_r15": "VectorEnv self-play, one thread (n=4096, 4 players, r=15)",
              "vector_env_vs_heuristic": "VectorEnv learner vs 3 heuristic seats, one thread (learner actions)"}
    pair = res["gym_vector_env_beside_vector_env"]
    if pair is not None:
        print(f"Gymnasium WizardVectorEnv beside VectorEnv, stepped in turn (n=4096, vs heuristic): "
              f"{pair['gym_vector_env']['actions_per_second_cpu']:,.0f} against "
              f"{pair['vector_env']['actions_per_second_cpu']:,.0f} actions/s of CPU time, ratio "
              f"{pair['ratio_cpu']:.3f} (median of the step pairs' ratios; wall {pair['ratio_wall']:.3f})")
    for key, label in labels.items():
        v = res[key]
        if v is None:
            print(f"{label}: skipped (pip install 'wizsim[rl]')")
        else:
            print(f"{label}: {v['actions_per_second']:,.0f} actions/s wall, {v['actions_per_second_cpu']:,.0f}/s "
                  f"of CPU time")


if __name__ == "__main__":
    main()
