"""Train sb3-contrib's MaskablePPO in one seat against three heuristic players, then score it against the
heuristic on fixed deals (``pip install "wizsim[rl]"``).

    python scripts/train_maskable_ppo.py [--timesteps 200000] [--seed 0] [--r 5] [--eval 1000]

The environment is ``wizsim.envs.gym.WizardSeatEnv`` (one round of ``--r`` cards an episode, the learner's
seat drawn at each reset, three ``heuristic`` opponents playing inside wizsim's kernels); MaskablePPO reads
the legal actions from its ``action_masks()``. The evaluation plays ``--eval`` fixed deals (seeds
1,000,000 and up, the same for every run): the trained policy (greedy among the legal actions) in the
learner's seat, then, on the very same deals and seats, the heuristic itself and a uniformly random legal
player. It prints the mean round score of each in that seat, with a 95% interval; the heuristic's is the
yardstick. Torch runs on one thread (the machine is shared).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

EVAL_SEED = 1_000_000


def evaluate(env, choose, rounds: int) -> np.ndarray:
    """The learner's score on each of ``rounds`` fixed deals, ``choose(obs, mask)`` deciding its actions."""
    out = np.zeros(rounds)
    for k in range(rounds):
        obs, info = env.reset(seed=EVAL_SEED + k)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
            out[k] += reward
    return out


def heuristic_scores(env, rounds: int) -> np.ndarray:
    """The heuristic in the learner's seat on the same deals: each deal played by four heuristic players."""
    import wizsim

    out = np.zeros(rounds)
    for k in range(rounds):
        env.reset(seed=EVAL_SEED + k)  # draws the deal and the seat as the evaluation did
        rd = wizsim.Round(env.players, env.r, seed=env.table_seed, hook=env.hook)
        out[k] = rd.play("heuristic")[env.learner_seat - 1]
    return out


def summary(scores: np.ndarray) -> str:
    half = 1.96 * scores.std(ddof=1) / np.sqrt(len(scores)) if len(scores) > 1 else float("nan")
    return f"{scores.mean():+.2f} [{scores.mean() - half:+.2f}, {scores.mean() + half:+.2f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=200_000, help="learner decisions to train on")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--r", type=int, default=5, help="cards a round")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--envs", type=int, default=8, help="environments stepped side by side")
    ap.add_argument("--eval", type=int, default=1000, help="fixed deals in the evaluation")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    from wizsim.envs.gym import WizardSeatEnv

    torch.set_num_threads(1)
    kw = dict(players=args.players, r=args.r, opponents="heuristic")
    started = time.perf_counter()
    evaluate(WizardSeatEnv(**kw), lambda obs, mask: int(np.flatnonzero(mask)[0]), 1)  # compiles the kernels
    compiled = time.perf_counter() - started
    if compiled > 2:
        print(f"(wizsim compiled its kernels in {compiled:.0f} s; the times below leave that out)")
    train_env = make_vec_env(WizardSeatEnv, n_envs=args.envs, seed=args.seed, env_kwargs=kw)
    model = MaskablePPO("MlpPolicy", train_env, seed=args.seed, n_steps=max(16, min(256, args.timesteps // args.envs)),
                        batch_size=256, learning_rate=3e-4, gamma=1.0, ent_coef=0.01,
                        policy_kwargs=dict(net_arch=[128, 128]), device="cpu", verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    trained = time.perf_counter() - started
    returns = [r for e in train_env.envs for r in e.get_episode_rewards()]  # make_vec_env's Monitor
    late = np.mean(returns[-1000:]) if returns else float("nan")
    print(f"trained MaskablePPO on {model.num_timesteps:,} learner decisions, {len(returns):,} rounds, in "
          f"{trained:.0f} s ({model.num_timesteps / trained:,.0f} steps/s; {args.players} players, {args.r} cards "
          f"a round, seed {args.seed}); mean score of its last {min(len(returns), 1000):,} training rounds {late:+.2f}")

    env = WizardSeatEnv(**kw)
    rng = np.random.default_rng(args.seed)

    def trained_choice(obs, mask):
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    ppo = evaluate(env, trained_choice, args.eval)
    rand = evaluate(env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.eval)
    heur = heuristic_scores(env, args.eval)
    print(f"mean score per round in the learner's seat against {args.players - 1} heuristic players, "
          f"{args.eval} fixed deals (95% interval):")
    print(f"  MaskablePPO (trained):  {summary(ppo)}")
    print(f"  heuristic in its place: {summary(heur)}")
    print(f"  random legal actions:   {summary(rand)}")
    print(f"score vs heuristic: {ppo.mean() - heur.mean():+.2f} a round")


if __name__ == "__main__":
    main()
