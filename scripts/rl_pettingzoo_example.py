"""Learn to bid through the PettingZoo environment (``pip install "wizsim[rl]"``): a tabular softmax bid
policy trained by REINFORCE for a few seconds at a table of three ``heuristic`` players, then scored against
the untrained (uniform) policy on the same deals.

    python scripts/rl_pettingzoo_example.py [--seconds 20] [--r 3]

The learner is ``player_0``. Its bid is drawn from a table indexed by a small summary of its hand read off
the observation tensor (Wizards, trumps, off-suit aces); its cards are played by the heuristic, so only
the bid is learned. The opponents decide with ``wizsim.player("heuristic")`` on the open table's
observation of their seat. The reward is the round score PettingZoo hands each agent.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import wizsim
from wizsim.envs import encoding
from wizsim.envs.pettingzoo import env as make_env


def hand_state(obs_tensor: np.ndarray) -> int:
    f = encoding.fields(obs_tensor)
    hand = f["hand"]
    trump = int(np.argmax(f["trump"]))  # 0..3 a suit, 4 none, 5 not named
    wizards = int(hand[52:56].sum())
    trumps = int(hand[trump * 13:(trump + 1) * 13].sum()) if trump < 4 else 0
    aces = sum(int(hand[s * 13 + 12]) for s in range(4) if s != trump)
    return min(wizards, 3) * 12 + min(trumps, 3) * 3 + min(aces, 2)


def play_round(env, seed, theta, rng, learn: bool, heuristic):
    """One round; returns (learner's score, (state, bid, legal bids, their probabilities), env steps).
    ``theta`` None: the heuristic bids for the learner too."""
    env.reset(seed=seed)
    taken = None
    score = 0.0
    steps = 0
    for agent in env.agent_iter():
        steps += 1
        obs, reward, term, trunc, _ = env.last()
        if agent == "player_0":
            score += reward
        if term or trunc:
            env.step(None)
            continue
        rd = env.round
        seat = rd.current_player
        view = rd.observation(seat)
        if agent == "player_0" and rd.phase == "bid" and theta is not None:
            s = hand_state(obs["observation"])
            legal = np.flatnonzero(obs["action_mask"]) - encoding.BID_ACTION
            logits = theta[s, legal]
            p = np.exp(logits - logits.max())
            p /= p.sum()
            bid = int(legal[rng.choice(len(legal), p=p)]) if learn else int(legal[np.argmax(p)])
            taken = (s, bid, legal, p)
            env.step(encoding.action_of("bid", bid))
        else:
            env.step(encoding.action_of(rd.phase, getattr(heuristic, rd.phase)(view)))
    return score, taken, steps


def evaluate(env, theta, seeds, heuristic, rng, uniform=False):
    t = np.zeros_like(theta) if uniform and theta is not None else theta
    scores = []
    for seed in seeds:
        score, _, _ = play_round(env, int(seed), t, rng, learn=uniform, heuristic=heuristic)
        scores.append(score)
    return float(np.mean(scores))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--r", type=int, default=3)
    ap.add_argument("--eval", type=int, default=600, help="rounds in each evaluation (the same deals)")
    args = ap.parse_args()
    env = make_env(players=4, r=args.r)
    heuristic = wizsim.player("heuristic", seed=0)
    rng = np.random.default_rng(0)
    theta = np.zeros((48, encoding.MAX_ROUND + 1))
    baseline = np.zeros(48)
    eval_seeds = np.arange(10**6, 10**6 + args.eval)

    before = evaluate(env, theta, eval_seeds, heuristic, rng, uniform=True)
    t0, rounds, steps, total = time.perf_counter(), 0, 0, 0.0
    while time.perf_counter() - t0 < args.seconds:
        score, (s, bid, legal, p), n = play_round(env, int(rng.integers(10**6)), theta, rng, True, heuristic)
        steps += n
        total += score
        advantage = score - baseline[s]
        baseline[s] += 0.05 * advantage
        grad = -p
        grad[np.flatnonzero(legal == bid)[0]] += 1.0
        theta[s, legal] += 0.01 * advantage * grad
        rounds += 1
    trained = time.perf_counter() - t0
    after = evaluate(env, theta, eval_seeds, heuristic, rng)
    heuristic_bids = evaluate(env, None, eval_seeds, heuristic, rng)
    print(f"trained on {rounds:,} rounds (episodes) in {trained:.0f} s: {steps:,} env steps, {steps / trained:,.0f} "
          f"steps/s, mean reward {total / max(rounds, 1):+.2f} a round (r={args.r}, seat 1 of 4, three heuristic "
          f"opponents)")
    print(f"mean round score of the learner's seat on {args.eval} fixed deals:")
    print(f"  uniform random bids (before): {before:+.1f}")
    print(f"  learned bids (after):         {after:+.1f}")
    print(f"  the heuristic's own bids:     {heuristic_bids:+.1f}   (for reference)")


if __name__ == "__main__":
    main()
