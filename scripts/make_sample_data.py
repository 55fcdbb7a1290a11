"""Make the small sample dataset in ``data/sample/`` (a few hundred KB, committed to the repo).

Whole games, 4 players, random policy, seed 2026, with the trick log: every round size appears, so
the sample shows the layout and the game-mode columns (game_id, player, total). Re-running rewrites
it with the same bytes (the files depend only on the run; the manifest records when it was made).

    python scripts/make_sample_data.py
"""

from __future__ import annotations

from pathlib import Path

from wizsim.dataset.run import write_dataset

OUT = Path(__file__).resolve().parent.parent / "data" / "sample"
GAMES = 100


def main() -> None:
    rep = write_dataset(OUT, 4, games=GAMES, policies="random", seed=2026, trick_log=True, overwrite=True)
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"{OUT}: {rep.units} games, {rep.files_written} files, {size / 1e3:.0f} kB")
    print(f"re-create with: {rep.command}")


if __name__ == "__main__":
    main()
