"""The single place that passes options to Numba.

Every kernel uses ``kernel`` (serial), ``inline_kernel`` (inlined into its callers) or ``lean_kernel``
(no reference counting). All compile in nopython mode and cache to disk so a second process
starts without recompiling; ``WIZSIM_NUMBA_CACHE=0`` turns caching off for read-only installs,
clusters or stale caches. Rules code never uses fastmath: results must match the reference twins.

Where Numba finds no writable cache folder (the package folder read-only, no writable home, no
``NUMBA_CACHE_DIR``: a system-wide install, a container) the kernels compile in memory instead, and
one line on stderr says that the cache is off and why: a slower start, never a failed import.

A cached kernel holds the machine code of every kernel it calls, but Numba checks only the source
file of the kernel itself: after an edit of ``round.py``, the cached ``simulate_rounds_kernel``
(in ``kernels.py``) would go on running the old round. So wizsim's cache entries are stamped with a
hash of the kernel's module and of every package module it imports, directly or not (and of the
environment switches that change code generation): a change to any of them recompiles the kernel.

A kernel specialized for functions passed as arguments (a user's jitted player, ``wizsim.jit``) is
compiled in memory and never written to the cache: Numba would key the entry by the function object,
which no later process has, and add a file on every run.

Compile time: Numba links the code of every kernel a kernel calls into it and optimizes and generates
machine code for the whole again, so each layer of (not inlined) kernels above a big one, the round
with its policies, pays that one's compile once more; a ``prange`` loop is two such layers (its loop's body is
compiled as a function of its own). So no kernel is parallel: the simulation's batch kernels, bid advice's
candidate rounds, play advice's play-outs and the opponents' model's weights are serial over a span of
rows, called from Python threads (``sim.driver.run_batch``; the kernels release the GIL), and call the
round (or play-out) directly. Made serial (0.5.0), the advice kernels' first runs fell from 21.0 to
16.5 s (bid advice), 25.3 to 17.4 s (play advice) and 46.0 to 29.7 s (the review), whole processes on a
fresh cache, medians of 3 paired runs.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import sys
import threading
import time
from pathlib import Path

from numba import njit
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)

CACHE = os.environ.get("WIZSIM_NUMBA_CACHE", "1") != "0"
_PACKAGE = Path(__file__).resolve().parent
_CODEGEN_SWITCHES = ("WIZSIM_NO_PDEP",)


# ``from X import a, b`` (its names possibly in parentheses over several lines) and ``import X, Y``: read
# with a regular expression, not ``ast`` (parsing every module of the package cost a start a tenth of a
# second). An import inside a string or comment counts too: a stamp over more files is only stricter.
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)


def _names(text: str) -> list[str]:
    """The names of an import list (``a, b as c``, parentheses and comments allowed)."""
    text = re.sub(r"#[^\n]*", "", text).strip("() \t\n")
    return [item.split()[0] for item in text.replace("\n", " ").split(",") if item.strip()]


@functools.cache
def _wizsim_imports(path: Path) -> tuple[Path, ...]:
    """The package modules that the module at ``path`` (inside the package) imports."""
    source = path.read_text(encoding="utf-8")
    names = []
    for module, listed in _FROM.findall(source):
        level = len(module) - len(module.lstrip("."))
        module = module.lstrip(".")
        if level and path.is_relative_to(_PACKAGE):  # relative: against the module's package
            parts = path.parent.relative_to(_PACKAGE).parts
            base = parts[:len(parts) - (level - 1)]
            module = ".".join(["wizsim", *base, *([module] if module else [])])
        names += [module] + [f"{module}.{name}" for name in _names(listed)]
    for listed in _IMPORT.findall(source):
        names += _names(listed)
    out = []
    for name in names:
        if name.startswith("wizsim."):
            rel = Path(*name.split(".")[1:])
            for cand in (_PACKAGE / rel.with_suffix(".py"), _PACKAGE / rel / "__init__.py"):
                if cand.is_file():
                    out.append(cand.resolve())
    return tuple(out)


@functools.cache
def source_stamp(py_file: str) -> str:
    """sha256 over the module ``py_file``, every package module it imports directly or
    indirectly, and the code-generation switches: what a kernel of that module compiles from."""
    seen: set[Path] = set()
    todo = [Path(py_file).resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_wizsim_imports(path))
    digest = hashlib.sha256()
    for path in sorted(seen):
        digest.update(str(path.relative_to(_PACKAGE) if path.is_relative_to(_PACKAGE) else path).encode())
        digest.update(path.read_bytes())
    for name in _CODEGEN_SWITCHES:
        digest.update(f"{name}={os.environ.get(name, '')}".encode())
    return digest.hexdigest()


class _PackageStamp:
    def get_source_stamp(self):
        return (super().get_source_stamp(), source_stamp(self._py_file))


class _UserProvidedLocator(_PackageStamp, UserProvidedCacheLocator):
    pass


class _InTreeLocator(_PackageStamp, InTreeCacheLocator):
    pass


class _UserWideLocator(_PackageStamp, UserWideCacheLocator):
    pass


class _PackageCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_UserProvidedLocator, _InTreeLocator, _UserWideLocator]


def _holds_function(ty) -> bool:
    """Whether a Numba type is, or holds, a function object (a user's jitted player's functions)."""
    from numba.core import types

    if isinstance(ty, (types.Dispatcher, types.FunctionType)):
        return True
    if isinstance(ty, types.BaseTuple):
        return any(_holds_function(t) for t in ty.types)
    return False


class _TolerantIndex(IndexDataCacheFile):
    """A cache index that another wizsim wrote (an older release, another checkout sharing the cache
    folder) may name a record class that has since moved: Numba unpickles the index before it compares
    the source stamp, so the import error would break the kernel's first call. Such an index is stale by
    definition: read it as empty (recompile; the save then writes a fresh index over it)."""

    def _load_index(self):
        try:
            return super()._load_index()
        except (AttributeError, ImportError, EOFError, pickle.UnpicklingError, TypeError, ValueError):
            return {}


class _PackageFunctionCache(FunctionCache):
    """Numba's disk cache, with two exceptions: a specialization for functions given as arguments (a
    user's jitted player: ``wizsim.jit``) is compiled in memory (Numba keys such an entry by the
    function object, which no later process has, so every run would add one more file), and an index
    that cannot be read is a miss (``_TolerantIndex``)."""

    _impl_class = _PackageCacheImpl

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file.__class__ = _TolerantIndex

    def load_overload(self, sig, target_context):
        if any(_holds_function(t) for t in sig):
            return None
        started = time.perf_counter()
        try:
            return super().load_overload(sig, target_context)
        finally:
            _CLOCK.add_load(time.perf_counter() - started)

    def save_overload(self, sig, data):
        if any(_holds_function(t) for t in sig):
            return
        super().save_overload(sig, data)


_cache_off_reason: str | None = None  # set when no cache folder is writable: compile in memory


def _unliteral_calls(dispatcher):
    """Kernels calling ``dispatcher`` with a constant (``draw_world(..., 1)``, ``legal_mask(..., -1)``) get the
    code compiled for the constant's type, not one more specialization for its value: Numba types a constant
    argument as a literal and compiles the callee again for each value (and each of its callees), which cost
    the first run of a search seat 2-3 s of duplicates."""
    from numba.core import types

    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _cached(dispatcher, literal: bool = False):
    global _cache_off_reason
    if not literal:
        _unliteral_calls(dispatcher)
    if CACHE and _cache_off_reason is None:
        try:
            dispatcher._cache = _PackageFunctionCache(dispatcher.py_func)
        except RuntimeError as err:  # Numba's "cannot cache function ...: no locator available"
            _cache_off_reason = str(err)
            where = os.environ.get("NUMBA_CACHE_DIR")
            tried = f"NUMBA_CACHE_DIR={where}" if where else "NUMBA_CACHE_DIR is unset"
            print(f"wizsim: Numba's disk cache is off, kernels compile in memory on every run: no writable "
                  f"cache folder (the package folder {_PACKAGE} and the user cache folder are read-only, "
                  f"{tried}); set NUMBA_CACHE_DIR to a writable folder to keep them.", file=sys.stderr)
            import wizsim._notice as _notice

            _notice.said = True  # that line says kernels compile; the library's compile notice would repeat it
    return dispatcher


def _takes_ext(dispatcher) -> bool:
    code = dispatcher.py_func.__code__
    return code.co_argcount > 0 and code.co_varnames[code.co_argcount - 1] == "ext"


def needs_compile(*dispatchers, ext=None) -> bool:
    """Whether any of these kernels has no machine code for its current source in Numba's disk
    cache, so that its first call will compile (tens of seconds for the big ones). A kernel whose last
    argument is ``ext`` (``policies.dispatch.kernel_ext``) is compiled once for each type of ``ext`` (None,
    or a tuple saying which of search, a user's player and net it holds): ``ext`` says which this call
    needs. A guess for the user's benefit, read from Numba's cache index; False when it cannot tell."""
    if not CACHE:
        return False
    if _cache_off_reason is not None:  # compiled in memory: every run compiles
        return True
    try:
        from numba import typeof

        want = typeof(ext)
        for d in dispatchers:
            keys = d._cache._cache_file._load_index()
            if not keys:
                return True
            if _takes_ext(d) and not any(key[0][-1] == want for key in keys):
                return True
        return False
    except Exception:  # a private Numba interface: when it changes, say nothing rather than fail
        return False


# error_model="numpy" drops Python's ZeroDivisionError checks from integer division in hot loops;
# kernels never divide by a value that can be zero.
# cache=False here: ``_cached`` installs wizsim's own cache (Numba's would fail at import where no
# cache folder is writable).
# _nrt=True is the default, but said here: a kernel first compiled from inside a ``lean_kernel`` would
# otherwise inherit its caller's _nrt=False (Numba passes flags not set down to the functions it compiles
# for a call) and fail where it allocates.
_OPTIONS = dict(cache=False, nogil=True, error_model="numpy", boundscheck=False)
_COUNTED = dict(_nrt=True, **_OPTIONS)


def kernel(fn):
    """Serial nopython kernel, cached."""
    return _cached(njit(**_COUNTED)(fn))


def literal_kernel(fn):
    """``kernel``, but compiled once for each value of a constant argument (Numba's own way, which
    ``_unliteral_calls`` turns off for the others): for net's layers, whose offsets and sizes, known when
    compiled, let the compiler turn the weight loops into fixed-stride code. Without it `net` played half as
    many cards a second (0.5.0: 208,000 against 0.4.0's 415,000, one thread)."""
    return _cached(njit(**_COUNTED)(fn), literal=True)


def inline_kernel(fn):
    """Serial kernel that Numba inlines into its callers: for the small per-card-play helpers,
    where a call's argument marshalling (arrays are passed as several words each) would cost more
    than the body."""
    return _cached(njit(inline="always", **_COUNTED)(fn))


def lean_kernel(fn):
    """Serial kernel compiled without Numba's reference counting: it may index, slice and pass arrays but
    not allocate them (scratch comes in as arguments). For hot loops that hand the same arrays to many
    small helpers: each array argument or view otherwise costs a pair of atomic counts, which in the
    batched environment's step (``envs.vector``) was three quarters of the time. The kernels it calls keep
    their own counting because they state it (``_COUNTED``)."""
    return _cached(njit(_nrt=False, **_OPTIONS)(fn))



class _CompileClock:
    """Seconds this process has spent making kernels ready: compiling them (Numba's ``numba:compile``
    events, outermost only) and loading them from the disk cache (a load outside any compile; a load
    inside one is part of it). Numba compiles under one process-wide lock, so one depth counter serves
    every thread. The library's notice (``notice``) also starts here: the first compile of a process
    says so once on the ``wizsim`` logger."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = 0
        self._lock = threading.Lock()
        self._started = 0.0

    def on_start(self, event):
        if self.depth == 0:
            self._started = time.perf_counter()
            notice(event)
        self.depth += 1

    def on_end(self, event):
        self.depth -= 1
        if self.depth == 0:
            with self._lock:
                self.seconds += time.perf_counter() - self._started

    def add_load(self, seconds: float) -> None:
        if self.depth == 0:
            with self._lock:
                self.seconds += seconds


def _install_clock() -> _CompileClock:
    from numba.core import event

    clock = _CompileClock()

    class _Listener(event.Listener):
        def on_start(self, ev):
            clock.on_start(ev)

        def on_end(self, ev):
            clock.on_end(ev)

    event.register("numba:compile", _Listener())
    return clock


_CLOCK = _install_clock()


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels or loading them from Numba's cache: a first call
    on a fresh machine compiles for seconds, and that is time neither an answer's limit nor a printed
    time or rate should count. Numba's compile events are process-wide, so a compile another thread runs
    meanwhile counts too (it slowed this call as much)."""
    return _CLOCK.seconds


class Stopwatch:
    """Wall-clock seconds since it started, less the compile time spent meanwhile (``compile_seconds``):
    the time wizsim prints as an answer's, a run's or a rate's. ``compiled`` is the time left out."""

    def __init__(self):
        self.started = time.perf_counter()
        self.compiled_at_start = compile_seconds()

    @property
    def compiled(self) -> float:
        return compile_seconds() - self.compiled_at_start

    @property
    def seconds(self) -> float:
        return max(time.perf_counter() - self.started - self.compiled, 0.0)


NOTICE_LOGGER = "wizsim"


def notice(event=None) -> None:
    """The library's one notice per process that a kernel compiles (a fresh machine, a new kind of call):
    a WARNING on the ``wizsim`` logger, which Python prints to stderr when the application has set up no
    logging (``logging.lastResort``); ``logging.getLogger("wizsim").setLevel(logging.ERROR)`` silences it.
    The ``wizsim`` command says its own notice, with the time measured for that command (``_notice``)."""
    import wizsim._notice as _notice

    if _notice.said:
        return
    _notice.said = True
    import logging

    name = ""
    try:
        name = f" ({event.data['dispatcher'].py_func.__qualname__})"
    except Exception:  # a private Numba detail: the notice stands without the name
        pass
    logging.getLogger(NOTICE_LOGGER).warning(
        "wizsim: compiling kernels for this machine%s: seconds to a minute, once; later calls and processes "
        "load them from Numba's cache (`wizsim warmup` compiles every command's ahead)", name)
