"""The README, the changelog and every page of docs/ point only at files the repository ships (issue 10
item 9: the README sent users to RULES.md and CONTRACT.md, which are not in it); docs/rules.md's examples
run as written."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "experiments" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# a file reference: a relative path with a file extension, in backticks or a Markdown link
_REF = re.compile(r"(?:`|\]\()([\w./-]+\.(?:md|py|csv|json|toml|parquet))(?:`|\))")


def _shipped() -> set[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    files = set(out.stdout.split()) if out.returncode == 0 else set()
    return files | {str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts}


def test_docs_point_only_at_files_in_the_repository():
    shipped = _shipped()
    missing = []
    for doc in DOCS:
        for ref in _REF.findall(doc.read_text()):
            if "*" in ref or "NNN" in ref or ref.startswith(("runs/", "DIR/", "d/")):  # patterns, examples
                continue
            if ref.startswith("benchmarks/raw/"):  # raw runs: made by the command the page gives, not committed
                continue
            candidates = {ref, str((doc.parent / ref).resolve().relative_to(ROOT)) if (doc.parent / ref).resolve()
                          .is_relative_to(ROOT) else ref}
            if not candidates & shipped and not any(f.endswith("/" + ref) for f in shipped):
                missing.append(f"{doc.relative_to(ROOT)}: {ref}")
    assert not missing, missing
    for doc in DOCS:
        assert "RULES.md" not in doc.read_text() and "CONTRACT.md" not in doc.read_text(), doc


def test_rules_page_examples_run_as_written():
    text = (ROOT / "docs" / "rules.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    import wizsim

    checked = 0
    for line in block.strip().splitlines():
        if line.startswith("import "):
            continue
        code, _, want = line.partition("#")
        got = eval(code.strip(), {"wizsim": wizsim})  # noqa: S307 - our own documentation
        want = want.strip()
        if want.startswith("array("):
            assert got.tolist() == [int(x) for x in re.search(r"\[(.*?)\]", want).group(1).split(",")]
        elif want == "every card":
            assert wizsim.format_cards(got) == "AS,3H,W,J"
        else:
            assert str(got) == want.split(":")[0].strip()
        checked += 1
    assert checked == 4
