"""`belfort replay LOG`: step through a game's log, jump to a month or a scoring phase, see
every hand (once the game is over) and the scores over time.

The log is read once from end to end when it is opened (months, scoring phases, the score
series, how far it replays); stepping re-applies steps from snapshots kept every 25 steps.

Full-screen keys: → / n / Space next, ← / p / Backspace back, PgUp / PgDn ten steps,
Home / End, ] and [ next and previous month, 1–9 a month's start, s / S next and previous
scoring phase with its breakdown (the panel of live play), v whose point of view (a finished
game), c the score chart, Esc back to the board from a panel (on the board it asks before
leaving), q leaves.
`--plain` prints the game as sentences instead; with --month, --scoring or --step it prints
the table at that point. `--chart FILE` writes the score chart as SVG.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import belfort
from belfort import events as belfort_events
from belfort.data import CARD_TYPES

from . import chart, gamelog, panels, render
from .i18n import _, active_language, localize_line
from .words import TITLE, Describer, Namer, initials

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from belfort.commands import Event
    from belfort.state import GameState

SNAP_EVERY = 25


class Replay:
    def __init__(self, path: str | Path) -> None:
        self.log = gamelog.load(path)
        self.path = self.log.path
        self.head, self.steps, self.end = self.log.head, self.log.steps, self.log.end
        start = gamelog.Runner(self.head, self.log.cards, str(self.path))
        self.you = self.log.local.get("you")
        self.seat = self.you if self.you is not None else 0
        self.namer = Namer(self.head["players"], self.you)
        self.describer = Describer(self.namer, start.game.rs, list(start.game.guilds))
        self.series = chart.new_series(start.game, initials(self.head["players"]))
        self.months: dict[int, int] = {}       # month -> position where it starts
        # [(month, position right after its scoring phase)]
        self.scorings: list[tuple[int, int]] = []
        self.snaps = {0: start.copy()}
        self.problem = self._read_through(start.copy())
        self.runner = start.copy()
        self.pos = 0
        self.last_events: list[Event] = []
        self.error: str | None = None
        self.panel: str | None = None        # "chart" | "scoring" over the board, or None
        self.asking = False                  # Esc on the board: "Leave the replay?"

    def _read_through(self, runner: gamelog.Runner) -> str | None:
        """One pass over the log; returns why it stops early (None: it replays whole)."""
        for k, step in enumerate(self.steps):
            try:
                events = runner.step(step)
            except belfort.BelfortError as exc:
                self.length = k
                self.final = runner
                return _("{failure}: the replay stops there").format(
                    failure=gamelog.describe_failure(step, exc))
            pos = k + 1
            for ev in belfort_events.named_known(events):
                if ev.event == "round":
                    self.months[ev.round] = pos
                elif ev.event == "scoring":
                    self.scorings.append((ev.round, pos))
            chart.see(self.series, events, runner.game)
            if pos % SNAP_EVERY == 0:
                self.snaps[pos] = runner.copy()
        self.length = len(self.steps)
        self.final = runner
        if self.log.problem:
            return self.log.problem
        if self.end is not None:
            if not runner.game.is_over():
                return _("the log says the game ended, but its steps do not end it")
            if self.end.get("hash") != belfort.state_hash(runner.game):
                return _("the replay does not reach the final state the log recorded")
        return None

    # --- facts ---------------------------------------------------------------------------
    @property
    def game(self) -> GameState:
        return self.runner.game

    @property
    def complete(self) -> bool:
        """The log holds the whole game: every hand may be shown, at every step."""
        return self.final.game.is_over() and self.problem is None and \
            (not self.head.get("hidden") or self.log.cards is not None)

    def card_type(self, card: int) -> int | None:
        """The type of any card (None when this log cannot know it)."""
        t = self.game.types[card] if card < len(self.game.types) else None
        if t is None and self.log.cards is not None and card < len(self.log.cards):
            t = self.log.cards[card]
        return t

    def hands(self) -> dict[int, list[tuple[int, str | None]]]:
        """{seat: [(card, type name or None)]} that may be shown now: every hand in a
        finished game, else only ours."""
        seats = range(self.game.n) if self.complete else \
            ([self.you] if self.you is not None else [])
        out = {}
        for s in seats:
            out[s] = [(c, CARD_TYPES[t] if (t := self.card_type(c)) is not None else None)
                      for c in self.game.players[s].hand]
        return out

    def draw_top(self, k: int = 3) -> list[tuple[int, str | None]]:
        """The next `k` cards of the draw pile (a finished game only)."""
        if not self.complete:
            return []
        return [(c, CARD_TYPES[t] if (t := self.card_type(c)) is not None else None)
                for c in self.game.draw[::-1][:k]]

    def view(self) -> dict[str, Any]:
        """The seat view of the current point of view, its hand filled in from the log's
        card list when the game is complete."""
        v = belfort.seat_view(self.game, self.seat)
        if self.complete:
            v["hand"] = [{"card": c, "type": t} for c, t in self.hands()[self.seat]]
        return v

    # --- moving --------------------------------------------------------------------------
    def goto(self, k: int) -> int:
        k = max(0, min(k, self.length))
        base = max(i for i in self.snaps if i <= k)
        if base > self.pos or k < self.pos:
            runner = self.snaps[base].copy()
        else:
            runner = self.runner
        events = []
        while runner.pos < k:
            events = runner.step(self.steps[runner.pos])
        self.runner, self.pos = runner, k
        self.last_events = events
        self.error = self.problem if k == self.length and self.problem else None
        return k

    def month_positions(self) -> list[tuple[int, int]]:
        return sorted(self.months.items())

    def goto_month(self, month: int) -> int | None:
        if month not in self.months:
            return None
        return self.goto(self.months[month])

    def next_month(self, delta: int) -> int:
        """Go to the next (+1) or previous (−1) month's start from here."""
        starts = [p for _m, p in self.month_positions()]
        if delta > 0:
            later = [p for p in starts if p > self.pos]
            return self.goto(later[0] if later else self.length)
        earlier = [p for p in starts if p < self.pos]
        return self.goto(earlier[-1] if earlier else 0)

    def next_scoring(self, delta: int) -> int | None:
        pos = [p for _m, p in self.scorings]
        if delta > 0:
            later = [p for p in pos if p > self.pos]
            return self.goto(later[0]) if later else None
        earlier = [p for p in pos if p < self.pos]
        return self.goto(earlier[-1]) if earlier else None

    def switch_view(self) -> int:
        """The next seat's point of view (a finished game only)."""
        if self.complete:
            self.seat = (self.seat + 1) % self.game.n
        return self.seat

    # --- words ---------------------------------------------------------------------------
    def sentences(self) -> list[str]:
        out: list[str] = []
        view = belfort.seat_view(self.game, self.seat)
        for ev in belfort_events.named_known(self.last_events):
            if ev.event == "undo":
                command = self._local(belfort.command_text(ev.command))
                if ev.seat == self.namer.you:
                    out.append(_("You took back: {command}").format(command=command))
                else:
                    out.append(_("{who} took back: {command}").format(
                        who=self.namer.name(ev.seat), command=command))
            else:
                out += self.describer.sentences([ev], view)
        return out

    def step_text(self) -> str:
        seen = "" if self.seat == self.you else " — " + _("seen by {name}").format(
            name=self.namer.name(self.seat))
        if self.pos == 0:
            return _("Start of the game (step 0/{n})").format(n=self.length) + seen
        step = self.steps[self.pos - 1]
        kind, a, b = step
        at = _("Step {k}/{n}").format(k=self.pos, n=self.length) + seen
        if kind == "cmd":
            return f"{at}: {self.namer.name(a)}: {self._local(b)}"
        if kind == "undo":
            return _("{at}: {name} takes back step {k}").format(at=at, name=self.namer.name(a),
                                                               k=b)
        return _("{at}: card #{c} revealed").format(at=at, c=a)

    @staticmethod
    def _local(text: object) -> object:
        return localize_line(text, active_language()) if isinstance(text, str) else text

    def scoring_month(self) -> int | None:
        """The month whose scoring phase ended at this step, or None."""
        return next((m for m, pos in self.scorings if pos == self.pos), None)

    def scoring_text(self) -> str | None:
        """The scoring phase that ended at this step, in a line."""
        for month, pos in self.scorings:
            if pos == self.pos:
                rec = next((r for r in self.game.score_log if r["round"] == month), None)
                if rec is None:
                    return None
                gains = ", ".join(f"{self.namer.name(s)} +{rec['total'][s]}"
                                  for s in range(self.game.n))
                return _("Scoring phase after month {m}: {gains}").format(m=month, gains=gains)
        return None

    def hand_lines(self, skip_view: bool = True) -> list[tuple[str, str]]:
        """Every hand that may be shown, and the top of the draw pile, as text lines
        (without the point of view's own hand, which the board shows, unless asked)."""
        out = []
        for s, cards in self.hands().items():
            if s == self.seat and skip_view:
                continue
            words = ", ".join(f"#{c} {TITLE.get(t or '', '?')}" for c, t in cards) or _("(none)")
            out.append((f"class:p{s}", f"{self.namer.letter(s)} " + _("{name}'s hand: {cards}")
                        .format(name=self.namer.name(s), cards=words)))
        top = self.draw_top()
        if top:
            out.append(("class:dim", _("Next in the draw pile: {cards}").format(
                cards=", ".join(TITLE.get(t or "", "?") for _c, t in top))))
        return out

    def lines(self, width: int, height: int, show_chart: bool = False) -> list[render.Line]:
        view = self.view()
        log = [("class:title", self.step_text())]
        sc = self.scoring_text()
        if sc:
            log.append(("class:ok", sc))
        log += [("", s) for s in self.sentences()]
        log += self.hand_lines()
        if self.error:
            log.append(("class:error", self.error))
        # i18n: the replay's keys (→ ← ] [ 1-9 s S v c q) stay as they are
        keys = _("→ next ← back · ]/[ month · 1-9 month · s/S scoring · v view · c chart · "
                 "q quit") if self.complete else \
            _("→ next ← back · ]/[ month · 1-9 month · s/S scoring · c chart · q quit")
        log.append(("class:error", _("Leave the replay? y leaves, any other key stays."))
                   if self.asking else ("class:dim", keys))
        ctx = render.Context(self.namer, self.game.rs, log=log)
        month = self.scoring_month()
        if self.panel == "scoring" and month is not None and not show_chart:
            # the same breakdown as live play shows when the scoring happens
            ctx.panel = (_("Scoring after month {m}").format(m=month),
                         panels.score_lines(view, self.namer, self.game.rs, width=width,
                                            just=month))
        if show_chart or self.panel == "chart":
            body = [render.Line(*[(t, st) for st, t in frags])
                    for frags in chart.text_chart(self.series_upto())]
            ctx.panel = (_("Score by month"), body or [render.Line(_("No month is over yet."))])
        return render.screen(view, ctx, width, height)

    def series_upto(self) -> chart.ScoreSeries:
        """The score series up to the current step (the chart as it stood)."""
        s = self.series.copy()
        month = self.game.round if not self.game.is_over() else self.game.rs.rounds + 1
        s.points = [(m, sc) for m, sc in s.points if m < month]
        return s


