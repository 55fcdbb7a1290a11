"""The ``wizsim`` command line: parse input, make one library call, render the result.

Exit status: 0 on success, 2 on bad input (a one-line ``Error: ...`` naming the problem), 1 on an
unexpected failure. Results go to stdout; progress bars and warnings to stderr.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sys
import threading
import time

import click

from wizsim._notice import compile_seconds_measured  # the notices quote it (tests read it here)
from wizsim._signals import raise_or_retry
from wizsim._version import __version__
from wizsim.advisor.bid import PLAYER_POLICY
from wizsim.advisor.opponents import (
    DEFAULT_BID_TRUST,
    DEFAULT_DOUBT,
    DEFAULT_OPPONENTS,
    DEFAULT_PLAY_ADVICE_DOUBT,
    DEFAULT_PLAY_NOISE,
    DEFAULT_PLAY_TRUST,
    DEFAULT_SEAT_DOUBT,
    DEFAULT_TRUMP_TRUST,
)
from wizsim.cards import CardError, card_ids, parse_trump
from wizsim.config import (
    DEFAULT_PLAYERS,
    DEFAULT_ROUNDS,
    DEFAULT_SEED,
    DEFAULT_TOURNAMENT_GAMES,
    ENGINES,
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    n_game_rounds,
)
from wizsim.policies import DEFAULT_POLICY, policy_names
from wizsim.sim.plan import GAME_CHUNK, ROUND_CHUNK
from wizsim.web import DEFAULT_HOST, DEFAULT_PORT

EXIT_HELP = "\b\nExit status: 0 success, 2 bad input, 1 unexpected failure."
POLICY_NAMES = ", ".join(policy_names())
ROUND_SIZES = ", ".join(f"1..{n_game_rounds.py_func(p)} with {p} players" for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def epilog(example: str) -> str:
    """The end of a command's --help: one example to copy, and the exit codes."""
    return f"\b\nExample:\n  {example}\n\n{EXIT_HELP}"


class CardsParam(click.ParamType):
    """An option parsed by one of ``cards``' parsers; its CardError becomes click's usage error."""

    def __init__(self, name: str, parse):
        self.name = name
        self.parse = parse

    def convert(self, value, param, ctx):
        try:
            return self.parse(value)
        except CardError as err:
            self.fail(str(err), param, ctx)


def HandType() -> CardsParam:  # noqa: N802 - named like the click type it makes
    return CardsParam("HAND", lambda text: card_ids(text, None))


def TrumpType() -> CardsParam:  # noqa: N802
    return CardsParam("TRUMP", lambda text: parse_trump(text, None))


def policy_names_given(ctx, param, value):
    """A policy option's value, refused when it names no policy ("" or ","): never read as the default."""
    if value is not None and not value.strip(" ,"):
        raise click.BadParameter(f"give a policy name ({POLICY_NAMES}), got {value!r}", ctx, param)
    return value


