"""The users' players seated in this process, and what every player object shares.

A player is anything with ``trump(obs)``, ``bid(obs)`` and ``card(obs)`` (``is_player``). A user's player
(an object, or a ``FILE.py:NAME`` / ``package.module:NAME`` spec that loads one) is seated by
``register_player`` under its canonical name in ``USER_PLAYERS``, with what it is (``wizsim.identity``) in
``USER_IDENTITIES``; ``ask`` puts one of its decisions to it, within a time limit when one is set.
``Seated`` is the base of wizsim's own player objects (``table.players``: a built-in policy's ``Player``,
a user's ``JitPlayer``): a random stream of its own and the three decisions answered by ``decide``.

The registry (``policies.registry``) reads this table; nothing here reads the registry or the open table.
"""

from __future__ import annotations

import importlib
import importlib.util
import queue
import secrets
import sys
import threading
from pathlib import Path

import numpy as np

from wizsim.config import ConfigError, PlayerError, check_seed
from wizsim.deal.kernels import PLAY_STREAM, stream_key
from wizsim.identity import file_identity, jitted_identity, module_identity, object_identity

DECISIONS = ("trump", "bid", "card")

# Users' players seated in this process, by canonical name: a spec ``FILE.py:NAME`` /
# ``package.module:NAME`` names itself, an object its ``name`` or ``module:Class``.
USER_PLAYERS: dict[str, object] = {}
# What each of them is (``wizsim.identity``): recorded when it is seated, beside it.
USER_IDENTITIES: dict[str, dict] = {}
USER_PLAYER_COST = 400.0  # a Python decision, in heuristic card plays (tens of microseconds)


def is_user_player(name) -> bool:
    return isinstance(name, str) and name in USER_PLAYERS


def jit_functions(name):
    """The ``(trump, bid, card)`` jitted functions of the user's jitted player seated as ``name``
    (``wizsim.jit_player``), else None."""
    return getattr(USER_PLAYERS.get(name), "jit_functions", None) if isinstance(name, str) else None


def needs_open_table(names) -> bool:
    """Whether these seats must play through the open table's Python loop rather than the kernels: a
    user's Python player sits there, or more than one distinct jitted player (the kernels take one)."""
    python = [n for n in names if is_user_player(n) and jit_functions(n) is None]
    jitted = {n for n in names if jit_functions(n) is not None}
    return bool(python) or len(jitted) > 1


class Seated:
    """What wizsim's player objects share (``table.players``): a ``name``, a random stream of their own
    (seeded, or fresh) and the three decisions answered by ``decide(obs, rng)``. A jitted player's
    ``jit_functions`` are its (trump, bid, card); a built-in policy's player has none."""

    name: str
    jit_functions = None

    def _stream(self, seed: int | None) -> None:
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        self._rng = np.array([stream_key(np.uint64(seed), np.int64(0), PLAY_STREAM)], np.uint64)

    def trump(self, obs) -> int:
        return self.decide(obs, self._rng)

    def bid(self, obs) -> int:
        return self.decide(obs, self._rng)

    def card(self, obs) -> int:
        return self.decide(obs, self._rng)


def is_player(obj) -> bool:
    return not isinstance(obj, str) and all(callable(getattr(obj, d, None)) for d in DECISIONS)


def player_name(obj) -> str:
    """A player's canonical name: a built-in's policy name, else its ``name`` attribute, else
    ``module:Class``."""
    if isinstance(obj, Seated):
        return obj.name
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name.strip():
        return name.strip()
    cls = type(obj)
    return f"{cls.__module__}:{cls.__qualname__}"


def register_player(item, builtins) -> str:
    """Seat a user's player (an object, or a ``FILE.py:NAME`` / ``package.module:NAME`` spec that loads one)
    for this process, with its identity (``wizsim.identity``); returns its canonical name (a spec names
    itself; an object its ``name`` attribute, else ``module:Class``). A later player under the same name
    takes the earlier one's place. A built-in policy's player object gives its policy's name; an object's
    name may not be one of ``builtins`` (the built-in policies' names, ``registry.POLICIES``)."""
    if isinstance(item, str):
        name = item.strip()
        if name not in USER_PLAYERS or _file_changed(name, USER_IDENTITIES.get(name)):
            USER_PLAYERS[name], USER_IDENTITIES[name] = load_player_identity(name)
        return name
    if isinstance(item, Seated) and item.jit_functions is None:
        return item.name  # a built-in policy's player (table.players.Player)
    if isinstance(item, Seated):
        USER_PLAYERS[item.name] = item
        USER_IDENTITIES[item.name] = jitted_identity(item.name, item.jit_functions)
        return item.name
    if not is_player(item):
        raise ConfigError(f"a player needs methods trump(obs), bid(obs) and card(obs); {type(item).__name__} "
                          f"has not all three")
    name = player_name(item)
    if name.split(":")[0].strip().lower() in builtins:
        raise ConfigError(f"a player's name must not be a built-in policy's, got {name!r}")
    USER_PLAYERS[name] = item
    USER_IDENTITIES[name] = object_identity(name)
    return name


def _file_changed(spec: str, identity: dict | None) -> bool:
    """Whether the file of a ``FILE.py:NAME`` player seated earlier in this process now holds other bytes
    (edited, or another folder's file of the same name): it is then loaded again, so that what plays
    is what the run records."""
    where = spec.rpartition(":")[0]
    if not where.endswith(".py") or not isinstance(identity, dict) or identity.get("kind") != "file":
        return False
    try:
        return file_identity(spec, Path(where).read_bytes()) != identity
    except OSError:
        return False  # gone since: the loaded player plays on, as recorded