# --- choosing a game -------------------------------------------------------------------------

RECENT = 9


def recent_logs(limit: int = RECENT) -> list[tuple[Path, gamelog.GameLog]]:
    """The last games played on this machine, newest first: local games' logs and the
    complete logs LAN games write in each seat's directory (every profile's)."""
    games = gamelog.default_dir()
    places = [games, *(d / "games" for d in sorted((games.parent / "profiles").glob("*")))]
    paths: list[Path] = []
    for d in places:
        try:
            paths += [p for p in d.glob("*.jsonl") if p.is_file()]
            paths += [p for p in d.glob("*/game.jsonl") if p.is_file()]
        except OSError:
            continue
    paths.sort(key=_mtime, reverse=True)
    out: list[tuple[Path, gamelog.GameLog]] = []
    for p in paths:
        if len(out) == limit:
            break
        try:
            out.append((p, gamelog.load(p)))
        except gamelog.LogError:
            continue          # not a log we can replay: not offered
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def choose_log(found: list[tuple[Path, gamelog.GameLog]], inp: TextIO,
               out: TextIO) -> Path | None:
    """List ``found`` and read the person's choice (Enter: the newest); None if they
    give none (the end of input)."""
    import datetime
    out.write(_("The last games played here:") + "\n")
    for i, (p, log) in enumerate(found, 1):
        when = datetime.datetime.fromtimestamp(_mtime(p)).strftime("%Y-%m-%d %H:%M")
        state = _("finished") if log.finished else _("unfinished")
        out.write(f"  {i}. {when}  {', '.join(map(str, log.head.get('players', [])))}  "
                  f"({state})\n     {p}\n")
    while True:
        out.write(_("Which one? (1–{n}, Enter: 1) ").format(n=len(found)))
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return None
        text = line.strip()
        if not text:
            return found[0][0]
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(found):
            return found[int(text) - 1][0]
        out.write(_("Type a number from 1 to {n}.").format(n=len(found)) + "\n")