def bad_input_is_usage_error(fn):
    """Turn the library's ValueErrors (bad cards, options out of range) into click's exit-2 errors."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError as err:
            raise click.UsageError(str(err)) from None

    return wrapper


def echo(result, as_json: bool) -> None:
    """Print a result as text or as one JSON object (``render.render``). Output that cannot be written (a
    full disk behind ``> file``, /dev/full) is one line on stderr and exit status 1, as any storage fault
    is; a closed pipe (``| head``) stays quiet, as click makes it."""
    from wizsim.render import render

    text = render(result, as_json)
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        # what is buffered cannot be written either: point stdout at nothing so that the flush at exit is
        # not a second error after the one line
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        raise click.ClickException(f"cannot write the result to standard output: "
                                   f"{err.strerror or err}") from None


def machine_busy() -> str:
    """`` (this machine is busy: load 3.1 on 2 cores, so expect longer)`` when other work holds the cores."""
    try:
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
    except (OSError, AttributeError):
        return ""
    return f"; this machine is busy (load {load:.1f} on {cores} cores), so expect longer" if load > 0.75 * cores else ""


def kernels_ext(names):
    """The ``ext`` the kernels take for these policy names (``dispatch.kernel_ext``; None: no search, net or
    jitted player)."""
    from wizsim.policies.dispatch import kernel_ext
    from wizsim.policies.registry import is_user_player, jit_functions, looks_like_player_spec, parse_policy

    if isinstance(names, str):
        names = names.split(",")
    user = next((jit_functions(n) for n in names if jit_functions(n) is not None), None)
    kinds, params = [], []
    for n in names:
        if isinstance(n, str) and n.strip() and not is_user_player(n) and not looks_like_player_spec(n):
            try:
                spec = parse_policy(n)
                kinds.append(spec.entry.kind)
                params.append(spec.params_row())  # search:rollout=net compiles net's play-outs in: its own build
            except (ValueError, TypeError):  # the command refuses it with its own words (naming the option)
                pass
    return kernel_ext(kinds, user, params=params)


def announce_compile(kind: str, *kernels, ext=None) -> None:
    """Say why a first run on this machine (an empty Numba cache) sits silent for a while, and for how
    long: the compile time ``benchmarks/first_run.py`` measured for this kind of command on a quiet
    machine (``compile_seconds_measured``), and whether this machine is busy. On a terminal as it is, in
    a log prefixed ``wizsim: `` (progress and warnings go to stderr). (The library's own notice, ``_numba.notice``,
    is off in the command: this one says more.)"""
    import wizsim._notice as _notice
    from wizsim._numba import needs_compile

    _notice.said = True  # this notice stands for the library's
    prefix = "" if sys.stderr.isatty() else "wizsim: "
    if ext is not None and ext[1] is not None:  # a user's jitted player: never in the disk cache (wizsim.jit)
        about = compile_seconds_measured("jitted")
        click.echo(f"{prefix}Compiling wizsim's kernels for your jitted player on every run (Numba's cache cannot "
                   f"keep kernels made for a function){_about(about)}{machine_busy()}.", err=True)
    elif needs_compile(*kernels, ext=ext):
        about = compile_seconds_measured(kind)
        for part, build in ((0, "search"), (2, "net")):  # a search (net) seat: that policy's code too
            if ext is not None and ext[part] is not None:
                extra = compile_seconds_measured(build)
                about = None if about is None or extra is None else max(about, extra)
        click.echo(f"{prefix}Compiling wizsim's kernels for {kind} on this machine, once{_about(about)}{machine_busy()}; "
                   f"later runs load them from Numba's cache (`wizsim warmup` compiles every command's ahead).",
                   err=True)


def _about(seconds: float | None) -> str:
    return "" if seconds is None else f": about {seconds:.0f} s on a quiet 2-core machine"


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that a dataset run stops as on Ctrl-C."""


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM (a scheduler's or ``kill``'s stop) stops the run as Ctrl-C does:
    lock released, run file marked interrupted, exit status 143."""

    def stop(signum, frame):
        raise_or_retry(signum, frame, Terminated())

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (an embedding application): leave its handler be
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def quiet_local_cluster_exit() -> None:
    """Ctrl-C ends the process at once (``run_interruptibly``); a local Dask cluster's worker processes
    then exit by themselves, and multiprocessing's resource tracker (a child that outlives this process)
    would print a warning about their semaphores after the one "interrupted" line. The children inherit
    this filter, which silences that warning only."""
    quiet = "ignore:resource_tracker:UserWarning"
    given = os.environ.get("PYTHONWARNINGS", "")
    if quiet not in given.split(","):
        os.environ["PYTHONWARNINGS"] = f"{given},{quiet}" if given else quiet


POLL_SECONDS = 0.1  # how often the main thread looks up from a computation for Ctrl-C


def run_interruptibly(call):
    """``call()``, run in a worker thread while the main thread waits, waking every ``POLL_SECONDS``.

    A Numba kernel does not return to Python until it is done (a long advice: a minute), and Python
    runs a signal handler only in the main thread between bytecodes; the kernels release the GIL, so
    a main thread that only waits hears Ctrl-C at once. Ctrl-C (SIGTERM) then ends the process with
    status 130 (143) and one line, without waiting for the kernel; an error of the call is raised here.
    """
    box = {}

    def work():
        try:
            box["result"] = call()
        except BaseException as err:  # handed to the main thread, which raises it
            box["error"] = err

    worker = threading.Thread(target=work, name="wizsim-work", daemon=True)
    try:
        with sigterm_as_interrupt():
            worker.start()
            while worker.is_alive():
                worker.join(POLL_SECONDS)
    except KeyboardInterrupt as stop:
        click.echo("\ninterrupted: stopped before the answer was complete", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(143 if isinstance(stop, Terminated) else 130)  # the kernel cannot be stopped: leave it
    if "error" in box:
        raise box["error"]
    return box["result"]


PROGRESS_SECONDS = 5.0  # without a terminal: one progress line this often (none for a shorter run)


class PlainProgress:
    """Progress for a log (stderr not a terminal, where a tqdm bar would be a mess of carriage
    returns): a plain line every ``PROGRESS_SECONDS``, so a long run shows it is alive."""

    def __init__(self, total: int, unit: str):
        from wizsim._numba import Stopwatch

        self.total, self.unit, self.done = total, unit, 0
        self.clock = Stopwatch()  # the rate and the time left leave out compiling
        self.last = time.monotonic()

    def update(self, k: int) -> None:
        self.done += k
        now = time.monotonic()
        if now - self.last < PROGRESS_SECONDS or self.done >= self.total:
            return
        self.last = now
        rate = self.done / max(self.clock.seconds, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        compiled = f" (compiling took {self.clock.compiled:,.0f} s, not counted)" if self.clock.compiled >= 1 else ""
        click.echo(f"wizsim: {self.done:,} of {self.total:,} {self.unit}s ({self.done / self.total:.0%}), "
                   f"{rate:,.0f} {self.unit}s/s, about {left:,.0f} s left{compiled}", err=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


DAY = 86_400.0


def say_long_estimate(players: int, names, n_units: int, unit: str, r: int | None, threads: int | None,
                      rows: bool = False, trick_log: bool = False) -> None:
    """Off a terminal (a batch job's log), say before it starts that a run will take more than a day."""
    if sys.stderr.isatty():
        return
    from wizsim.sim.plan import estimate_seconds

    try:
        import numba

        cores = threads or numba.get_num_threads()
    except Exception:
        cores = 1
    seconds = estimate_seconds(players, names, n_units, unit, r, cores, rows=rows, trick_log=trick_log)
    if seconds > DAY:
        click.echo(f"wizsim: this run is estimated at about {seconds / DAY:,.1f} days ({n_units:,} {unit}s at about "
                   f"{n_units / seconds:,.0f} {unit}s/s on {cores} threads); it starts now", err=True)


def progress_bar(total: int, unit: str, enabled: bool | None = None):
    """A tqdm bar on stderr with rate and ETA on a terminal; a plain line every few seconds otherwise."""
    from tqdm import tqdm

    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return PlainProgress(total, unit)
    from wizsim._numba import Stopwatch

    class Bar(tqdm):
        """tqdm whose rate and time left leave out compiling: its clock starts later by the compile time
        spent since it began (and it averages over the whole run, not the last updates, for the same reason)."""

        def update(self, n=1):
            self.start_t += self.clock.compiled - self.left_out
            self.left_out = self.clock.compiled
            return super().update(n)

    bar = Bar(total=total, unit=unit, unit_scale=True, file=sys.stderr, dynamic_ncols=True, smoothing=0)
    bar.clock, bar.left_out = Stopwatch(), 0.0
    return bar


class Commands(click.Group):
    """The command group; a Ctrl-C (SIGTERM) that reaches it, outside the commands' own handling (while
    a kernel compiles in the main thread, say), exits 130 (143) with one line instead of click's
    "Aborted!" with status 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:
            click.echo("\ninterrupted: stopped before the answer was complete", err=True)
            sys.exit(143 if isinstance(stop, Terminated) else 130)


@click.group(cls=Commands, epilog=f"\b\nExamples:\n  wizsim simulate --players 4 --round 15 --rounds 1000000 --seed 7\n"
                    f"  wizsim advise --hand \"W,AS,3H\" --trump S --seat 2 --bids 1\n"
                    f"  wizsim tournament --players 4 --policies heuristic,random --games 20000\n\n{EXIT_HELP}")
@click.version_option(version=__version__, prog_name="wizsim")
def main():
    """wizsim: simulate the card game Wizard, advise bids, compare strategies."""


class WholeNumber(click.IntRange):
    """An integer option that also reads ``1e6`` or ``2.5e3``: a count written as a power of ten is a whole
    number when it is exact; ``1.5`` or ``1e-3`` is refused as not a whole number, not as a "range"."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str) and any(c in value for c in ".eE") and value.strip().lstrip("+-").isascii():
            from decimal import Decimal, InvalidOperation

            try:
                d = Decimal(value.strip())
            except InvalidOperation:
                d = None
            if d is not None and d.is_finite() and d.adjusted() > 30:  # beyond any range here: no 10**10**9
                self.fail(f"{value!r} is far above the largest allowed value", param, ctx)
            if d is not None and d.is_finite() and d == d.to_integral_value():
                value = int(d)
            else:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        return super().convert(value, param, ctx)


PLAYERS = WholeNumber(MIN_PLAYERS, MAX_PLAYERS)
SEED = WholeNumber(0, MAX_SEED)
COUNT = WholeNumber(min=1)



def decision_timeout_option(fn):
    """--decision-timeout: the seconds a user's Python player may take over one decision."""
    return click.option("--decision-timeout", type=click.FloatRange(0, min_open=True), default=None,
                        metavar="SECONDS", show_default="no limit",
                        help="Stop with an error when a user's Python player (FILE.py:NAME, package.module:NAME) "
                             "takes longer than this over one decision (trump, bid or card). A player that raises "
                             "or exits stops the run the same way: one line naming the player, the seat, the "
                             "decision and the seed and round index that replay it (exit 2).")(fn)


def engine_options(engine_help: str):
    """--engine, --scheduler and --workers: where a batch command runs its chunks."""
    options = [
        click.option("--engine", type=click.Choice(ENGINES), default=ENGINES[0], show_default=True, help=engine_help),
        click.option("--scheduler", default=None, help="With --engine dask: the scheduler address (tcp://host:8786)."),
        click.option("--workers", type=COUNT, default=None,
                     help="With --engine dask: start a local cluster of N workers."),
    ]

    def apply(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn

    return apply

@main.command(epilog=epilog("wizsim simulate --players 4 --round 15 --rounds 1000000 --seed 7 --policy heuristic"))
@click.option("--players", type=PLAYERS, default=DEFAULT_PLAYERS, show_default=True, help="Players at the table.")
@click.option("--round", "round_size", type=int, default=None,
              help=f"Cards per player (one size per run): {ROUND_SIZES}.")
@click.option("--rounds", type=COUNT, default=None, show_default=str(DEFAULT_ROUNDS), help="How many rounds.")
@click.option("--games", type=COUNT, default=None, help="Play this many whole games instead.")
@click.option("--policy", default=None, callback=policy_names_given, show_default=DEFAULT_POLICY, help=f"Policy for every seat: {POLICY_NAMES}.")
@click.option("--policies", default=None, callback=policy_names_given, help=f"Comma list, one policy per seat (per player with --games) of "
              f"{POLICY_NAMES}; a shorter list repeats to fill the table.")
@click.option("--hook", is_flag=True, help="Hook variant: the bids may not add up to the round size.")
@click.option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True, help="Run seed.")
@click.option("--threads", type=COUNT, default=None, show_default="all cores", help="Threads.")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Write a Parquet dataset to this folder.")
@click.option("--trick-log", is_flag=True, help="With --out: also write the tricks table (one row per trick).")
@click.option("--chunk-size", type=COUNT, default=None, show_default=f"{ROUND_CHUNK} rounds, {GAME_CHUNK} games",
              help="With --out: rounds (games with --games) per file.")
@click.option("--overwrite", is_flag=True, help="With --out: replace a different run's data in the folder.")
@engine_options("With --out: run the chunks here or on a Dask cluster.")
@decision_timeout_option
@click.option("--allow-unverified-players", is_flag=True,
              help="With --out: resume although a seat's player cannot be verified as the one that wrote the data "
                   "(a module player with no source files to digest). Without it such a resume stops, as does "
                   "one whose players' files changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@bad_input_is_usage_error
def simulate(players, round_size, rounds, games, policy, policies, hook, seed, threads, out, trick_log, chunk_size,
             overwrite, engine, scheduler, workers, decision_timeout, allow_unverified_players, as_json):
    """Simulate many rounds (--round R --rounds N) or whole games (--games N) and summarise them.

    With --out DIR the rounds go to a Parquet dataset in DIR instead (rerun the same command to
    resume an interrupted run); the summary then describes what was written. The run records what
    each seat's player is (a built-in by name and wizsim's version, FILE.py:NAME by its file's
    digest): a resume whose players changed stops, naming the seat, and leaves DIR as it was.
    """
    from wizsim.sim.plan import make_plan

    if policy and policies:
        raise click.UsageError("give --policy (every seat) or --policies (one per seat), not both")
    names = policies or policy or DEFAULT_POLICY
    dataset_only = {"--trick-log": trick_log, "--chunk-size": chunk_size, "--overwrite": overwrite,
                    "--engine dask": engine != ENGINES[0], "--scheduler": scheduler, "--workers": workers,
                    "--allow-unverified-players": allow_unverified_players}
    if out is None and any(dataset_only.values()):
        given = ", ".join(k for k, v in dataset_only.items() if v)
        raise click.UsageError(f"{given}: these options need --out DIR")
    # the library's checks, before anything compiles or draws a progress bar
    plan = make_plan(players, r=round_size, rounds=rounds, games=games, policies=names, hook=hook, seed=seed,
                     chunk_size=chunk_size)
    from wizsim.sim.kernels import simulate_games_kernel, simulate_rounds_kernel

    main_kernel = simulate_games_kernel if games is not None else simulate_rounds_kernel
    unit_key = "simulate --games" if games is not None else "simulate"
    args = dict(r=plan.round, rounds=plan.rounds, games=plan.games, policies=names, hook=hook, seed=plan.seed,
                threads=threads)
    if out is not None:
        from wizsim.dataset.kernels import expand_round_rows, expand_trick_rows
        from wizsim.dataset.run import write_dataset

        announce_compile("datasets", main_kernel, expand_round_rows, *([expand_trick_rows] if trick_log else []),
                         ext=kernels_ext(plan.policies))
        from wizsim.dataset.run import StorageError

        say_long_estimate(players, plan.policies, plan.n_units, plan.unit, plan.round, threads, rows=True,
                          trick_log=trick_log)
        try:
            with sigterm_as_interrupt(), progress_bar(plan.n_units, plan.unit) as bar:
                result = write_dataset(out, players, **args, trick_log=trick_log, chunk_size=chunk_size,
                                       engine=engine, overwrite=overwrite, scheduler=scheduler, workers=workers,
                                       progress=bar.update, allow_unverified_players=allow_unverified_players,
                                       decision_timeout=decision_timeout)
        except KeyboardInterrupt as stop:
            click.echo(f"\ninterrupted: {out} holds only complete files; run the same command again to resume.",
                       err=True)
            sys.exit(143 if isinstance(stop, Terminated) else 130)
        except StorageError as err:  # the machine's fault, not the user's input: exit 1, no usage hint
            raise click.ClickException(str(err)) from None
    else:
        from wizsim.sim.summary import summarize

        announce_compile(unit_key, main_kernel, ext=kernels_ext(plan.policies))
        say_long_estimate(players, plan.policies, plan.n_units, plan.unit, plan.round, threads)
        with progress_bar(plan.n_units, plan.unit) as bar:
            result = run_interruptibly(lambda: summarize(players, **args, progress=bar.update,
                                                         decision_timeout=decision_timeout))
    echo(result, as_json)


@main.command(epilog=epilog('wizsim advise --hand "W,AS,3H" --trump S --seat 2 --bids 1'))
@click.option("--hand", type=HandType(), required=True,
              help=f'Your cards (those you still hold, once play has begun), e.g. "W,AS,3H" (W Wizard, J Jester, '
                   f'JS the Jack): {ROUND_SIZES}.')
@click.option("--trump", type=TrumpType(), default=None, help="Trump: S, H, D, C or none (implied by --trump-card).")
@click.option("--seat", type=int, required=True, help="Your seat, 1..players: 1 bids first, the last seat deals.")
@click.option("--players", type=PLAYERS, default=DEFAULT_PLAYERS, show_default=True, help="Players at the table.")
@click.option("--bids", default=None,
              help='Bid advice: the bids of seats 1..seat-1 (each 0..the round size), e.g. "1,0". Play advice: every '
                   "player's bid, seat 1 first (yours included).")
@click.option("--played", default=None,
              help='Play advice: the cards played so far this round in order of play, e.g. "5H,AH,2S,9C/KD" '
                   "(/ between tricks optional).")
@click.option("--hook", is_flag=True, help="Hook variant: the dealer may not bid so that the bids add up to the round size.")
@click.option("--trump-card", default=None, help="The turned-up card, when you know it (a W: --trump is the dealer's suit).")
@click.option("--samples", type=COUNT, default=None, show_default="until the best choice is clear",
              help="Deals to simulate.")
@click.option("--seed", type=SEED, default=None, help="Seed, for a reproducible answer.")
@click.option("--policy", default=None, callback=policy_names_given, show_default=DEFAULT_OPPONENTS,
              help=f"The opponents' model: one policy for every other seat, or one per other seat in seat order "
                   f"(comma list), of {POLICY_NAMES}.")
@click.option("--play", default=None, callback=policy_names_given, show_default=PLAYER_POLICY,
              help="The policy that plays your own later cards (search plays stronger and takes longer).")
@click.option("--bid-trust", type=click.FloatRange(0, 1), default=None, show_default=str(DEFAULT_BID_TRUST),
              help="How far the opponents' bids are trusted as evidence about their cards: 0 they tell nothing, "
                   "1 they are exactly what the model would do.")
@click.option("--trump-trust", type=click.FloatRange(0, 1), default=None, show_default=str(DEFAULT_TRUMP_TRUST),
              help="How far the suit a dealer named on a turned-up Wizard is trusted as evidence about its cards, "
                   "0..1.")
@click.option("--play-trust", type=click.FloatRange(0, 1), default=None, show_default=str(DEFAULT_PLAY_TRUST),
              help="Play advice: how far the cards the opponents chose are trusted as evidence, 0..1.")
@click.option("--play-noise", type=click.FloatRange(0, 1), default=None,
              show_default=f"{DEFAULT_PLAY_NOISE:g} for bid and trump advice, 0 for play advice",
              help="How often, 0..1, an opponent modelled by the heuristic (or net) plays a random legal card "
                   "instead of its own in the simulations: 0 plays exactly as the model.")
@click.option("--doubt", type=click.FloatRange(0, 1), default=None,
              show_default=f"{DEFAULT_DOUBT:g} for bid and trump advice, {DEFAULT_PLAY_ADVICE_DOUBT:g} for play advice",
              help="The prior chance, 0..1, that the table is nothing like the model (blind bids, random cards); "
                   "what they did updates it deal by deal. 0 trusts the model's table. Play advice weighs its "
                   "deals by it and plays them out on the model's table.")
@click.option("--seat-doubt", type=click.FloatRange(0, 1), default=None, show_default=str(DEFAULT_SEAT_DOUBT),
              help="The prior chance, 0..1, that one seat whose bid you heard plays blind on its own (random "
                   "bids and cards) while the others are as modelled; what it did updates it deal by deal. Play "
                   "advice weighs its deals by it.")
@click.option("--game", type=click.Path(dir_okay=False), default=None,
              help="A game record (docs/game-record.md; at most 1 MiB) of the game so far: the opponents' model "
                   "learns each "
                   "player's play noise from its finished rounds (those with every card played), seated as in the "
                   "round in progress; for trump, bid and play advice. Each card is read against the heuristic's, "
                   "or with --policy net or net:weights=search against that network's.")
@click.option("--explain", is_flag=True,
              help="Say why: each card's chance of taking a trick (bids, trump) or a line of play from the simulated "
                   "deals that sets the advised card against the runner-up (cards); JSON: \"reasons\".")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@bad_input_is_usage_error
def advise(hand, trump, seat, players, bids, played, hook, trump_card, samples, seed, policy, play, bid_trust,
           trump_trust, play_trust, play_noise, doubt, seat_doubt, game, explain, as_json):
    """Advise a bid or, once every player has bid, the card to play now.

    With --bids holding the bids of the seats before yours (or none): for every bid, the chance of
    making it and the expected score. With --bids holding every player's bid and --played the cards
    played so far: for every legal card, the chance of ending the round with exactly your bid and the
    expected score.
    """
    from wizsim._startup import skip_blas_probe
    from wizsim.advisor.played import advice_phase

    skip_blas_probe()
    from wizsim.advisor.trump import is_trump_question

    if game is not None:
        policy = game_policy(game, policy, play_noise, hand, trump, seat, players, bids, played, hook, trump_card)
    advice_ext = kernels_ext(f"{policy or DEFAULT_OPPONENTS},{play or PLAYER_POLICY}")

    if is_trump_question(trump, trump_card, seat, players, bids):
        from wizsim.advisor import advise_trump
        from wizsim.advisor.kernels.candidate_rounds import candidate_rounds_kernel

        if played or play_trust is not None:
            raise click.UsageError("the dealer names the trump before any card is played: leave out --played "
                                   "and --play-trust")
        if trump_trust is not None:
            raise click.UsageError("--trump-trust weighs the suit an opponent dealer named: leave it out of the "
                                   "dealer's own question")
        if seat_doubt is not None:
            raise click.UsageError("--seat-doubt is for the seats heard bidding: the dealer names the trump "
                                   "before any bid")
        announce_compile("trump advice", candidate_rounds_kernel, ext=advice_ext)
        echo(run_interruptibly(lambda: advise_trump(hand, seat, players, bids=bids, hook=hook, samples=samples,
                                                    seed=seed, policy=policy, play=play, bid_trust=bid_trust,
                                                    play_noise=play_noise, doubt=doubt, explain=explain)),
             as_json)
        return
    if advice_phase(bids, seat, players) == "play":
        from wizsim.advisor import advise_play
        from wizsim.advisor.play import play_kernels

        announce_compile("play advice", *play_kernels(), ext=advice_ext)
        echo(run_interruptibly(lambda: advise_play(hand, trump, seat, players, bids=bids, played=played or "",
                                                   hook=hook, trump_card=trump_card, samples=samples, seed=seed,
                                                   policy=policy, play=play, bid_trust=bid_trust,
                                                   play_trust=play_trust, play_noise=play_noise, doubt=doubt,
                                                   seat_doubt=seat_doubt, explain=explain,
                                                   trump_trust=trump_trust)),
             as_json)
        return
    if played:
        raise click.UsageError(f"--played is for play advice, once the bidding is over: give all {players} bids "
                               f"in --bids (seat 1 first, yours included)")
    from wizsim.advisor import advise as advise_bid
    from wizsim.advisor.kernels.candidate_rounds import candidate_rounds_kernel
    from wizsim.policies.model import bid_weight

    # round 1 is enumerated
    announce_compile("bid advice", bid_weight if len(hand) == 1 else candidate_rounds_kernel, ext=advice_ext)
    if play_trust is not None:
        raise click.UsageError("--play-trust is for play advice (the cards the opponents chose): give all "
                               f"{players} bids in --bids")
    echo(run_interruptibly(lambda: advise_bid(hand, trump, seat, players, bids=bids, hook=hook, trump_card=trump_card,
                                              samples=samples, seed=seed, policy=policy, play=play,
                                              bid_trust=bid_trust, play_noise=play_noise, doubt=doubt,
                                              seat_doubt=seat_doubt, explain=explain, trump_trust=trump_trust)),
         as_json)


@main.command(epilog=epilog("wizsim tournament --players 4 --policies heuristic,random --games 20000 --seed 1"))
@click.option("--players", type=PLAYERS, default=DEFAULT_PLAYERS, show_default=True, help="Players at the table.")
@click.option("--policies", required=True, callback=policy_names_given, help=f"Comma list, one policy per player (repeats allowed) of {POLICY_NAMES}, "
              "e.g. heuristic,random,random,random; a shorter list repeats to fill the table (heuristic,random = "
              "heuristic,random,heuristic,random).")
@click.option("--games", type=COUNT, default=DEFAULT_TOURNAMENT_GAMES, show_default=True,
              help="Games in all, counting every rotation of the policies (rounded up to whole deals).")
@click.option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True, help="Run seed.")
@click.option("--hook", is_flag=True, help="Hook variant: the bids may not add up to the round size.")
@click.option("--threads", type=COUNT, default=None, show_default="all cores", help="Threads.")
@engine_options("Play the chunks of deals here or on a Dask cluster (the same result).")
@decision_timeout_option
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@bad_input_is_usage_error
def tournament(players, policies, games, seed, hook, threads, engine, scheduler, workers, decision_timeout, as_json):
    """Whole games between policies: every policy in every seat equally often, on shared deals.

    With --engine dask the deals are played on a Dask cluster (--scheduler ADDRESS, or a local one of
    --workers N) and the result is the local one, identical; your own players (FILE.py:NAME or
    package.module:NAME) are loaded on the workers by that path.
    """
    from wizsim._dask import check_engine_options
    from wizsim.config import ConfigError
    from wizsim.sim.kernels import simulate_games_kernel
    from wizsim.tournament import run_tournament

    check_engine_options(engine, scheduler, workers, ENGINES, ConfigError)  # before a bar is drawn
    if engine == "dask" and scheduler is None:
        quiet_local_cluster_exit()
    from wizsim.policies import seat_policies

    names = seat_policies(policies, players)
    announce_compile("tournament", simulate_games_kernel, ext=kernels_ext(names))
    say_long_estimate(players, names, games, "game", None, threads)
    with progress_bar(games, "game") as bar:
        result = run_interruptibly(lambda: run_tournament(players, policies, games, seed=seed, hook=hook,
                                                          threads=threads, progress=bar.update, engine=engine,
                                                          scheduler=scheduler, workers=workers,
                                                          decision_timeout=decision_timeout))
    echo(result, as_json)


def game_policy(path, policy, play_noise, hand, trump, seat, players, bids, played, hook, trump_card) -> str | None:
    """``advise --game``: the opponents' model learned from the record's finished rounds, as a --policy (a
    ``--policy`` given is the model each player's cards are read against, its noise learned on top)."""
    from wizsim.advisor.played import advice_phase, make_play_question
    from wizsim.advisor.table_fit import learnable_model, learned_policy
    from wizsim.record import GameRecord

    if play_noise is not None:
        raise click.UsageError("--game learns each player's play noise from the game: leave out --play-noise")
    model = DEFAULT_OPPONENTS
    if policy is not None:
        try:
            model = learnable_model(policy.strip())
        except ValueError as err:
            raise click.UsageError(f"--game --policy: {err}") from None
    r = len(hand)
    if advice_phase(bids, seat, players) == "play":  # the question checked first: its own error, if any
        r = make_play_question(hand, trump, seat, players, bids=bids, played=played, hook=hook,
                               trump_card=trump_card).r
    names = learned_policy(GameRecord.load(path), seat, players, r=r, model=model)
    return policy if names is None else ",".join(names)


@main.command(epilog=epilog("wizsim review game.json --json"))
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--samples", type=COUNT, default=None, show_default="1000",
              help="Simulated deals per decision (the same for every decision, so the review is reproducible).")
