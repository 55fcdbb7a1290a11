"""Every text renderer of the command line, and the one "text or JSON" switch (``render``).

The library returns results (``Summary``, ``RunReport``, ``TournamentResult``, ``Advice``,
``PlayAdvice``); each has
``to_dict()`` for JSON and a text renderer here. Commands call ``render(result, as_json)``. Modules
are found by the result's class name, so rendering advice does not import pandas or the tournament.
"""

from __future__ import annotations

import json

import click
import numpy as np

from wizsim.stats import json_safe


def _named_trust(q: dict, a) -> str:
    """", named suit trusted X" where an opponent dealer named the trump on a turned-up Wizard (what it is
    trusted as evidence of its hand: ``advisor.opponents.DEFAULT_TRUMP_TRUST``), else nothing."""
    named = q.get("trump_card") == "W" and q["seat"] != q["players"]
    return f", named suit {a.trump_trust:g}" if named else ""


def render(result, as_json: bool = False) -> str:
    """``result`` as one JSON object (``to_dict()``) or as the text a person reads."""
    if as_json:
        return json.dumps(json_safe(result.to_dict()), indent=2, allow_nan=False)
    return TEXT_RENDERERS[type(result).__name__](result)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun agreeing with it: ``1 game``, ``2 games``, ``1,000 rounds``."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def took(seconds: float, compiled: float, digits: int = 2) -> str:
    """An answer's or a run's time as printed: the work alone, and the compiling it waited for said apart
    (a first run on a machine compiles the kernels once; that is not the answer's time)."""
    out = f"{seconds:.{digits}f} s"
    if compiled >= 0.5:
        out += f" (and {compiled:,.1f} s compiling or loading kernels first, not counted)"
    return out


def render_dataset_report(rep) -> str:
    rate = "" if rep.units_per_second != rep.units_per_second else f", {rep.units_per_second:,.0f} {rep.unit}s/s"
    done = (f"wrote {rep.chunks_written} of {plural(rep.chunks, 'chunk')} ({plural(rep.units_written, rep.unit)}, "
            f"{plural(rep.files_written, 'file')}, {rep.bytes_written / 1e6:,.1f} MB) in {took(rep.seconds, rep.compile_seconds)}{rate}")
    lines = [f"dataset {rep.out} (run {rep.run_id}): {done}"]
    if rep.recovered:
        lines.append("the run file _wizsim_run.json was lost: recovered the run from its files' own metadata")
    if rep.chunks_skipped:
        how = [f"{plural(rep.files_verified, 'file')} by the digest in the run file"] if rep.files_verified else []
        if rep.files_decoded:
            how.append(f"{plural(rep.files_decoded, 'file')} with no digest recorded (an older wizsim's, or "
                       "written just before a kill) by decoding every page and its checksum where written; their "
                       "digests are now recorded")
        lines.append(f"{plural(rep.chunks_skipped, 'chunk was', 'chunks were')} already complete and verified "
                     f"(resumed): {'; '.join(how)}")
    if rep.chunks_rewritten:
        n, files = len(rep.chunks_rewritten), rep.rewritten
        listed = "; ".join(files[:3]) + (f"; and {len(files) - 3} more" if len(files) > 3 else "")
        lines.append(f"rewrote {plural(n, 'damaged chunk')}: {listed}")
    lines.append(f"re-create with: {rep.command}")
    return "\n".join(lines)


def render_summary(s) -> str:
    what = (f"{plural(s.games, 'game')} ({plural(s.rounds, 'round')})" if s.mode == "games"
            else f"{plural(s.rounds, 'round')} of {plural(s.round, 'card')}")
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
        "no-trump share (rounds with a turn-up): "
        + ("n/a, last round" if s.no_trump_share != s.no_trump_share else f"{s.no_trump_share:.4f}"),
        f"{s.rounds_per_second:,.0f} rounds/s, {s.card_plays_per_second:,.0f} card plays/s ({took(s.seconds, s.compile_seconds)})",
    ]
    return "\n".join(lines)


