"""Rewrite the golden round transcripts in tests/golden/ from the current kernels.

    python scripts/regen_golden.py

Only this script changes tests/golden/. Run it when a change is meant to alter simulated results
(a new random draw scheme, a rules fix: bump ``config.RULES_VERSION`` then) and review the diff: it
shows exactly which hands, bids and cards changed. ``tests/test_golden.py`` checks that the kernels
and the plain-Python twin still reproduce every file.
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


if __name__ == "__main__":
    main()
