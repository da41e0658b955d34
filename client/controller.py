"""What the person's input means, shared by the full-screen window and `--plain`.

`Controller.handle(text)` returns a Reply; it submits commands through the driver and never
changes the game itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import belfort
from belfort.data import AREAS, SPREAD_AREAS
from belfort.undo import UndoRefused

from . import commands, rules_text
from .words import KINDS, Namer, TITLE, plural


@dataclass
class Reply:
    kind: str                  # "ok" | "error" | "info" | "panel" | "quit" | "undo" | "none"
    text: str = ""
    title: str = ""
    lines: list = field(default_factory=list)   # for panels: plain text lines


def workers_left(me):
    u = me.get("unplaced") or {}
    return sum(u.values())


def prompt_text(view, legal, namer):
    """What is being waited for, in a few words: 'Your placement — 3 workers left'."""
    phase, step = view["phase"], view["step"]
    me_seat = view["seat"]
    me = view["players"][me_seat]
    waiting = view["waiting_for"]
    if phase == "over":
        return "Game over — Esc: board · quit: leave"
    if not waiting and view.get("pending_reveals"):
        return "Waiting for a card to be revealed…"
    if me_seat not in waiting or not legal:
        others = [namer.name(s) for s in waiting if s != me_seat]
        if phase == "keep":
            return f"Waiting for {', '.join(others)} to choose their cards…" if others else \
                "Waiting…"
        verb = {"placement": "place", "camp": "choose a crest", "actions": "act",
                "np-turn": "play a non-player", "np-setup": "place a non-player dwarf"
                }.get(phase, "act")
        if step == "spies-show":
            return f"Waiting for {', '.join(others)} to show a card to the Spies…"
        if step == "discard":
            verb = "discard"
        if step == "spread":
            verb = "spread workers"
        return f"Waiting for {', '.join(others) or 'the others'} to {verb}…"
    if phase == "keep":
        k = len(legal[0][1]) if legal and legal[0][0] == "keep" else 3
        return f"Keep {k} of your {len(view.get('hand', []))} cards — e.g. keep " + \
            " ".join(f"#{c}" for c in (legal[0][1] if legal else ()))
    if phase == "np-setup":
        np = "NP3" if not any(g.get("np_dwarf") is not None for g in view["guilds"]) else "NP4"
        return f"Put {np}'s dwarf on a guild"
    if phase == "placement":
        if step == "spread":
            kind = legal[0][1] if legal and legal[0][0] == "spread" else 0
            total = sum(legal[0][2:5]) if legal and legal[0][0] == "spread" else 0
            word = KINDS[kind].replace("master-", "master ")
            word = word.replace("elf", "elves" if total != 1 else "elf").replace(
                "dwarf", "dwarves" if total != 1 else "dwarf")
            areas = " ".join(AREAS[a] for a in SPREAD_AREAS[kind])
            return f"Spread your {total} {word} ({areas}) — e.g. spread {total} 0 0"
        n = workers_left(me)
        return f"Your placement — {plural(n, 'worker')} left"
    if phase == "camp":
        return "King's camp — take a crest"
    if phase == "actions":
        if step == "discard":
            return f"Discard {plural(view.get('pending_discards') or 1, 'card')}"
        if step == "spies-show":
            return "Show a card to the Spies"
        if step == "spies-take":
            return "Take one of the shown cards"
        w = me.get("waiting") or []
        if w:
            return f"Your turn — {plural(len(w), 'worker')} to activate"
        return "Your turn — build, trade… or end"
    if phase == "np-turn":
        np = "NP3" if me["crest"] == 1 else "NP4"
        if step == "np-mark":
            c = view.get("np_card") or {}
            return f"Mark a symbol for {np}'s {TITLE.get(c.get('type'), 'card')}"
        return f"Take a card for {np} (pool or top)"
    return "Your decision"


def turn_hint(view, legal):
    """A line about the current turn's allowances (trading post, hire)."""
    t = view.get("turn")
    if not t or view["current"] != view["seat"] or view["step"]:
        return ""
    bits = [f"Trading post: bought {t['buys']}/{t['visits']}, sold {t['sells']}/{t['visits']}"]
    if t["exchanges"]:
        bits.append(f"{t['exchanges']} exchanges")
    bits.append("gnome hired" if t["hired"] else "gnome hire: yes")
    return " · ".join(bits) + " · ? for choices"


class Controller:
    def __init__(self, driver):
        self.driver = driver
        self.namer = Namer(driver.names, driver.seat)
        self.numbered = None
        self.rs = driver.ruleset

    def help(self, topic):
        found = rules_text.lookup(self.rs, topic)
        if found is None:
            return Reply("error", f"No help on {topic!r}. Try: help, help placement, help "
                                  "tower, help spies, help build, help commands.")
        title, text = found
        return Reply("panel", title=title, lines=text.split("\n"))

    def listing(self):
        legal = self.driver.legal()
        if not legal:
            view = self.driver.view()
            return Reply("info", prompt_text(view, legal, self.namer))
        self.numbered = list(legal)
        lines = [f"Type a command, or its number. {len(legal)} choice"
                 f"{'s' if len(legal) != 1 else ''}: {commands.summary(legal)}", ""]
        lines += commands.listing(legal, limit=300)
        hint = commands.spread_hint(legal)
        if hint:
            lines += ["", hint]
        return Reply("panel", title="What you can do now", lines=lines)

    def undo(self):
        """Take back our last action, or say why not ('Bo has played since')."""
        undo = getattr(self.driver, "undo", None)
        if undo is None:
            return Reply("error", "Undo is not available in this game.")
        try:
            cmd = undo()
        except UndoRefused as exc:
            return Reply("error", f"Cannot undo: {exc.refusal.text(self.namer.name)}.")
        self.numbered = None
        return Reply("undo", f"Taken back: {belfort.command_text(cmd)}")

    def handle(self, text):
        words = text.strip().split()
        if not words:
            return Reply("none")
        head = words[0].lower()
        if head in ("?", "choices", "options"):
            return self.listing()
        if head in ("help", "rules", "h"):
            return self.help(" ".join(words[1:]) or "overview")
        if head in ("quit", "exit", "leave"):
            return Reply("quit")
        if head == "log":
            return Reply("log")
        if head == "undo":
            return self.undo()
        legal = self.driver.legal()
        view = self.driver.view()
        if not legal:
            if view["phase"] == "over":
                return Reply("error", "The game is over. 'quit' leaves; Esc shows the board.")
            return Reply("error", "Not your decision now. " +
                         prompt_text(view, legal, self.namer))
        try:
            cmd = commands.resolve(text, legal, self.numbered)
        except commands.Resolution as exc:
            return Reply("error", str(exc))
        try:
            self.driver.submit(cmd if cmd is not None else text)
        except belfort.CommandSyntaxError as exc:
            return Reply("error", f"Cannot read {exc.text!r}: {exc.reason}. "
                                  "Type ? for your choices, help for the rules.")
        except belfort.IllegalCommandError as exc:
            return Reply("error", f"Refused ({exc.rule}): {exc.reason}.")
        self.numbered = None
        done = belfort.command_text(cmd) if cmd is not None else text.strip()
        return Reply("ok", done)
