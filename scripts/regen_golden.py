"""Rewrite the golden round transcripts and tournament outputs in tests/golden/ from the current code.

    python scripts/regen_golden.py

Only this script changes tests/golden/. Run it when a change is meant to alter simulated results
(a new random draw scheme, a rules fix: bump ``config.RULES_VERSION`` then) and review the diff: it
shows exactly which hands, bids and cards changed. ``tests/test_golden.py`` checks that the kernels
and the plain-Python twin still reproduce every file. The ``tournament_*`` files are the ``wizsim
tournament`` text and ``--json`` output of small seeded tournaments; ``tests/test_tournament.py``
checks that a change to how a tournament is counted does not change what it reports.
"""

from __future__ import annotations

from pathlib import Path

from wizsim import simulate_rounds
from wizsim.sim.transcript import batch_transcript, dumps

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

# (players, r, hook, seed, round index): small and last rounds, every player count, the hook on and off
CASES = [
    (4, 3, False, 2026, 0),
    (4, 3, False, 2026, 1),
    (3, 20, False, 7, 0),
    (5, 6, True, 11, 3),
    (6, 1, True, 12, 0),
    (6, 10, False, 13, 5),
]


# wizsim tournament arguments: several rotations, the hook, a single deal (no interval), a short table
TOURNAMENT_CASES = {
    "tournament_p4_seed5": ["--players", "4", "--policies", "heuristic,random,random,random", "--games", "40",
                            "--seed", "5"],
    "tournament_p5_hook_seed0": ["--players", "5", "--policies", "heuristic,random,heuristic,random,random",
                                 "--games", "10", "--seed", "0", "--hook"],
    "tournament_p4_one_deal_seed1": ["--players", "4", "--policies", "heuristic,random,random,random", "--games",
                                     "4", "--seed", "1"],
    "tournament_p6_seed2": ["--players", "6", "--policies", "heuristic,random", "--games", "60", "--seed", "2"],
}


def tournament_outputs(args) -> tuple[str, str]:
    """The text and the --json output of ``wizsim tournament args``."""
    from click.testing import CliRunner

    from wizsim.cli import main

    runner = CliRunner()
    text, js = (runner.invoke(main, ["tournament", *args, *extra]) for extra in ([], ["--json"]))
    for out in (text, js):
        if out.exit_code != 0:
            raise SystemExit(out.output)
    return text.output, js.output


def first_index_with_wizard_turned_up(players, r, seed, limit=1000):
    batch = simulate_rounds(players, r, limit, seed=seed)
    hits = ((batch.turn_up >= 52) & (batch.turn_up < 56)).nonzero()[0]
    return int(hits[0])


def case_name(players, r, hook, seed, index):
    return f"round_p{players}_r{r}{'_hook' if hook else ''}_seed{seed}_i{index}.json"


def main():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    cases = list(CASES)
    # a round whose dealer names trump on a turned-up Wizard, and one with a Jester turned up
    cases.append((4, 5, False, 21, first_index_with_wizard_turned_up(4, 5, 21)))
    batch = simulate_rounds(4, 5, 1000, seed=22)
    cases.append((4, 5, False, 22, int(((batch.turn_up >= 56)).nonzero()[0][0])))
    for old in GOLDEN.glob("round_*.json"):
        old.unlink()
    for players, r, hook, seed, index in cases:
        batch = simulate_rounds(players, r, 1, seed=seed, hook=hook, first_index=index, trick_log=True)
        record = batch_transcript(batch, 0, hook)
        path = GOLDEN / case_name(players, r, hook, seed, index)
        path.write_text(dumps(record))
        print(path.relative_to(GOLDEN.parent.parent))
    for name, args in TOURNAMENT_CASES.items():
        text, js = tournament_outputs(args)
        for suffix, content in ((".txt", text), (".json", js)):
            path = GOLDEN / (name + suffix)
            path.write_text(content)
            print(path.relative_to(GOLDEN.parent.parent))


if __name__ == "__main__":
    main()