# --- plain ----------------------------------------------------------------------------------

def table_text(r: Replay, width: int = 100) -> str:
    view = r.view()
    ctx = render.Context(r.namer, r.game.rs)
    lines = (render.header(view, ctx, width) + render.districts(view, ctx, width, False) +
             render.collection(view, ctx, width, False) +
             render.players(view, ctx, width, False) +
             render.hand_and_piles(view, ctx, width, False))
    return render.as_text(lines)


def run_plain(path: str | Path, out: TextIO | None = None, month: int | None = None,
              scoring: int | None = None, step: int | None = None) -> int:
    """Print the game as sentences (or, with month/scoring/step, the table at that point).
    The exit code."""
    out = out or sys.stdout
    r = Replay(path)
    out.write(_("Replay of {path}: {players}, seed {seed}").format(
        path=path, players=", ".join(r.head["players"]),
        seed=r.head.get("seed", r.head.get("seed_hex"))) + "\n")
    if r.problem:
        out.write(_("Note: {problem}.").format(problem=r.problem) + "\n")
    if month is not None or scoring is not None or step is not None:
        return _plain_jump(r, out, month, scoring, step)
    for k in range(1, r.length + 1):
        r.goto(k)
        for s in r.sentences():
            out.write(s + "\n")
        sc = r.scoring_text()
        if sc:
            out.write(sc + "\n")
        if r.complete and any(ev.event == "round"
                              for ev in belfort_events.named_known(r.last_events)):
            for _style, text in r.hand_lines(skip_view=False):
                out.write("  " + text + "\n")
    if r.game.is_over():
        ctx = render.Context(r.namer, r.game.rs)
        out.write("\n" + render.as_text(render.final_lines(r.view(), ctx)) + "\n")
        text = chart.as_text(chart.text_chart(r.series))
        if text:
            out.write("\n" + text + "\n")
        if r.end and r.end.get("hash"):
            ok = r.end["hash"] == belfort.state_hash(r.game)
            out.write((_("The replay reaches the logged final state.") if ok else
                       _("WARNING: the replay does not reach the logged final state.")) + "\n")
    else:
        out.write(_("(the log ends before the game does)") + "\n")
    if r.problem:
        out.write(_("The replay stopped early: {problem}.").format(problem=r.problem) + "\n")
        return 1
    return 0


