"""Who played: each seat's player recorded with what it is, not only its name.

A player's *identity* is a small JSON-ready dict, the same in a dataset's run file and Parquet
metadata (``wizsim.run``: ``identities``, one per entry of ``policies``), a tournament's JSON and a
game record:

- a built-in policy: ``{"player": "heuristic", "kind": "builtin", "wizsim": "0.1.0"}`` (its canonical
  name and the wizsim version, which fix its play);
- ``FILE.py:NAME``: ``{"player": ..., "kind": "file", "sha256": ...}``, the digest of the file's bytes
  as they were executed (the file is read once, hashed, and its code compiled from those bytes);
- ``package.module:NAME``: ``kind "module"``, the digest of the module's files (every ``.py`` file of
  its top-level package, by relative path, or the module's one file);
- a jitted player given as an object (``wizsim.jit_player``): ``kind "jitted"``, the digest of its
  three functions' Python source;
- any other Python object: ``kind "object"`` and ``sha256`` null (nothing to digest: its behaviour lives
  in a running process), with a ``note`` saying so.

A ``sha256`` of null means *unknown*: a resume cannot tell whether the player that wrote the complete
chunks is the one seated now, and refuses unless told (``allow_unverified_players``). Digests are
SHA-256, the first ``SHORT_HEX`` hex digits.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from pathlib import Path

from wizsim._version import __version__

SHORT_HEX = 16
NO_FILE = "a Python object: no file to digest, so a resume cannot verify it"


def wizsim_version() -> str:
    return __version__  # wizsim/_version.py: the tree's own version, installed or not


def short_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:SHORT_HEX]


def builtin_identity(name: str) -> dict:
    return {"player": name, "kind": "builtin", "wizsim": wizsim_version()}


def file_identity(name: str, source: bytes) -> dict:
    return {"player": name, "kind": "file", "sha256": short_digest(source)}


def _package_files(module) -> list[tuple[str, Path]]:
    """The source files a module player's behaviour comes from: its top-level package's ``.py`` files
    (relative path, path), or the module's own file; [] when it has none (a namespace, a C extension)."""
    top = sys.modules.get(module.__name__.split(".")[0], module)
    roots = [Path(p) for p in getattr(top, "__path__", None) or []]
    if roots:
        return sorted((f"{i}/{p.relative_to(root).as_posix()}", p) for i, root in enumerate(roots)
                      for p in root.rglob("*.py") if p.is_file())
    path = getattr(module, "__file__", None)
    return [(Path(path).name, Path(path))] if path and path.endswith(".py") and Path(path).is_file() else []


def module_identity(name: str, module) -> dict:
    files = _package_files(module)
    digest = None
    if files:
        h = hashlib.sha256()
        for rel, path in files:
            h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
        digest = h.hexdigest()[:SHORT_HEX]
    return {"player": name, "kind": "module", "sha256": digest}


def jitted_identity(name: str, functions) -> dict:
    """A jitted player's three functions (trump, bid, card), by their Python source."""
    try:
        source = "\0".join(inspect.getsource(f.py_func) for f in functions)
    except (OSError, TypeError):  # defined where no source is kept (an interactive prompt)
        return {"player": name, "kind": "jitted", "sha256": None, "note": "its functions' source is not available"}
    return {"player": name, "kind": "jitted", "sha256": short_digest(source.encode())}


def object_identity(name: str) -> dict:
    return {"player": name, "kind": "object", "sha256": None, "note": NO_FILE}


def is_verified(identity: dict) -> bool:
    """Whether the identity says what the player is (a built-in, or a digest)."""
    return identity.get("kind") == "builtin" or bool(identity.get("sha256"))


def describe(identity) -> str:
    """The identity in a few words, for messages ("its file, sha256 1a2b...")."""
    if not isinstance(identity, dict):
        return "not recorded (an older wizsim wrote it)"
    kind = identity.get("kind")
    if kind == "builtin":
        return f"wizsim {identity.get('wizsim')}'s built-in policy"
    what = {"file": "its file", "module": "its module's files", "jitted": "its functions' source",
            "weights": "its weights"}.get(
        kind, "a Python object with no file")
    digest = identity.get("sha256")
    return f"{what}, sha256 {digest}" if digest else f"{what}, unverifiable"


def first_change(old, new, seat_word: str = "seat") -> str | None:
    """The first entry (a seat, or a player in game mode) whose identity differs between two lists, in
    words: "seat 1: 'p.py:P' changed: its file had sha256 1a.., now 9f.."; None if none does."""
    old, new = list(old or []), list(new or [])
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a == b:
            continue
        name_a, name_b = (x.get("player") if isinstance(x, dict) else None for x in (a, b))
        where = f"{seat_word} {i + 1}"
        if name_a != name_b or not isinstance(a, dict) or not isinstance(b, dict):
            return f"{where} was {name_a!r} ({describe(a)}), now {name_b!r} ({describe(b)})"
        if a.get("kind") == b.get("kind") and a.get("sha256") and b.get("sha256"):
            what = describe(b).split(",")[0]
            return f"{where}: {name_b!r} changed: {what} had sha256 {a['sha256']}, now {b['sha256']}"
        return f"{where}: {name_b!r} changed: it was {describe(a)}, now {describe(b)}"
    return None


def first_unverified(identities, seat_word: str = "seat") -> str | None:
    """The first entry whose player cannot be verified, in words; None if every one can."""
    for i, ident in enumerate(identities):
        if not is_verified(ident):
            return f"{seat_word} {i + 1}: {ident.get('player')!r} is {describe(ident)}"
    return None
