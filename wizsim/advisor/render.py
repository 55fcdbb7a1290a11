"""The advisor's answer as text a player reads at a glance: a table, the recommended bid standing out,
and the distribution of tricks for that bid as a small bar chart."""

from __future__ import annotations

import click

from wizsim.advisor.advice import Advice

BAR_WIDTH = 30


def _signed(x: float | None) -> str:
    return "?" if x is None else f"{x:+.1f}"


def render_advice(a: Advice) -> str:
    q = a.question
    bids = "unknown" if q["earlier_bids"] is None else (",".join(map(str, q["earlier_bids"])) or "none (you bid first)")
    turned = f" (turned up {q['trump_card']})" if q["trump_card"] else ""
    lines = [
        f"Hand {q['hand']}  |  seat {q['seat']} of {q['players']}"
        f"{' (dealer)' if q['seat'] == q['players'] else ''}  |  trump {q['trump']}{turned}  |  "
        f"earlier bids {bids}  |  hook {'on' if q['hook'] else 'off'}",
        f"Opponents play the {a.policy} policy; your cards are played to make your bid ({a.player_policy} play).",
        "",
        f"  {'bid':>3}  {'P(make it)':>10}  {'exp. score':>10}  {'95% interval':>16}  {'exp. tricks':>11}",
    ]
    for row in a.rows():
        b = row["bid"]
        interval = "exact" if a.method == "exact" else f"[{_signed(row['ev_low'])}, {_signed(row['ev_high'])}]"
        text = (f"{row['p_exact']:>10.1%}  {_signed(row['ev']):>10}  {interval:>16}  "
                f"{row['expected_tricks']:>11.2f}")
        if b == a.best_bid:
            lines.append(click.style(f"> {b:>3}  {text}   <- bid {b}", bold=True))
        elif not row["allowed"]:
            lines.append(click.style(f"x {b:>3}  {text}   (the hook forbids it)", dim=True))
        else:
            lines.append(f"  {b:>3}  {text}")
    best = a.best_bid
    lines += ["", click.style(f"Recommended bid: {best}", bold=True)
              + f"  (makes it {a.p_exact[best]:.1%} of the time, expected score {_signed(a.ev[best])})",
              f"Tricks taken when you bid {best}:"]
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
    lines.append("")
    lines.append(_method_line(a))
    return "\n".join(lines)


def _method_line(a: Advice) -> str:
    if a.method == "exact":
        how = f"Exact: round 1 play is forced, all {a.samples:,} deals consistent with what you know were enumerated"
    else:
        how = f"Monte Carlo: {a.samples:,} simulated deals per bid, the same deals for every bid (seed {a.seed})"
        if a.conditioned:
            how += (f"; conditioned on what the opponents revealed: {a.samples:,} of {a.tried:,} deals accepted "
                    f"(effective sample size {a.ess:,})")
    q = a.question
    if q["earlier_bids"] and not a.conditioned and a.policy == "random":
        how += "; the random policy bids without looking at its cards, so the earlier bids say nothing about them"
    return f"{how}. {a.seconds:.2f} s."
