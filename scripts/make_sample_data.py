"""Make the small sample dataset in ``data/sample/`` (a few hundred KB, committed to the repo).

Whole games, 4 players, random policy, seed 2026, with the trick log: every round size appears, so
the sample shows the layout and the game-mode columns (game_id, player, total). The files depend
only on the run; the run file records when it was made. So when the folder already holds exactly
the bytes this wizsim would write (and a complete run file whose digests match them), nothing is
touched, the run file included; otherwise wizsim's own files there are replaced.

    python scripts/make_sample_data.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from wizsim.dataset.chunk import encode_chunk
from wizsim.dataset.folder import MANIFEST, remove_owned, survey
from wizsim.dataset.run import write_run
from wizsim.dataset.spec import make_spec
from wizsim.dataset.verify import digest

OUT = Path(__file__).resolve().parent.parent / "data" / "sample"
GAMES = 100


def sample_spec():
    return make_spec(4, games=GAMES, policies="random", seed=2026, trick_log=True)


def is_current(out: Path, spec=None) -> bool:
    """Whether ``out`` holds exactly the sample this wizsim writes: the same files with the same bytes,
    and a complete run file of this run recording their digests."""
    spec = spec or sample_spec()
    want = {rel: bytes(data) for k in range(spec.n_chunks) for rel, data in encode_chunk(spec, k, threads=1).items()}
    have = {p.relative_to(out).as_posix() for p in out.rglob("*.parquet")} if out.is_dir() else set()
    if have != set(want) or any((out / rel).read_bytes() != data for rel, data in want.items()):
        return False
    try:
        run = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    return (run.get("run_id") == spec.run_id and run.get("status") == "complete"
            and run.get("digests") == {rel: digest(data) for rel, data in want.items()})


def main(out: Path = OUT) -> None:
    spec = sample_spec()
    if is_current(out, spec):
        print(f"{out}: already the current sample, left as it is")
        return
    if out.is_dir():
        remove_owned(survey(out))  # only wizsim's own files (survey refuses anything else)
    rep = write_run(out, spec)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"{out}: {rep.units} games, {rep.files_written} files, {size / 1e3:.0f} kB")
    print(f"re-create with: {rep.command}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
