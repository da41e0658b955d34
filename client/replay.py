"""`belfort replay LOG`: step through a finished game's log, forwards and backwards.

Stepping re-applies the logged commands to a fresh game (snapshots every 25 steps keep
going backwards quick). Full-screen keys: → / n / Space next, ← / p / Backspace back,
Home / End, PgUp / PgDn ten steps, q or Ctrl-C leaves. `--plain` prints the whole game as
sentences instead.
"""

from __future__ import annotations

import sys

import belfort
from . import gamelog, render
from .words import Describer, Namer

SNAP_EVERY = 25


class Replay:
    def __init__(self, path):
        self.head, self.steps, self.end = gamelog.read(path)
        self.start = gamelog.new_game_from(self.head)
        self.seat = int(self.head.get("you", 0))
        self.namer = Namer(self.head["players"], self.seat)
        self.describer = Describer(self.namer, self.start.rs, list(self.start.guilds))
        self.snaps = {0: self.start.copy()}
        self.pos = 0
        self.game = self.start.copy()
        self.last_events = []
        self.error = None

    def goto(self, k):
        k = max(0, min(k, len(self.steps)))
        base = max(i for i in self.snaps if i <= k)
        if base > self.pos or k < self.pos:
            game = self.snaps[base].copy()
            at = base
        else:
            game, at = self.game, self.pos
        events = []
        while at < k:
            try:
                events = gamelog.apply_step(game, self.steps[at])
            except belfort.BelfortError as exc:
                self.error = f"step {at + 1} cannot be replayed: {exc}"
                k = at
                break
            at += 1
            if at % SNAP_EVERY == 0 and at not in self.snaps:
                self.snaps[at] = game.copy()
        self.game, self.pos = game, k
        self.last_events = events
        return k

    def sentences(self):
        if not self.last_events:
            return []
        return self.describer.sentences(self.last_events, belfort.seat_view(self.game, self.seat))

    def step_text(self):
        if self.pos == 0:
            return "Start of the game"
        kind, a, b = self.steps[self.pos - 1]
        if kind == "cmd":
            return f"Step {self.pos}/{len(self.steps)}: {self.namer.name(a)}: {b}"
        return f"Step {self.pos}/{len(self.steps)}: card #{a} revealed"

    def lines(self, width, height):
        view = belfort.seat_view(self.game, self.seat)
        log = [("class:title", self.step_text())] + [("", s) for s in self.sentences()]
        if self.error:
            log.append(("class:error", self.error))
        log.append(("class:dim", "→/n next · ←/p back · PgUp/PgDn ±10 · Home/End · q quit"))
        ctx = render.Context(self.namer, self.game.rs, log=log)
        if self.game.is_over() and self.pos == len(self.steps):
            ctx.panel = None
        return render.screen(view, ctx, width, height)


def run_plain(path, out=None):
    out = out or sys.stdout
    r = Replay(path)
    out.write(f"Replay of {path}: {', '.join(r.head['players'])}, seed {r.head['seed']}\n")
    for k in range(1, len(r.steps) + 1):
        r.goto(k)
        for s in r.sentences():
            out.write(s + "\n")
        if r.error:
            out.write(r.error + "\n")
            return 1
    if r.game.is_over():
        ctx = render.Context(r.namer, r.game.rs)
        out.write("\n" + render.as_text(render.final_lines(
            belfort.seat_view(r.game, r.seat), ctx)) + "\n")
        if r.end and r.end.get("hash"):
            ok = r.end["hash"] == belfort.state_hash(r.game)
            out.write(("The replay reaches the logged final state.\n" if ok else
                       "WARNING: the replay does not reach the logged final state.\n"))
    else:
        out.write("(the log ends before the game does)\n")
    return 0


def run_fullscreen(path, colour=True):
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.styles import Style

    from .app import STYLE

    r = Replay(path)
    kb = KeyBindings()

    def fragments():
        from prompt_toolkit.application import get_app
        size = get_app().output.get_size()
        return render.as_fragments(r.lines(size.columns, size.rows))

    def move(delta):
        def handler(event):
            r.goto(r.pos + delta)
        return handler

    for key in ("right", "n", " "):
        kb.add(key)(move(1))
    for key in ("left", "p", "backspace"):
        kb.add(key)(move(-1))
    kb.add("pagedown")(move(10))
    kb.add("pageup")(move(-10))
    kb.add("home")(lambda e: r.goto(0))
    kb.add("end")(lambda e: r.goto(len(r.steps)))

    @kb.add("q")
    @kb.add("c-c")
    @kb.add("escape")
    def _(event):
        event.app.exit()

    app = Application(layout=Layout(Window(FormattedTextControl(fragments, focusable=True))),
                      key_bindings=kb, style=Style.from_dict(STYLE), full_screen=True,
                      color_depth=None if colour else ColorDepth.MONOCHROME)
    app.run()
    return 0
