"""The layers hold: every module's imports (read with ``ast``, those inside functions too) against the layer
order README.md states in its "How the code is laid out" section, in a sentence of the form

    Layers, each importing only from the ones before it: **a → b / c → ...**

Each name is a top-level module or package of ``wizsim`` (``cards`` is ``wizsim/cards.py``, ``sim`` the
package ``wizsim/sim/``); ``a / b`` share a layer and may not import each other. A module may import its
own package and the layers before its own; nothing may import a later layer (an import that climbs), and
no modules may import each other round in a circle.

``KNOWN`` lists what still breaks the rule, each with the reason; the test fails on anything else that
climbs or circles, and on a listed exception that no longer happens (so the list only shrinks).
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"  # the package is src/wizsim
PACKAGE = SRC / "wizsim"

# The order this test was written against; README.md must state the same sentence (the lead keeps it there).
ORDER = ("_notice / _version → _numba / _signals / _startup / errors / identity / stats → cards → bits / config / _dask → "
         "rules → deal → policies → table → sim → jit / advisor / envs / io → dataset / tournament / record → "
         "render / web / warmup → cli → __main__ / __init__")
SENTENCE = f"Layers, each importing only from the ones before it: **{ORDER}**."

# (importing unit, imported unit): why it still climbs. Each is a task left, not a licence.
KNOWN_CLIMBS: dict[tuple[str, str], str] = {}
# Circles of modules (each set of modules that import each other round), and why they remain.
KNOWN_CIRCLES: dict[frozenset[str], str] = {}


def stated_order() -> list[list[str]] | None:
    """The layers README.md states, or None when it states none."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"Layers, each importing only from the ones before it:\s*\*\*(.+?)\*\*", text, re.S)
    if m is None:
        return None
    return [[name.strip() for name in layer.split("/")] for layer in " ".join(m.group(1).split()).split("→")]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def unit(module: str) -> str:
    """The top-level module or package of a module (``wizsim`` itself is ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def resolve(name: str) -> str | None:
    """The module a dotted import name is (``wizsim.a.b`` may name a module or a name in one)."""
    parts = name.split(".")
    while parts:
        path = SRC.joinpath(*parts)
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            return ".".join(parts)
        parts = parts[:-1]
    return None


def imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports (anywhere in it)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        me = module_name(path)
        package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_bytes())):
            names = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - (node.level - 1)] + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name == "wizsim" or name.startswith("wizsim."):
                    target = resolve(name)
                    if target and target != me:
                        found.add(target)
        out[me] = found
    return out


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of two or more modules (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_readme_states_every_layer():
    layers = stated_order()
    hint = f"README.md's layout section must hold the sentence: {SENTENCE}"
    assert layers is not None, hint
    named = [name for layer in layers for name in layer]
    units = {unit(m) for m in imports()}
    assert not units - set(named), f"layers not stated: {sorted(units - set(named))}. {hint}"
    assert layers == [[n.strip() for n in layer.split("/")] for layer in ORDER.split("→")], hint


def test_no_import_climbs():
    layer_of = {name: i for i, layer in enumerate(stated_order() or []) for name in layer}
    if not {unit(m) for m in imports()} <= set(layer_of):  # the README test says why; this test's copy meanwhile
        layer_of = {name.strip(): i for i, layer in enumerate(ORDER.split("→")) for name in layer.split("/")}
    climbs = {}
    for module, targets in imports().items():
        for target in targets:
            a, b = unit(module), unit(target)
            if a != b and layer_of.get(b, -1) >= layer_of.get(a, -1):
                climbs.setdefault((a, b), []).append(f"{module} -> {target}")
    new = {edge: where for edge, where in climbs.items() if edge not in KNOWN_CLIMBS}
    assert not new, f"imports that climb the layers ({ORDER}): {new}"
    gone = set(KNOWN_CLIMBS) - set(climbs)
    assert not gone, f"no longer climbs, take it off KNOWN_CLIMBS: {sorted(gone)}"


def test_no_import_circles():
    found = circles(imports())
    new = [sorted(group) for group in found if group not in KNOWN_CIRCLES]
    assert not new, f"modules that import each other round: {new}"
    gone = set(KNOWN_CIRCLES) - set(found)
    assert not gone, f"no longer a circle, take it off KNOWN_CIRCLES: {[sorted(g) for g in gone]}"
