"""The ``net`` policy's weights: one ``.npz`` file, checked when loaded, never half-trusted.

The file (``wizsim/data/net.npz`` in the package, ``scripts/train_net.py`` writes it) holds

- ``weights``: float32, the three networks' parameters flat in ``policies.net``'s layout (``N_WEIGHTS``);
- ``encoding_version``: the feature encoding they were trained on (``net.ENCODING_VERSION``);
- ``dims``: the layer sizes of the card, bid and trump networks, row by row (``layer_sizes``);
- ``sha256``: the hex digest of ``weights``' bytes;
- ``meta``: a JSON text saying how they were made (the command, seeds, data size, CPU time).

``net:weights=search`` plays a second file of the same form, ``wizsim/data/net-search.npz`` (the recipe
stopped before its self-valued round: the advisor's model of strong players), checked the same way.

A missing file, an unreadable or altered one (a flipped byte fails the zip's CRC or the digest), another
encoding version or other layer sizes raise one ``ConfigError`` naming the file: ``net`` never plays
with weights it cannot vouch for.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

import numpy as np

from wizsim.config import ConfigError
from wizsim.policies.net import ENCODING_VERSION, N_WEIGHTS, NETS

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "net.npz"
ENV_PATH = "WIZSIM_NET_WEIGHTS"  # another weights file (a re-trained net) instead of the package's
# ``net:weights=search``: the same networks trained on the search's own kind of values alone (the recipe's
# heuristic-valued rounds, beside weaker players): a weaker player, a closer model of search players
SEARCH_PATH = DEFAULT_PATH.with_name("net-search.npz")
ENV_SEARCH_PATH = "WIZSIM_NET_SEARCH_WEIGHTS"
_FILES = {"play": (ENV_PATH, DEFAULT_PATH), "search": (ENV_SEARCH_PATH, SEARCH_PATH)}  # net.WEIGHT_SETS


def weights_path(which: str = "play") -> Path:
    """The weights ``net`` plays with: ``$WIZSIM_NET_WEIGHTS`` when set, else the package's file; for
    ``which="search"`` (``net:weights=search``) ``$WIZSIM_NET_SEARCH_WEIGHTS``, else ``net-search.npz``."""
    env, default = _FILES[which]
    return Path(os.environ.get(env) or default)


def layer_sizes() -> np.ndarray:
    """(3, 4) int64: each network's (inputs, hidden 1, hidden 2, outputs)."""
    return np.array([(d_in, *hidden, d_out) for _, d_in, hidden, d_out in NETS], dtype=np.int64)


def digest(weights: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(weights, dtype=np.float32).tobytes()).hexdigest()


def save_weights(path, weights: np.ndarray, meta: dict) -> None:
    """Write ``weights`` (N_WEIGHTS,) with the encoding version, the layer sizes and their digest."""
    w = np.ascontiguousarray(weights, dtype=np.float32)
    if w.shape != (N_WEIGHTS,):
        raise ValueError(f"weights must have shape ({N_WEIGHTS},), got {w.shape}")
    with open(path, "wb") as f:
        np.savez_compressed(f, weights=w, encoding_version=np.int64(ENCODING_VERSION), dims=layer_sizes(),
                            sha256=np.array(digest(w)), meta=np.array(json.dumps(meta, sort_keys=True)))


def read_weights(path=None) -> tuple[np.ndarray, dict]:
    """The checked weights (N_WEIGHTS,) float64 and their ``meta`` from ``path`` (default: ``weights_path()``);
    ``ConfigError`` naming the file when they cannot be trusted."""
    path = Path(weights_path() if path is None else path)
    where = f"net policy weights {path}"
    if not path.is_file():
        raise ConfigError(f"{where}: file not found (re-make it with scripts/train_net.py)")
    try:
        with np.load(path, allow_pickle=False) as z:
            fields = {k: z[k] for k in ("weights", "encoding_version", "dims", "sha256", "meta")}
    except KeyError as err:
        raise ConfigError(f"{where}: not a net weights file (missing {err})") from None
    except Exception as err:  # a bad zip, a CRC mismatch, a truncated array: the file is damaged
        raise ConfigError(f"{where}: unreadable or corrupt ({type(err).__name__}: {err})") from None
    version = int(fields["encoding_version"])
    if version != ENCODING_VERSION:
        raise ConfigError(f"{where}: trained on feature encoding {version}, this wizsim reads encoding "
                          f"{ENCODING_VERSION} (re-train with scripts/train_net.py)")
    if fields["dims"].shape != layer_sizes().shape or not np.array_equal(fields["dims"], layer_sizes()):
        raise ConfigError(f"{where}: layer sizes {fields['dims'].tolist()} differ from this wizsim's "
                          f"{layer_sizes().tolist()}")
    w = fields["weights"]
    if w.dtype != np.float32 or w.shape != (N_WEIGHTS,) or digest(w) != str(fields["sha256"]):
        raise ConfigError(f"{where}: corrupt (the weights do not match their sha256 checksum)")
    if not np.all(np.isfinite(w)):
        raise ConfigError(f"{where}: corrupt (weights that are not finite)")
    return w.astype(np.float64), json.loads(str(fields["meta"]))


@functools.cache
def _weights_at(path: Path, stamp: tuple) -> np.ndarray:
    return read_weights(path)[0]


def net_table(which: str = "play") -> np.ndarray:
    """The policies' shared table for a table seating ``net``: the heuristic's values, then the checked
    weights of ``weights_path(which)`` (``net.NET_OFFSET``; read once while the file stays the same)."""
    from wizsim.policies.heuristic_values import VALUES  # the registry's "heuristic_values" table, read here

    path = weights_path(which)
    try:
        st = path.stat()
        stamp = (st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = ()
    return np.concatenate([np.array(VALUES, dtype=np.float64), _weights_at(path, stamp)])


def weights_digest(which: str = "play") -> str:
    """The sha256 of the weights ``net_table`` plays (``weights_path()``, read once while the file stays the
    same): part of the identity of every built-in that plays them (``registry.seat_identity``), so that a
    dataset resumed with other weights is refused rather than mixed."""
    return digest(net_table(which)[-N_WEIGHTS:].astype(np.float32))