@click.option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True, help="Seed of every decision's advice.")
@click.option("--policy", default=None, callback=policy_names_given, show_default=DEFAULT_OPPONENTS,
              help=f"The opponents' model, as for advise: one policy or one per other seat, of {POLICY_NAMES}.")
@click.option("--play", default=None, callback=policy_names_given, show_default=PLAYER_POLICY,
              help="The policy that plays the reviewed player's later cards in the simulations.")
@click.option("--round", "rounds", type=COUNT, multiple=True, help="Review only this round (repeatable).")
@click.option("--learn/--no-learn", default=True, show_default=True,
              help="Ask each decision with the opponents' model learned from the rounds before its round (as the "
                   "score sheet and advise --game do); --no-learn asks them untold. A --policy is used as given.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@bad_input_is_usage_error
def review(game, samples, seed, policy, play, rounds, learn, as_json):
    """Rate every decision of the record's player (me) in a game record (docs/game-record.md; a file of
    at most 1 MiB).

    Each bid, trump named and card played (where the record has them) is compared with the advisor's
    best choice given what the player knew then: the expected points lost with a 95% interval,
    costliest first, and the mean loss per decision. A decision is lost only beyond the interval.
    """
    from wizsim.advisor.kernels.candidate_rounds import candidate_rounds_kernel
    from wizsim.advisor.play import play_kernels
    from wizsim.record import GameRecord
    from wizsim.record import review as review_game

    record = GameRecord.load(game)
    announce_compile("review", candidate_rounds_kernel, *play_kernels(),
                     ext=kernels_ext(f"{policy or DEFAULT_OPPONENTS},{play or PLAYER_POLICY}"))
    bar = {}

    def step(done: int, total: int) -> None:
        if "bar" not in bar:
            bar["bar"] = progress_bar(total, "decision")
        bar["bar"].update(done)

    try:
        result = run_interruptibly(lambda: review_game(record, samples=samples, seed=seed, policy=policy, play=play,
                                                       rounds=list(rounds) or None, progress=step, learn=learn))
    finally:
        if hasattr(bar.get("bar"), "close"):
            bar["bar"].close()
    echo(result, as_json)


@main.command(epilog=epilog("wizsim warmup"))
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Only this kind of command (repeatable): search, bid advice, play advice, trump advice, "
                   "tournament, simulate --games, simulate, datasets, vector env.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, show_default="all cores",
              help="Kinds compiled at once, each in a process of its own.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@bad_input_is_usage_error
def warmup(kinds, jobs, as_json):
    """Compile every command's kernels now, several at once, so that no later command waits.

    A first run of each kind of command on a machine compiles its kernels (seconds to a minute) and
    keeps them in Numba's cache; this runs the smallest question of each kind, as many at a time as
    there are cores. Run it once after installing (again after upgrading wizsim or Numba).
    """
    from wizsim.warmup import check_kinds
    from wizsim.warmup import warmup as warm

    kinds = check_kinds(kinds)

    def said(w):
        if not as_json:
            mark = "compiled" if w.ok else f"FAILED ({w.error})"
            click.echo(f"{w.kind:<17} {mark} in {w.seconds:,.1f} s", err=True)

    report = warm(kinds, jobs, progress=said)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(f"warmed {len(report.warmed)} kinds of command in {report.seconds:,.1f} s, {report.jobs} at a time")
    if not all(w.ok for w in report.warmed):
        raise click.ClickException("some kinds did not compile: see above")


@main.command(epilog=epilog("wizsim serve --port 8000   (then open http://127.0.0.1:8000 in a browser)"))
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on (the default answers this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port to listen on (0: any free one; the URL printed names it).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="A name the page may be opened by besides localhost, 127.0.0.1, [::1] and --host (e.g. this "
                   "machine's name on your network); repeatable. Requests for other names get 400.")
@bad_input_is_usage_error
def serve(host, port, allow_hosts):
    """Serve the advisor as a web page and a JSON API (POST /api/advise; needs pip install 'wizsim[web]')."""
    from wizsim.web import missing_web_extra

    hint = missing_web_extra()
    if hint:
        raise click.ClickException(hint)
    from wizsim.web.server import serve as run

    try:
        run(host, port, say=click.echo, allow_hosts=allow_hosts)
    except KeyboardInterrupt as stop:  # uvicorn has shut down and hands the signal on
        click.echo("\nwizsim serve: stopped", err=True)
        sys.exit(143 if isinstance(stop, Terminated) else 130)


if __name__ == "__main__":
    main()
