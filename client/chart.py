"""Scores over time: the series (from a game's events as it goes, or a replay), a small text
plot for the terminal, and an SVG file written by hand (no plotting library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from belfort.events import named_known

from .i18n import _

if TYPE_CHECKING:
    from belfort.commands import Event
    from belfort.state import GameState

# SVG colours for seats 0-4, the same hues as the window's p0..p4 styles.
COLOURS = ("#d62728", "#1f77b4", "#c9a400", "#2ca02c", "#9467bd")


@dataclass
class ScoreSeries:
    names: list
    letters: list
    rounds: int
    scoring_rounds: tuple
    points: list = field(default_factory=list)     # [(month, [score per seat])], month 0 = start

    def add(self, month: int, scores: list[int]) -> None:
        if self.points and self.points[-1][0] == month:
            self.points[-1] = (month, list(scores))
        else:
            self.points.append((month, list(scores)))

    def copy(self) -> ScoreSeries:
        return ScoreSeries(self.names, self.letters, self.rounds, self.scoring_rounds,
                           list(self.points))


def new_series(game: GameState, letters: list[str]) -> ScoreSeries:
    s = ScoreSeries(list(game.names), list(letters), game.rs.rounds,
                    tuple(game.rs.scoring_rounds))
    s.add(0, [0] * game.n)
    return s


def see(series: ScoreSeries, events: list[Event], game: GameState) -> None:
    """Note the scores after a step whose `events` ended a month (its taxes and, in a
    scoring month, its scoring are in) or the game."""
    for ev in named_known(events):
        if ev.event == "round" and ev.round > 1:
            series.add(ev.round - 1, [p.score for p in game.players])
        elif ev.event == "game-over":
            series.add(game.rs.rounds, [p.score for p in game.players])


def text_chart(series: ScoreSeries, height: int = 10,
               col: int = 6) -> list[list[tuple[str, str]]]:
    """A small plot: one column per month, each seat's letter at its score. Lines of
    (style, text) fragments; styles are the window's p0..p4 classes."""
    pts = series.points
    if len(pts) < 2:
        return []
    top = max(1, max(max(sc) for _seat, sc in pts))
    step = _nice_step(top, height - 1)
    rows = -(-top // step)                  # the rows the highest score needs
    label_w = max(3, len(str(step * rows)))
    lines: list[list[tuple[str, str]]] = [[("class:th", _("Score by month (* = scoring)"))]]
    columns = {m: sc for m, sc in pts}
    for row in range(rows, -1, -1):
        frags = [("class:dim", f"{row * step:>{label_w}} ┤")]
        for m in range(series.rounds + 1):
            sc = columns.get(m)
            cell = [seat for seat, v in enumerate(sc) if _row_of(v, step) == row] \
                if sc is not None else []
            if cell:
                # on the bottom row the axis runs on around the letters, unbroken
                style, fill = ("class:dim", "─") if row == 0 else ("", " ")
                frags.append((style, fill))
                for seat in cell[:col - 1]:
                    frags.append((f"class:p{seat}", series.letters[seat]))
                frags.append((style, fill * max(0, col - 1 - len(cell[:col - 1]))))
            elif row == 0:
                frags.append(("class:dim", "─" * col))
            else:
                frags.append(("", " " * col))
        lines.append(frags)
    axis = " " * (label_w + 2)
    for m in range(series.rounds + 1):
        mark = "*" if m in series.scoring_rounds else " "
        axis += f" {m}{mark}".ljust(col)
    lines.append([("class:dim", axis.rstrip() + "   month")])
    last = pts[-1][1]
    legend: list[tuple[str, str]] = []
    for seat, name in enumerate(series.names):
        if legend:
            legend.append(("class:dim", " · "))
        legend.append((f"class:p{seat}", f"{series.letters[seat]}={name} {last[seat]}"))
    lines.append(legend)
    return lines


def _row_of(v: int, step: int) -> int:
    return int(max(0, v) / step + 0.5)


def _nice_step(top: int, rows: int) -> int:
    """The smallest round step (1, 2, 5, 10, 20, 50, …) with which `rows` rows reach `top`."""
    k = 1
    while True:
        for base in (1, 2, 5):
            if base * k * rows >= top:
                return base * k
        k *= 10


def as_text(lines: Sequence[Sequence[tuple[str, str]]]) -> str:
    return "\n".join("".join(t for _style, t in ln).rstrip() for ln in lines)


def svg_chart(series: ScoreSeries, title: str = "Belfort — score by month") -> str:
    """The chart as a standalone SVG document (text)."""
    w, h = 720, 400
    left, right, top_m, bottom = 56, 160, 48, 48
    pw, ph = w - left - right, h - top_m - bottom
    pts = series.points
    top = max(1, max((max(sc) for _seat, sc in pts), default=1))
    step = _nice_step(top, 5)
    ymax = step * 5
    months = series.rounds

    def x(m):
        return left + pw * m / max(1, months)

    def y(v):
        return top_m + ph - ph * max(0, v) / ymax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="28" font-size="17" font-weight="bold">{escape(title)}</text>']
    for i in range(6):
        v = step * i
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'fill="#555">{v}</text>')
    for m in range(months + 1):
        scoring = m in series.scoring_rounds
        if scoring:
            out.append(f'<line x1="{x(m):.1f}" y1="{top_m}" x2="{x(m):.1f}" '
                       f'y2="{top_m + ph}" stroke="#bbb" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{x(m):.1f}" y="{top_m + ph + 20}" text-anchor="middle" '
                   f'fill="#333">{m}{"★" if scoring else ""}</text>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{h - 8}" text-anchor="middle" '
               f'fill="#555">month (★ scoring phase)</text>')
    out.append(f'<line x1="{left}" y1="{top_m + ph}" x2="{left + pw}" y2="{top_m + ph}" '
               f'stroke="#333"/>')
    for seat, name in enumerate(series.names):
        colour = COLOURS[seat % len(COLOURS)]
        coords = " ".join(f"{x(m):.1f},{y(sc[seat]):.1f}" for m, sc in pts)
        out.append(f'<g class="seat{seat}"><polyline points="{coords}" fill="none" '
                   f'stroke="{colour}" stroke-width="2.5"/>')
        for m, sc in pts:
            out.append(f'<circle cx="{x(m):.1f}" cy="{y(sc[seat]):.1f}" r="3.5" '
                       f'fill="{colour}"><title>{escape(name)}: {sc[seat]} after month {m}'
                       f'</title></circle>')
        out.append("</g>")
        ly = top_m + 10 + 24 * seat
        final = pts[-1][1][seat] if pts else 0
        out.append(f'<rect x="{left + pw + 20}" y="{ly - 9}" width="14" height="14" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{left + pw + 40}" y="{ly + 3}">{escape(name)} — {final}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