def render_tournament(res) -> str:
    """The result tables a person reads: one line per policy, then bid accuracy by round size."""
    w = max([12, *(len(n) for n in res.summary.name)])  # a user's player may have a long name
    lines = [
        f"{plural(res.n_games, 'game')} ({plural(res.n_deals, 'deal')} x {plural(res.rotations, 'rotation')}), "
        f"{res.players} players, table {','.join(res.policies)}, hook {'on' if res.hook else 'off'}, seed {res.seed}",
        "",
        f"{'policy':<{w}} {'seats':>5} {'mean score':>10} {'95% interval':>19} {'win rate':>8} {'exact bid':>9} {'|bid-tricks|':>12}",
    ]
    for row in res.summary.itertuples(index=False):
        interval = "-" if np.isnan(row.score_low) else f"[{_num(row.score_low)}, {_num(row.score_high)}]"
        lines.append(f"{row.name:<{w}} {row.seats_per_game:>5} {row.mean_score:>10.1f} {interval:>19} "
                     f"{row.win_rate:>8.1%} {row.bid_accuracy:>9.1%} {row.mean_abs_bid_error:>12.3f}")
    if res.differences is not None and len(res.differences):
        lines += ["", f"paired differences (points per game; 95% interval over {plural(res.n_deals, 'deal')}):"]
        for row in res.differences.itertuples(index=False):
            interval = "-" if np.isnan(row.low) else f"[{_signed(row.low)}, {_signed(row.high)}]"
            lines.append(f"  {row.a} - {row.b}: {_signed(row.mean)} {interval}")
    names = list(res.summary.name)
    lines += ["", "exact bid / mean |bid - tricks| by round size", f"{'round':>5}  " + "  ".join(f"{n:>{max(20, len(n))}}" for n in names)]
    table = res.by_round.set_index(["round", "policy"])
    for r in sorted(res.by_round["round"].unique()):
        cells = [f"{table.loc[(r, n), 'bid_accuracy']:>11.1%} / {table.loc[(r, n), 'mean_abs_bid_error']:>5.2f}"
                 for n in names]
        lines.append(f"{r:>5}  " + "  ".join(f"{c:>{max(20, len(n))}}" for c, n in zip(cells, names, strict=True)))
    return "\n".join(lines)


BAR_WIDTH = 30


def _signed(x: float | None) -> str:
    """``+1.2``, ``-0.3``; a value that rounds to zero prints ``+0.0``, never ``-0.0``."""
    return "?" if x is None else f"{(round(x, 1) or 0.0):+.1f}"


def render_advice(a) -> str:
    q = a.question
    bids = "unknown" if q["earlier_bids"] is None else (",".join(map(str, q["earlier_bids"])) or "none (you bid first)")
    turned = f" (turned up {q['trump_card']})" if q["trump_card"] else ""
    lines = [
        f"Hand {q['hand']}  |  seat {q['seat']} of {q['players']}"
        f"{' (dealer)' if q['seat'] == q['players'] else ''}  |  trump {q['trump']}{turned}  |  "
        f"earlier bids {bids}  |  hook {'on' if q['hook'] else 'off'}",
        f"Opponents modelled as {a.policy} (bids trusted {a.bid_trust:g}{_named_trust(q, a)}, play noise "
        f"{a.play_noise:g}, doubt "
        f"{a.doubt:g}, seat doubt {a.seat_doubt:g}); your cards are played to make your bid ({a.player_policy} play).",
        "",
        f"  {'bid':>3}  {'P(make it)':>10}  {'exp. score':>10}  {'95% interval':>16}  {'exp. tricks':>11}",
    ]
    for row in a.rows():
        b = row["bid"]
        interval = "exact" if a.method == "exact" else f"[{_signed(row['ev_low'])}, {_signed(row['ev_high'])}]"
        text = (f"{row['p_exact']:>10.1%}  {_signed(row['ev']):>10}  {interval:>16}  "
                f"{row['expected_tricks']:>11.2f}")
        close = a.close_call and b in a.close_call
        if b == a.best_bid:
            lines.append(click.style(f"> {b:>3}  {text}   <- bid {b}{' (close call)' if close else ''}", bold=True))
        elif close:
            lines.append(f"~ {b:>3}  {text}   (within precision of bid {a.best_bid})")
        elif not row["allowed"]:
            lines.append(click.style(f"x {b:>3}  {text}   (the hook forbids it)", dim=True))
        else:
            lines.append(f"  {b:>3}  {text}")
    best = a.best_bid
    lines += ["", click.style(f"Recommended bid: {best}", bold=True)
              + f"  (makes it {a.p_exact[best]:.1%} of the time, expected score {_signed(a.ev[best])})"]
    if a.close_call:
        others = [str(b) for b in a.close_call if b != best]
        lines.append(f"Close call: bid {best} and bid {' and '.join(others)} are not separated at this precision "
                     f"(the paired interval of their score difference includes 0); {best} has the higher "
                     f"estimate{', but another seed may pick otherwise' if a.capped else ''}.")
    lines.append(f"Tricks taken when you bid {best}:")
    dist = a.p_tricks[best]
    top = max(float(dist.max()), 1e-12)
    # A 15-card hand would print a dozen rows of 0.0%: show only the counts that happened (and the bid).
    seen = [t for t, p in enumerate(dist) if p > 0] + [best]
    lo, hi = min(seen), max(seen)
    for t in range(lo, hi + 1):
        p = float(dist[t])
        bar = "#" * int(round(BAR_WIDTH * p / top))
        mark = " <- your bid" if t == best else ""
        lines.append(f"  {t:>2} | {bar:<{BAR_WIDTH}} {p:6.1%}{mark}")
    if lo > 0 or hi < len(dist) - 1:
        never = [f"{x}" if x == y else f"{x}..{y}" for x, y in ((0, lo - 1), (hi + 1, len(dist) - 1)) if x <= y]
        lines.append(f"     ({' and '.join(never)} tricks: never seen)")
    lines += why_lines(a.reasons)
    lines.append("")
    lines.append(_method_line(a))
    return "\n".join(lines)