def _plain_jump(r, out, month, scoring, step):
    if month is not None:
        if r.goto_month(month) is None:
            known = ", ".join(str(m) for m, _pos in r.month_positions()) or _("none")
            out.write(_("This log has no month {m} (months reached: {known}).").format(
                m=month, known=known) + "\n")
            return 1
    elif scoring is not None:
        if not 1 <= scoring <= len(r.scorings):
            out.write(_("This log has no scoring phase {k} (it has {n}).").format(
                k=scoring, n=len(r.scorings)) + "\n")
            return 1
        r.goto(r.scorings[scoring - 1][1])
    else:
        if not 0 <= step <= r.length:
            out.write(_("This log has steps 0 to {n}, not {k}.").format(n=r.length, k=step)
                      + "\n")
            return 1
        r.goto(step)
    out.write(r.step_text() + "\n")
    sc = r.scoring_text()
    if sc:
        out.write(sc + "\n")
    out.write(table_text(r) + "\n")
    for _style, text in r.hand_lines():
        out.write(text + "\n")
    if not r.complete:
        out.write(_("(the other hands are shown once the game is over)") + "\n")
    return 0


def write_chart(path: str | Path, out_path: str | Path) -> Replay:
    """Write the score chart of the game in `path` as SVG to `out_path`. Never writes over
    a file that is not an SVG (a game log given by mistake, say)."""
    import pathlib
    r = Replay(path)
    target = pathlib.Path(out_path)
    if target.exists():
        try:
            start = target.read_bytes()[:300]
        except OSError as exc:
            raise gamelog.LogError(_("cannot write {path}: {error}").format(
            path=target, error=exc.strerror)) from None
        if b"<svg" not in start:
            raise gamelog.LogError(_("{path} exists and is not an SVG chart: not writing "
                                     "over it").format(path=target))
    names = ", ".join(r.head["players"])
    try:
        target.write_text(chart.svg_chart(r.series, f"Belfort — {names}"), encoding="utf-8")
    except OSError as exc:
        raise gamelog.LogError(_("cannot write {path}: {error}").format(
            path=target, error=exc.strerror)) from None
    return r


