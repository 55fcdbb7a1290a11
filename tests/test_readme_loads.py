"""The dataset guide's loads (docs/guide/datasets.md: wizsim, pyarrow, DuckDB, Polars) run as written on
data/sample and give the same numbers: the analyst's first contact with the data must be true."""

import re
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent


def _blocks():
    text = (ROOT / "docs" / "guide" / "datasets.md").read_text()
    section = text[text.index("Load it in pandas"):text.index("## On a Dask cluster")]
    return re.findall(r"```(\w+)\n(.*?)```", section, flags=re.S)


def _by_bid(lang, code) -> pd.DataFrame:
    if lang == "sql":
        out = duckdb.sql(code).df()
    else:
        ns: dict = {}
        exec(compile(code, "docs/guide/datasets.md", "exec"), ns)
        out = ns["by_bid"]
        if not isinstance(out, pd.DataFrame):  # a Polars frame
            out = out.to_pandas()
    if "bid" in out.columns:
        out = out.set_index("bid")
    out.index = out.index.astype(np.int64)
    return out[["tricks", "score"]].astype(float).sort_index()


def test_every_readme_load_runs_and_they_agree(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = _blocks()
    assert [lang for lang, _ in blocks] == ["python", "python", "sql", "python"]
    results = [_by_bid(lang, code) for lang, code in blocks]
    first = results[0]
    assert len(first) > 3 and set(first.index) <= set(range(11))
    for other in results[1:]:
        pd.testing.assert_frame_equal(other, first, check_names=False)