def _method_line(a) -> str:
    if a.method == "exact":
        how = f"Exact: round 1 play is forced, all {a.samples:,} deals consistent with what you know were enumerated"
    else:
        how = f"Monte Carlo: {a.samples:,} simulated deals per bid, the same deals for every bid (seed {a.seed})"
        if a.timed_out:
            how += ("; stopped at the time limit before the best bid was clear (the deal count then depends on "
                    "the machine, not only the seed)")
        elif a.capped:
            how += "; stopped at the work budget (about 3 s) before the best bid was clear"
        if a.conditioned:
            how += (f"; weighed by what the opponents revealed: {a.samples:,} of {a.tried:,} deals kept "
                    f"(effective sample size {a.ess:,.0f})")
    q = a.question
    if q["earlier_bids"] and not a.conditioned:
        how += "; under the opponents' model their bids say nothing about their cards"
    out = f"{how}. {took(a.seconds, a.compile_seconds)}."
    return out + (f"\nWarning: {a.warning}." if a.warning else "")


def render_play_advice(a) -> str:
    q = a.question
    me = q["seat"] - 1
    turned = f" (turned up {q['trump_card']})" if q["trump_card"] else ""
    bids = ",".join(map(str, q["bids"]))
    trick_no = sum(q["tricks_taken"]) + 1
    taken = ", ".join(f"seat {s + 1}{' (you)' if s == me else ''} {t}" for s, t in enumerate(q["tricks_taken"]))
    lines = [
        f"Hand {q['hand']}  |  seat {q['seat']} of {q['players']}{' (dealer)' if q['seat'] == q['players'] else ''}"
        f"  |  trump {q['trump']}{turned}  |  bids {bids} (yours {q['bids'][me]})  |  hook {'on' if q['hook'] else 'off'}",
        f"Played: {q['played'] or 'nothing yet'}  |  trick {trick_no} of {_round_size(q)}",
        f"Tricks taken: {taken}",
        f"Opponents modelled as {a.policy} (bids trusted {a.bid_trust:g}{_named_trust(q, a)}, cards "
        f"{a.play_trust:g}, play noise "
        f"{a.play_noise:g}); your later "
        f"cards are played to make your bid ({a.play} play).",
        "",
        f"  {'card':>4}  {'P(make bid)':>11}  {'exp. score':>10}  {'95% interval':>16}  {'exp. tricks':>11}",
    ]
    best = a.best_card
    for row in a.rows():
        interval = "exact" if a.method == "exact" else f"[{_signed(row['ev_low'])}, {_signed(row['ev_high'])}]"
        text = (f"{row['card']:>4}  {row['p_make']:>11.1%}  {_signed(row['ev']):>10}  {interval:>16}  "
                f"{row['expected_tricks']:>11.2f}")
        if row["card"] == best:
            lines.append(click.style(f"> {text}   <- play {best}", bold=True))
        else:
            lines.append(f"  {text}")
    lines += why_lines(a.reasons)
    lines += ["", _play_method_line(a)]
    return "\n".join(lines)