# --- full screen ------------------------------------------------------------------------------

def run_fullscreen(path: str | Path, colour: bool = True, input: Input | None = None,
                   output: Output | None = None) -> int:
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.styles import Style

    from .app import STYLE

    from prompt_toolkit.filters import Condition

    r = Replay(path)
    kb = KeyBindings()
    asking = Condition(lambda: r.asking)

    def fragments():
        from prompt_toolkit.application import get_app
        size = get_app().output.get_size()
        return render.as_fragments(r.lines(size.columns, size.rows))

    def key(*keys):
        """A key of the replay board (not while it asks whether to leave)."""
        def add(fn):
            for k in keys:
                kb.add(k, filter=~asking)(fn)
            return fn
        return add

    def move(delta):
        def handler(event):
            r.panel = None if r.panel == "scoring" else r.panel
            r.goto(r.pos + delta)
        return handler

    def scoring(delta):
        def handler(event):
            if r.next_scoring(delta) is not None:
                r.panel = "scoring"
        return handler

    for k in ("right", "n", " "):
        key(k)(move(1))
    for k in ("left", "p", "backspace"):
        key(k)(move(-1))
    key("pagedown")(move(10))
    key("pageup")(move(-10))
    key("home")(lambda e: (move(0)(e), r.goto(0)))
    key("end")(lambda e: (move(0)(e), r.goto(r.length)))
    key("]")(lambda e: (move(0)(e), r.next_month(1)))
    key("[")(lambda e: (move(0)(e), r.next_month(-1)))
    key("s")(scoring(1))
    key("S")(scoring(-1))
    key("v")(lambda e: r.switch_view())

    def month_key(m):
        return lambda e: (move(0)(e), r.goto_month(m))
    for m in range(1, 10):
        key(str(m))(month_key(m))

    @key("c")
    def _(event):
        r.panel = None if r.panel == "chart" else "chart"

    @key("escape")
    def _(event):
        # as the panels say, "Esc: back to the board"; on the board, leaving is asked
        if r.panel is not None:
            r.panel = None
        else:
            r.asking = True

    @key("q")
    @kb.add("c-c")
    @kb.add("y", filter=asking, eager=True)
    def _(event):
        event.app.exit()

    @kb.add("<any>", filter=asking, eager=True)
    def _(event):
        r.asking = False

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(fragments, focusable=True))),
        key_bindings=kb, style=Style.from_dict(STYLE), full_screen=True,
        color_depth=None if colour else ColorDepth.MONOCHROME, input=input, output=output)
    run_fullscreen.last = r  # type: ignore[attr-defined]  # for tests: where the keys took it
    app.run()
    return 0
