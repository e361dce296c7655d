"""The story of a game as a picture: cumulative totals round by round, as inline SVG.

Drawn on the server, so it needs no script; every line has its own colour, dash and
marker (told apart without colour), and the same numbers are given as a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe

from scorekeeping.models import Game

# Colour-blind-safe (Okabe-Ito) colours, each with its own dash pattern and marker.
STYLES = [
    ("#0072B2", "", "circle"),
    ("#D55E00", "6 3", "square"),
    ("#009E73", "2 3", "diamond"),
    ("#CC79A7", "8 3 2 3", "triangle"),
    ("#E69F00", "4 4", "circle"),
    ("#56B4E9", "1 2", "square"),
    ("#000000", "10 4", "diamond"),
    ("#999999", "3 2 8 2", "triangle"),
]


@dataclass(frozen=True)
class Series:
    name: str
    totals: list[int]  # after each recorded round
    colour: str = ""  # the player's colour (a palette key): drawn by the stylesheet, light or dark


def cumulative(game: Game) -> tuple[list[int], list[Series]]:
    """Round numbers and each player's running total after them (from prefetched rounds)."""
    rounds = list(game.rounds.all())
    series = []
    for player in game.players.all():
        total, totals = 0, []
        for rnd in rounds:
            total += next((s.points for s in rnd.scores.all() if s.player_id == player.pk), 0)
            totals.append(total)
        series.append(Series(player.name, totals, player.colour))
    return [r.number for r in rounds], series


def _marker(kind: str, x: float, y: float, paint: str) -> str:
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6"{paint}/>'
    if kind == "diamond":
        d = f"M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y:.1f}L{x:.1f} {y + 4:.1f}L{x - 4:.1f} {y:.1f}Z"
        return f'<path d="{d}"{paint}/>'
    if kind == "triangle":
        return f'<path d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y + 3:.1f}L{x - 4:.1f} {y + 3:.1f}Z"{paint}/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3"{paint}/>'


def totals_svg(
    numbers: list[int],
    series: list[Series],
    *,
    title: str,
    round_word: str,
    from_zero: bool = True,
    ident: str = "chart",
) -> SafeString:
    """A line chart 340 units wide that scales to the phone's width; each line starts at 0 before
    the first step (running totals), or at its first value (``from_zero=False``: averages).
    ``ident``: the id its title takes (two charts on one page need two)."""
    # The plot, then the round numbers and the axis title under it, then the legend in rows
    # of three below that: nothing is drawn over anything else, whatever the number of players.
    width, plot_h = 340, 148
    left, right, top = 36, 10, 12
    legend_top = top + plot_h + 46
    height = legend_top + 14 * ((len(series) + 2) // 3)
    plot_w = width - left - right
    highest = max([t for s in series for t in s.totals] + [0])
    lowest = min([t for s in series for t in s.totals] + [0])
    span = max(highest - lowest, 1)
    steps = len(numbers)

    def x(i: int) -> float:
        return left + (plot_w * i / steps if steps else 0)

    def y(value: int) -> float:
        return top + plot_h - plot_h * (value - lowest) / span

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="{ident}-title" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="{ident}-title">{escape(title)}</title>',
        f'<line x1="{left}" y1="{y(lowest):.1f}" x2="{width - right}" y2="{y(lowest):.1f}" class="axis"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" class="axis"/>',
    ]
    for value in sorted({lowest, highest, (lowest + highest) // 2}):
        parts.append(f'<text x="{left - 4}" y="{y(value) + 4:.1f}" class="tick" text-anchor="end">{value}</text>')
        parts.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{width - right}" y2="{y(value):.1f}" class="grid"/>')
    for i, number in enumerate(numbers, start=1):
        parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 14}" class="tick" text-anchor="middle">{number}</text>')
    label_x, label_y = left + plot_w / 2, top + plot_h + 28
    parts.append(f'<text x="{label_x:.1f}" y="{label_y}" class="tick" text-anchor="middle">{escape(round_word)}</text>')
    for k, s in enumerate(series):
        colour, dash, marker = STYLES[k % len(STYLES)]
        # A player's own colour comes from the stylesheet (class pc-<key>: --pc, light or dark);
        # a series without one takes the fixed colour of its place.
        stroke, fill = (' class="ln"', ' class="mk"') if s.colour else (f' stroke="{colour}"', f' fill="{colour}"')
        parts.append(f'<g class="series pc-{escape(s.colour)}">' if s.colour else "<g>")
        points = [(x(0), y(0))] if from_zero else []
        points += [(x(i), y(t)) for i, t in enumerate(s.totals, start=1)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{path}" fill="none"{stroke} stroke-width="2.5"{dash_attr}/>')
        parts += [_marker(marker, px, py, fill) for px, py in points[1 if from_zero else 0 :]]
        lx, ly = left + (k % 3) * 105, legend_top + (k // 3) * 14
        parts.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}"{stroke} stroke-width="2.5"{dash_attr}/>')
        parts.append(_marker(marker, lx + 9, ly, fill))
        parts.append(f'<text x="{lx + 22}" y="{ly + 4}" class="legend">{escape(s.name[:14])}</text></g>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
