"""OpenSpiel's IS-MCTS against wizsim's heuristic in the OpenSpiel game ``python_wizard``
(``pip install "wizsim[rl]"``): one IS-MCTS seat and three heuristic seats, the IS-MCTS seat rotating over
the table, and the same deals played by four heuristic seats for a baseline.

    python scripts/openspiel_ismcts.py [--games 24] [--r 3] [--simulations 200]

IS-MCTS (``open_spiel.python.algorithms.ismcts``) samples worlds through the game's
``resample_from_infostate`` (wizsim's world sampler) and evaluates leaves with random roll-outs. The
heuristic seats decide with ``wizsim.player("heuristic")`` on the open table's observation of their seat.
Prints the mean round score of the IS-MCTS seat, of the heuristic in that same seat on the same deals, and
of the heuristic seats at the IS-MCTS table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import wizsim
import wizsim.envs.openspiel  # noqa: F401  (registers python_wizard)
from wizsim.envs.encoding import action_of


def play(game, deal_rng_seed: int, bots: dict, heuristic) -> list[float]:
    """One round: chance from ``deal_rng_seed`` (so a deal replays), player p by ``bots[p]`` or the heuristic."""
    deal_rng = np.random.default_rng(deal_rng_seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]  # uniform
            state.apply_action(int(outcomes[deal_rng.integers(len(outcomes))]))
        elif state.current_player() in bots:
            state.apply_action(int(bots[state.current_player()].step(state)))
        else:
            rd = state.round
            view = rd.observation(rd.current_player)
            state.apply_action(action_of(rd.phase, getattr(heuristic, rd.phase)(view)))
    return state.returns()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--r", type=int, default=3)
    ap.add_argument("--simulations", type=int, default=200)
    args = ap.parse_args()
    game = pyspiel.load_game("python_wizard", {"players": args.players, "r": args.r})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(2, rs), uct_c=40.0, max_simulations=args.simulations,
                           random_state=rs)
    heuristic = wizsim.player("heuristic", seed=0)
    ismcts_scores, baseline_scores, others = [], [], []
    t0 = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        returns = play(game, g, {seat: bot}, heuristic)
        ismcts_scores.append(returns[seat])
        others.extend(x for p, x in enumerate(returns) if p != seat)
        baseline_scores.append(play(game, g, {}, heuristic)[seat])
    print(f"{args.games} rounds of {args.r} cards, {args.players} players, IS-MCTS with {args.simulations} simulations "
          f"a decision ({time.perf_counter() - t0:.0f} s)")
    print(f"  IS-MCTS seat:                       mean {np.mean(ismcts_scores):+.1f}")
    print(f"  heuristic in that seat, same deals: mean {np.mean(baseline_scores):+.1f}")
    print(f"  heuristic seats at the IS-MCTS table: mean {np.mean(others):+.1f}")


if __name__ == "__main__":
    main()