def _round_size(q: dict) -> int:
    held = len(q["hand"].split(","))
    return held + sum(q["tricks_taken"])


def _play_method_line(a) -> str:
    if a.method == "exact":
        how = (f"Exact: all {a.tried:,} deals of the unseen cards consistent with the cards seen and the voids "
               f"shown were enumerated")
        if a.conditioned:
            how += (f"; each weighed by how likely the opponents' bids and cards are on it (effective sample size "
                    f"{a.ess:,.0f})")
    else:
        how = f"Monte Carlo: {a.samples:,} simulated deals, the same deals for every card (seed {a.seed})"
        if a.timed_out:
            how += "; stopped at the time limit (the deal count then depends on the machine, not only the seed)"
        if a.conditioned:
            how += (f"; weighed by what the opponents revealed: {a.samples:,} of {a.tried:,} drawn kept "
                    f"(effective sample size {a.ess:,.0f})")
    out = f"{how}. {took(a.seconds, a.compile_seconds)}."
    return out + (f"\nWarning: {a.warning}." if a.warning else "")


def render_trump_advice(a) -> str:
    q = a.question
    lines = [
        f"Hand {q['hand']}  |  dealer (seat {q['seat']} of {q['players']})  |  a Wizard turned up: name the trump"
        f"  |  hook {'on' if q['hook'] else 'off'}",
        f"Opponents modelled as {a.policy}; each suit is valued by your best bid's expected score.",
        "",
        f"  {'suit':>4}  {'best bid':>8}  {'exp. score':>10}  {'95% interval':>16}",
    ]
    for row in a.rows():
        interval = "exact" if a.method == "exact" else f"[{_signed(row['ev_low'])}, {_signed(row['ev_high'])}]"
        text = f"{row['suit']:>4}  {row['best_bid']:>8}  {_signed(row['ev']):>10}  {interval:>16}"
        close = a.close_call and row["suit"] in a.close_call
        if row["suit"] == a.best_suit:
            lines.append(click.style(f"> {text}   <- name {a.best_suit}{' (close call)' if close else ''}", bold=True))
        elif close:
            lines.append(f"~ {text}   (within precision of {a.best_suit})")
        else:
            lines.append(f"  {text}")
    lines += why_lines(a.reasons)
    lines.append("")
    if a.method == "exact":
        lines.append(f"Exact: round 1, all {a.samples:,} deals enumerated for each suit. {took(a.seconds, a.compile_seconds)}.")
    else:
        lines.append(f"Monte Carlo: {a.samples:,} simulated deals, the same deals for every suit and bid "
                     f"(seed {a.seed}). {took(a.seconds, a.compile_seconds)}.")
    if a.warning:
        lines.append(f"Warning: {a.warning}.")
    return "\n".join(lines)


def _chances(cards: list[dict]) -> str:
    return "  ".join(f"{x['card']} {x['p_trick']:.0%}" for x in cards)


def why_lines(reasons: dict | None) -> list[str]:
    """The "Why:" section of an explained answer (``advisor.reasons``); nothing when it was not asked."""
    if reasons is None:
        return []
    kind = reasons["kind"]
    if kind == "bid":
        best = reasons["by_bid"][reasons["bid"]]
        return ["", f"Why: each card's chance of taking a trick when you bid {reasons['bid']} (they add up to the "
                    f"expected tricks):", f"  {_chances(reasons['cards'])}  = {best['expected_tricks']:.2f} tricks"]
    if kind == "trump":
        suits = ", ".join(f"{x['suit']} {x['expected_tricks']:.2f}" for x in reasons["suits"])
        best = next(x for x in reasons["suits"] if x["suit"] == reasons["suit"])
        return ["", f"Why: expected tricks at each suit's best bid: {suits}; naming {reasons['suit']} and bidding "
                    f"{best['best_bid']}, each card's chance of taking a trick:", f"  {_chances(reasons['cards'])}"]
    c = reasons["compare"]
    if c is None:
        return []
    return ["", f"Why: {c['line']}.",
            f"  (one deal of the simulation; on {c['better']:.0%} of its deals {c['card']} scores more than "
            f"{c['other']}, on {c['worse']:.0%} less)"]