def describe_failure(err: BaseException) -> str:
    """An exception in a few words: its type and, when it says one, its message."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


# FILE.py players' modules by resolved path: (module, the identity of the bytes it was compiled from)
_FILE_MODULES: dict[str, tuple[object, str]] = {}


def _exec_file(path: Path):
    """The module of a player's file, compiled from the very bytes whose digest identifies it (so the
    identity is the code that runs, even if the file changes while it loads); once per process."""
    name = f"wizsim_user_{abs(hash(str(path)))}"
    source = path.read_bytes()
    if name in sys.modules and _FILE_MODULES.get(str(path), (None, None))[1] == source:
        return _FILE_MODULES[str(path)]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)  # a half-run module must not pass for a loaded one next time
        raise
    _FILE_MODULES[str(path)] = (module, source)
    return module, source


def load_player(spec: str):
    """A user's player from ``path/to/file.py:Name`` or ``package.module:Name``: ``Name`` is a class
    (called with no arguments) or an object with the three methods. ``PlayerError`` (a ``ConfigError``)
    naming the spec otherwise, a failure of the user's code (``SystemExit`` included) as its cause."""
    return load_player_identity(spec)[0]


def load_player_identity(spec: str):
    """``load_player(spec)`` and the player's identity (``wizsim.identity``)."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise ConfigError(f"a player must be FILE.py:NAME or package.module:NAME, got {spec!r}")
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise ConfigError(f"player {spec!r}: no file {where}")
    try:
        if where.endswith(".py"):
            module, source = _exec_file(path)
            identity = file_identity(spec, source)
        else:
            module = importlib.import_module(where)
            identity = module_identity(spec, module)
    except KeyboardInterrupt:  # a real Ctrl-C stops the command as anywhere else
        raise
    except BaseException as err:  # the user's module failed to import (SystemExit too): say which and why
        raise PlayerError(f"player {spec!r}: cannot load {where}: {describe_failure(err)}") from err
    obj = getattr(module, attr, None)
    if obj is None:
        raise ConfigError(f"player {spec!r}: {where} has no {attr}")
    if isinstance(obj, type):
        try:
            obj = obj()
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            raise PlayerError(f"player {spec!r}: {attr}() failed: {describe_failure(err)}") from err
    if not is_player(obj):
        raise ConfigError(f"player {spec!r}: {attr} needs methods trump(obs), bid(obs) and card(obs)")
    return obj, identity


class DecisionTimeout(TimeoutError):
    """A user's decision ran past its time limit (``ask``); a TimeoutError the player raises is not one."""


class _DecisionThread:
    """A daemon thread that makes a user's decisions for one calling thread, so that the caller can stop
    waiting after a time limit.

    Why a thread and not an alarm: ``signal.alarm``/``setitimer`` work only in the main thread, and the
    command runs its work in a worker thread (``cli.run_interruptibly``, a Dask worker's threads); an
    alarm would also replace the command's own signal handling. A thread serves any caller. A decision
    past its limit is abandoned, not killed (Python cannot stop a thread): that thread stays blocked
    in the player's code, as a daemon that does not keep the process alive, and a new one serves the
    next decisions. The cost is a hand-over per decision (tens of microseconds), paid only with a limit.
    """

    def __init__(self):
        self._jobs = None

    def _start(self):
        jobs = queue.SimpleQueue()

        def serve():
            while True:
                fn, obs, box, done = jobs.get()
                try:
                    box["result"] = fn(obs)
                except BaseException as err:  # handed to the caller, which decides what it means
                    box["error"] = err
                finally:
                    done.set()

        threading.Thread(target=serve, name="wizsim-decision", daemon=True).start()
        self._jobs = jobs

    def run(self, fn, obs, timeout: float):
        """``fn(obs)``; ``DecisionTimeout`` after ``timeout`` seconds (the thread is then abandoned)."""
        if self._jobs is None:
            self._start()
        box, done = {}, threading.Event()
        self._jobs.put((fn, obs, box, done))
        if not done.wait(timeout):
            self._jobs = None  # the old thread is stuck in the player's code: leave it there
            raise DecisionTimeout(f"no answer within {timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["result"]


_DECIDERS = threading.local()


def check_timeout(decision_timeout):
    """``decision_timeout``: None (no limit) or seconds > 0, else a ``ConfigError`` naming it."""
    if decision_timeout is None:
        return None
    if isinstance(decision_timeout, bool) or not isinstance(decision_timeout, (int, float, np.integer, np.floating)) \
            or not 0 < float(decision_timeout) < float("inf"):
        raise ConfigError(f"decision_timeout must be a number of seconds above 0 (or None: no limit), got "
                          f"{decision_timeout!r:.40}")
    return float(decision_timeout)


def ask(who, phase: str, obs, timeout: float | None):
    """A user's player's decision ``phase`` on ``obs``, within ``timeout`` seconds (None: no limit).
    Any exception of the player's (``SystemExit`` included) comes out as it is; a real Ctrl-C
    (``KeyboardInterrupt``) too. The limit's breach is a ``DecisionTimeout``."""
    fn = getattr(who, phase)
    if timeout is None:
        return fn(obs)
    decider = getattr(_DECIDERS, "decider", None)
    if decider is None:
        decider = _DECIDERS.decider = _DecisionThread()
    return decider.run(fn, obs, timeout)


def display_name(who) -> str:
    """The name a user's player is known by: the name it was seated under (a spec as given), else its own."""
    return next((name for name, obj in USER_PLAYERS.items() if obj is who), None) or player_name(who)


__all__ = ["DECISIONS", "USER_IDENTITIES", "USER_PLAYERS", "USER_PLAYER_COST", "DecisionTimeout", "Seated", "ask",
           "check_timeout", "describe_failure", "display_name", "is_player", "is_user_player", "jit_functions",
           "load_player", "load_player_identity", "needs_open_table", "player_name", "register_player"]
