"""The batched environment at work: ``VectorEnv`` with the learner at a table of three ``heuristic`` seats
played inside the kernel, a tabular bid policy learned by REINFORCE over thousands of rounds at once, and
the speed of it all.

    python scripts/vector_env_example.py [--n 4096] [--seconds 10] [--r 5]

The learner bids from a table indexed by a summary of its hand (Wizards, trumps, off-suit aces, read off
the observation tensor for the whole batch at once, in NumPy) and plays a random legal card
(``env.sample_actions()``); so only the bid is learned, and the score it gets is a random card player's.
First the speed of self-play with random actions (every seat the learner's), then the training run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wizsim.envs import encoding
from wizsim.envs.vector import VectorEnv

BID_PHASE = encoding.PHASE + 1


def hand_states(obs: np.ndarray) -> np.ndarray:
    """The hand summary of every row: (n,) int in 0..47."""
    hand = obs[:, encoding.HAND:encoding.HAND + 60].astype(np.int64)
    trump = np.argmax(obs[:, encoding.TRUMP:encoding.TRUMP + 6], axis=1)
    suits = hand[:, :52].reshape(-1, 4, 13)
    rows = np.arange(len(obs))
    has_trump = trump < 4
    trumps = np.where(has_trump, suits[rows, np.minimum(trump, 3)].sum(axis=1), 0)
    aces = suits[:, :, 12].sum(axis=1) - np.where(has_trump, suits[rows, np.minimum(trump, 3), 12], 0)
    wizards = hand[:, 52:56].sum(axis=1)
    return np.minimum(wizards, 3) * 12 + np.minimum(trumps, 3) * 3 + np.minimum(aces, 2)


def speed(n: int, r: int, seconds: float) -> None:
    env = VectorEnv(n, 4, r, seed=1)
    env.reset()
    env.step(env.sample_actions())
    t, c, steps = time.perf_counter(), time.thread_time(), 0
    while time.perf_counter() - t < seconds:
        env.step(env.sample_actions())
        steps += n
    print(f"self-play, random legal actions, {n} rounds at once: {steps / (time.perf_counter() - t):,.0f} actions/s "
          f"({steps / (time.thread_time() - c):,.0f}/s of this thread's CPU time)")


def train(n: int, r: int, seconds: float, learn: bool, theta: np.ndarray, rng) -> float:
    """Run the batch for ``seconds`` with bids from softmax(theta); returns the learner's mean round score."""
    env = VectorEnv(n, 4, r, seed=int(rng.integers(2**40)), opponents="heuristic")
    obs, masks = env.reset()
    baseline = np.zeros(len(theta))
    pending = np.full((n, 2), -1)  # (hand state, bid) of each row's bid this round
    total, rounds, actions = 0.0, 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        acts = env.sample_actions()
        bidding = obs[:, BID_PHASE] == 1
        if bidding.any():
            rows = np.flatnonzero(bidding)
            s = hand_states(obs[rows])
            legal = masks[rows, encoding.BID_ACTION:encoding.BID_ACTION + r + 1].astype(bool)
            logits = np.where(legal, theta[s, :r + 1], -np.inf)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            bids = (p.cumsum(axis=1) > rng.random((len(rows), 1))).argmax(axis=1)
            acts[rows] = encoding.BID_ACTION + bids
            pending[rows] = np.stack([s, bids], axis=1)
        obs, masks, rewards, dones = env.step(acts)
        actions += n
        if dones.any():
            rows = np.flatnonzero(dones)
            total += rewards[rows].sum()
            rounds += len(rows)
            if learn:
                s, b = pending[rows, 0], pending[rows, 1]
                adv = rewards[rows] - baseline[s]
                np.add.at(baseline, s, 0.01 * adv)
                logits = theta[s, :r + 1]
                p = np.exp(logits - logits.max(axis=1, keepdims=True))
                p /= p.sum(axis=1, keepdims=True)
                grad = -p
                grad[np.arange(len(rows)), b] += 1.0
                np.add.at(theta[:, :r + 1], s, 0.002 * adv[:, None] * grad)
    mode = "training" if learn else "evaluation"
    print(f"  {mode}: {rounds:,} rounds, {actions / (time.perf_counter() - t0):,.0f} learner actions/s "
          f"(3 heuristic seats playing inside the kernel), mean score {total / max(rounds, 1):+.2f}")
    return total / max(rounds, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--r", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    speed(args.n, args.r, 2.0)
    rng = np.random.default_rng(0)
    theta = np.zeros((48, encoding.MAX_ROUND + 1))
    print(f"learner in one seat (rotating) at a table of three heuristic players, {args.r} cards, random card play:")
    before = train(args.n, args.r, 2.0, False, theta.copy(), rng)
    train(args.n, args.r, args.seconds, True, theta, rng)
    after = train(args.n, args.r, 2.0, False, theta, rng)
    print(f"mean round score with uniform random bids (before) {before:+.2f}, with the learned bids (after) {after:+.2f}")


if __name__ == "__main__":
    main()
