"""The ``wizsim`` command line: parse input, make one library call, render the result.

Exit status: 0 on success, 2 on bad input (a one-line ``Error: ...`` naming the problem), 1 on an
unexpected failure. Results go to stdout; progress bars and warnings to stderr.
"""

from __future__ import annotations

import functools
import json
import sys

import click

from wizsim.cards import CardError, card_ids, parse_trump

EXIT_HELP = "\b\nExit status: 0 success, 2 bad input, 1 unexpected failure."


class HandType(click.ParamType):
    name = "HAND"

    def convert(self, value, param, ctx):
        try:
            return card_ids(value, None)
        except CardError as err:
            self.fail(str(err), param, ctx)


class TrumpType(click.ParamType):
    name = "TRUMP"

    def convert(self, value, param, ctx):
        try:
            return parse_trump(value, None)
        except CardError as err:
            self.fail(str(err), param, ctx)


def bad_input_is_usage_error(fn):
    """Turn the library's ValueErrors (bad cards, options out of range) into click's exit-2 errors."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError as err:
            raise click.UsageError(str(err)) from None

    return wrapper


def emit_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, allow_nan=True))


def announce_compile(*kernels) -> None:
    """On a terminal, say why a first run on this machine (an empty Numba cache) sits silent for a while."""
    from wizsim._jit import needs_compile

    if sys.stderr.isatty() and needs_compile(*kernels):
        click.echo("Compiling wizsim's kernels for this machine: once, about 10-20 s; later runs load them "
                   "from Numba's cache.", err=True)


def progress_bar(total: int, unit: str, enabled: bool | None = None):
    """A tqdm bar on stderr with rate and ETA; off when stderr is not a terminal (unless forced)."""
    from tqdm import tqdm

    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=not enabled, dynamic_ncols=True)


@click.group(epilog=EXIT_HELP)
@click.version_option(package_name="wizsim")
def main():
    """wizsim: simulate the card game Wizard, advise bids, compare strategies."""


@main.command(epilog=EXIT_HELP)
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True, help="Players at the table.")
@click.option("--round", "round_size", type=int, default=None, help="Cards per player (one size per run).")
@click.option("--rounds", type=click.IntRange(min=1), default=None, help="How many rounds  [default: 100000].")
@click.option("--games", type=click.IntRange(min=1), default=None, help="Play this many whole games instead.")
@click.option("--policy", default=None, help="Policy for every seat (default random).")
@click.option("--policies", default=None, help="Comma list, one policy per seat (per player with --games); a shorter list repeats to fill the table.")
@click.option("--hook", is_flag=True, help="Hook variant: the bids may not add up to the round size.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Run seed.")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Threads (default: all cores).")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Write a Parquet dataset to this folder.")
@click.option("--trick-log", is_flag=True, help="With --out: also write the tricks table (one row per trick).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="With --out: rounds (games with --games) per file  [default: 1048576 rounds, 65536 games].")
@click.option("--overwrite", is_flag=True, help="With --out: replace a different run's data in the folder.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="With --out: run the chunks here or on a Dask cluster.")
@click.option("--scheduler", default=None, help="With --engine dask: the scheduler address (tcp://host:8786).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --engine dask: start a local cluster of N workers.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@bad_input_is_usage_error
def simulate(players, round_size, rounds, games, policy, policies, hook, seed, threads, out, trick_log, chunk_size,
             overwrite, engine, scheduler, workers, as_json):
    """Simulate many rounds (--round R --rounds N) or whole games (--games N) and summarise them.

    With --out DIR the rounds go to a Parquet dataset in DIR instead (rerun the same command to
    resume an interrupted run); the summary then describes what was written.
    """
    from wizsim.sim.summary import summarize

    if policy and policies:
        raise click.UsageError("give --policy (every seat) or --policies (one per seat), not both")
    names = policies or policy or "random"
    if games is None and round_size is None:
        raise click.UsageError("give --round R (cards per player) or --games N (whole games)")
    if games is not None and round_size is not None:
        raise click.UsageError("--round and --games do not go together: a game plays every round size")
    if games is not None and rounds is not None:
        raise click.UsageError("--rounds and --games do not go together: --games N plays N whole games")
    if rounds is None:
        rounds = 100_000
    dataset_only = {"--trick-log": trick_log, "--chunk-size": chunk_size, "--overwrite": overwrite,
                    "--engine dask": engine != "local", "--scheduler": scheduler, "--workers": workers}
    if out is None and any(dataset_only.values()):
        given = ", ".join(k for k, v in dataset_only.items() if v)
        raise click.UsageError(f"{given}: these options need --out DIR")
    total = games if games is not None else rounds
    from wizsim.sim.kernels import simulate_games_kernel, simulate_rounds_kernel

    main_kernel = simulate_games_kernel if games is not None else simulate_rounds_kernel
    if out is not None:
        from wizsim.dataset.kernels import expand_round_rows, expand_trick_rows
        from wizsim.dataset.run import write_dataset

        announce_compile(main_kernel, expand_round_rows, *([expand_trick_rows] if trick_log else []))

        try:
            with progress_bar(total, "game" if games else "round") as bar:
                report = write_dataset(out, players, r=round_size, rounds=None if games else rounds, games=games,
                                       policies=names, hook=hook, seed=seed, trick_log=trick_log,
                                       chunk_size=chunk_size, engine=engine, threads=threads, overwrite=overwrite,
                                       scheduler=scheduler, workers=workers, progress=bar.update)
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: {out} holds only complete files; run the same command again to resume.",
                       err=True)
            sys.exit(130)
        if as_json:
            emit_json(report.to_dict())
        else:
            click.echo(render_dataset_report(report))
        return
    announce_compile(main_kernel)
    with progress_bar(total, "game" if games else "round") as bar:
        summary = summarize(players, r=round_size, rounds=rounds, games=games, policies=names, hook=hook,
                            seed=seed, threads=threads, progress=bar.update)
    if as_json:
        emit_json(summary.to_dict())
    else:
        click.echo(render_summary(summary))


def render_dataset_report(rep) -> str:
    done = (f"wrote {rep.chunks_written} of {rep.chunks} chunks ({rep.units_written:,} {rep.unit}s, "
            f"{rep.files_written} files, {rep.bytes_written / 1e6:,.1f} MB) in {rep.seconds:.2f} s, "
            f"{rep.units_per_second:,.0f} {rep.unit}s/s")
    lines = [f"dataset {rep.out} (run {rep.run_id}): {done}"]
    if rep.chunks_skipped:
        lines.append(f"{rep.chunks_skipped} chunks were already complete (resumed)")
    lines.append(f"re-create with: {rep.command}")
    return "\n".join(lines)


def render_summary(s) -> str:
    what = f"{s.games:,} games ({s.rounds:,} rounds)" if s.mode == "games" else f"{s.rounds:,} rounds of {s.round} cards"
    lines = [
        f"{what}, {s.players} players, policies {','.join(s.policies)}, hook {'on' if s.hook else 'off'}, seed {s.seed}",
        "",
        f"{'seat':>4}  {'mean bid':>9}  {'mean tricks':>11}  {'mean score':>10}  {'exact bid':>9}",
    ]
    for i in range(s.players):
        lines.append(f"{i + 1:>4}  {s.mean_bid_by_seat[i]:>9.3f}  {s.mean_tricks_by_seat[i]:>11.3f}  "
                     f"{s.mean_score_by_seat[i]:>10.2f}  {s.exact_bid_share_by_seat[i]:>9.1%}")
    if s.mode == "games":
        lines += ["", f"{'player':>6}  {'mean total':>10}  {'win share':>9}"]
        for i in range(s.players):
            lines.append(f"{i + 1:>6}  {s.mean_total_by_player[i]:>10.1f}  {s.win_share_by_player[i]:>9.1%}")
    lines += [
        "",
        f"no-trump share (rounds with a turn-up): {s.no_trump_share:.4f}",
        f"{s.rounds_per_second:,.0f} rounds/s, {s.card_plays_per_second:,.0f} card plays/s ({s.seconds:.2f} s)",
    ]
    return "\n".join(lines)


@main.command(epilog=EXIT_HELP)
@click.option("--hand", type=HandType(), required=True, help='Your cards, e.g. "W,AS,3H" (W Wizard, J Jester, JS the Jack).')
@click.option("--trump", type=TrumpType(), default=None, help="Trump: S, H, D, C or none (implied by --trump-card).")
@click.option("--seat", type=int, required=True, help="Your seat: 1 bids first, the last seat deals.")
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True, help="Players at the table.")
@click.option("--bids", default=None, help='Bids already made by seats 1..seat-1, e.g. "1,0".')
@click.option("--hook", is_flag=True, help="Hook variant: the dealer may not bid so that the bids add up to the round size.")
@click.option("--trump-card", default=None, help="The turned-up card, when you know it (a W: --trump is the dealer's suit).")
@click.option("--samples", type=click.IntRange(min=1), default=None, help="Deals to simulate (default: until the best bid is clear).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None, help="Seed, for a reproducible answer.")
@click.option("--policy", default=None, help="The opponents' policy (default heuristic).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@bad_input_is_usage_error
def advise(hand, trump, seat, players, bids, hook, trump_card, samples, seed, policy, as_json):
    """Advise a bid: for every bid, the chance of making it and the expected score."""
    from wizsim._startup import skip_blas_probe
    from wizsim.advisor import advise as advise_bid
    from wizsim.advisor.render import render_advice

    skip_blas_probe()
    from wizsim.sim.candidates import candidate_rounds_kernel, choice_frequencies

    announce_compile(choice_frequencies if len(hand) == 1 else candidate_rounds_kernel)  # round 1 is enumerated
    advice = advise_bid(hand, trump, seat, players, bids=bids, hook=hook, trump_card=trump_card, samples=samples,
                        seed=seed, policy=policy)
    if as_json:
        emit_json(advice.to_dict())
    else:
        click.echo(render_advice(advice))



@main.command(epilog=EXIT_HELP)
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True, help="Players at the table.")
@click.option("--policies", required=True, help="Comma list, one policy per player (repeats allowed), e.g. heuristic,random,random,random; a shorter list repeats to fill the table (heuristic,random = heuristic,random,heuristic,random).")
@click.option("--games", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Games in all, counting every rotation of the policies (rounded up to whole deals).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Run seed.")
@click.option("--hook", is_flag=True, help="Hook variant: the bids may not add up to the round size.")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@bad_input_is_usage_error
def tournament(players, policies, games, seed, hook, threads, as_json):
    """Whole games between policies: every policy in every seat equally often, on shared deals."""
    from wizsim.sim.kernels import simulate_games_kernel
    from wizsim.tournament import render_tournament, run_tournament

    announce_compile(simulate_games_kernel)
    with progress_bar(games, "game") as bar:
        result = run_tournament(players, policies, games, seed=seed, hook=hook, threads=threads, progress=bar.update)
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo(render_tournament(result))

if __name__ == "__main__":
    main()