def _num(x: float | None, fmt: str = ".1f") -> str:
    """``x`` as ``fmt``; a value that rounds to zero prints without a minus sign."""
    if x is None:
        return "?"
    out = format(x, fmt)
    return out[1:] if out.startswith("-") and not out.strip("-0.") else out


def render_review(rv) -> str:
    """The review a person reads: the per-game figures, then every rated decision, costliest first."""
    who = rv.players[rv.me] if rv.players else f"player {rv.me}"
    kinds = {k: sum(d["kind"] == k for d in rv.decisions) for k in ("bid", "trump", "card")}
    counted = ", ".join(plural(v, k) for k, v in kinds.items() if v) or "none"
    lines = [f"Review of {who}'s decisions: {plural(rv.decisions_rated, 'decision')} rated ({counted})"
             + (f", {rv.skipped} not rated (no hand entered for the round)" if rv.skipped else "")]
    if rv.decisions:
        lost = len(rv.lost)
        lines.append(f"Mean loss {rv.mean_loss:.2f} points a decision; {rv.share_within_precision:.0%} within the "
                     f"advice's precision; {plural(lost, 'decision')} lost beyond the 95% interval.")
        lines += ["", "Costliest first:",
                  f"  {'round':>5}  {'kind':<5}  {'chosen':>6}  {'best':>6}  {'exp. chosen':>11}  {'exp. best':>9}  "
                  f"{'loss':>6}  {'95% interval':>16}"]
        for d in rv.decisions:
            interval = f"[{_num(d['loss_low'])}, {_num(d['loss_high'])}]"
            mark = ("lost" if d["loss_low"] is not None and d["loss_low"] > 0 else
                    "close call" if d["close_call"] else "")
            lines.append(f"  {d['round']:>5}  {d['kind']:<5}  {d['chosen']!s:>6}  {d['best']!s:>6}  "
                         f"{_signed(d['ev_chosen']):>11}  {_signed(d['ev_best']):>9}  {_num(d['loss']):>6}  "
                         f"{interval:>16}  {mark}".rstrip())
    why = [d for d in rv.decisions if d.get("reasons") and d["chosen"] != d["best"]]
    if why:
        lines += ["", "Why, where the choice was not the advised one (costliest first):"]
        for d in why:
            r = d["reasons"]
            text = r["text"] if r["kind"] != "trump" else ", ".join(
                f"{x['suit']} {x['expected_tricks']:.2f}" for x in r["suits"]) + " tricks expected at each suit's best bid"
            lines.append(f"  round {d['round']} {d['kind']}: {text}")
    shown = [x for x in rv.table if x["choices"] or x["bids"]]
    if shown:
        lines += ["", "How each player played: the heuristic's card and the heuristic's bid, of its choices in the "
                      "finished rounds:",
                  f"  {'player':<12}  {'its card':>13}  {'play noise':>10}  {'its bid':>9}  {'bid shift':>9}  {'blind':>6}"]
        for x in shown:
            cards = f"{x['model_cards']}/{x['choices']}" if x["choices"] else "-"
            bids = f"{x['model_bids']}/{x['bids']}" if x["bids"] else "-"
            lines.append(f"  {x['player'][:12]:<12}  {cards:>13}  {x['play_noise']:>10.2f}  {bids:>9}  "
                         f"{x['bid_shift']:>+9.1f}  {x['blind']:>6.0%}")
    if rv.learned:
        lines += ["", "Asked with the opponents' model learned from the earlier rounds (their play "
                      "noise): " + "; ".join(f"round {r}: {', '.join(names)}" for r, names in rv.learned.items())]
    lines += ["", f"Each decision: {rv.samples:,} simulated deals (exact where the advisor enumerates), the same "
                  f"deals for every choice, seed {rv.seed}. {took(rv.seconds, rv.compile_seconds, 1)}."]
    return "\n".join(lines)


TEXT_RENDERERS = {"Review": render_review, "TrumpAdvice": render_trump_advice, "Summary": render_summary, "RunReport": render_dataset_report,
                  "TournamentResult": render_tournament, "Advice": render_advice, "PlayAdvice": render_play_advice}
