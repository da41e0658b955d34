"""What the person's input means, shared by the full-screen window and `--plain`.

`Controller.handle(text)` returns a Reply; it submits commands through the driver and never
changes the game itself.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import belfort
from belfort.data import AREAS, SPREAD_AREAS
from belfort.undo import UndoRefused

from . import commands, lancmds, panels, rules_text
from .words import KINDS, Namer, TITLE, kind_words, plural


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
    """What is being waited for, in a few words: 'Your placement — 3 workers left'; with a
    single legal choice, that Enter plays it."""
    text = _waited_for(view, legal, namer)
    if len(legal) == 1 and view["seat"] in view["waiting_for"]:
        return "{prompt} — Enter: {command}".format(prompt=text,
                                                   command=belfort.command_text(legal[0]))
    return text


def _waited_for(view, legal, namer):
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
            areas = " ".join(AREAS[a] for a in SPREAD_AREAS[kind])
            later = [(k, n) for k, n in (me.get("unplaced") or {}).items()
                     if n and KINDS.index(k) > kind]
            if later:
                return "Spread your {now} ({areas}), then {later} — e.g. spread {n} 0 0".format(
                    now=kind_words(kind, total, counted=True), areas=areas, n=total,
                    later=", ".join(kind_words(k, n, counted=True) for k, n in later))
            return "Spread your {now} ({areas}) — e.g. spread {n} 0 0".format(
                now=kind_words(kind, total, counted=True), areas=areas, n=total)
        n = workers_left(me)
        kinds = [(k, c) for k, c in (me.get("unplaced") or {}).items() if c]
        if kinds and (len(kinds) > 1 or kinds[0][0].startswith("master")):
            return "Your placement — {left} left: {kinds}".format(
                left=plural(n, "worker"),
                kinds=", ".join(kind_words(k, c, counted=True) for k, c in kinds))
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


@dataclass
class ClientCommand:
    """A command of the program itself (not a game command): `help`, `score`, … Networked
    sessions add theirs (`say`, `handoff`, `waiting`) with Controller.add_command."""
    name: str
    run: object                # run(args: list[str]) -> Reply
    usage: str
    meta: str                  # the completion menu's hint
    aliases: tuple = ()


def _answer(run):
    """A (kind, text) answer as a Reply."""
    return lambda args: Reply(*run(args))


class Controller:
    def __init__(self, driver):
        self.driver = driver
        self.namer = Namer(driver.names, driver.seat)
        self.numbered = None
        self.rs = driver.ruleset
        self.commands = {}
        for cc in (
                ClientCommand("?", lambda a: self.listing(), "?",
                              "list what you can do now (a number then picks one)",
                              ("choices", "options")),
                ClientCommand("help", lambda a: self.help(" ".join(a) or "overview"),
                              "help [TOPIC]", "rules and commands: help TOPIC (a card, a "
                              "guild, a phase, a command)", ("rules", "h")),
                ClientCommand("score", lambda a: self.score(), "score",
                              "the scores so far, and what a scoring now would give",
                              ("scores",)),
                ClientCommand("tableau", self.tableau, "tableau [PLAYER]",
                              "everyone's built cards (or one player's)", ("tableaux",)),
                ClientCommand("log", lambda a: Reply("log"), "log", "the whole game log"),
                ClientCommand("undo", lambda a: self.undo(), "undo",
                              "take back your last action (Ctrl-Z)"),
                ClientCommand("quit", lambda a: Reply("quit"), "quit", "leave the game",
                              ("exit", "leave"))):
            self.add_command(cc)
        for name, run, usage, meta, aliases in lancmds.commands(driver):
            self.add_command(ClientCommand(name, _answer(run), usage, meta, aliases))

    def add_command(self, cc):
        self.commands[cc.name] = cc
        for a in cc.aliases:
            self.commands[a] = cc

    def client_words(self):
        """{word: hint} for completing a line's first word."""
        return {name: cc.meta for name, cc in self.commands.items() if name == cc.name}

    # --- the program's own commands ----------------------------------------------------------
    def help(self, topic):
        found = rules_text.lookup(self.rs, topic)
        if found is None:
            return Reply("error", "No help on '{topic}'. Topics: {topics}, and any card, "
                                  "guild or command name.".format(
                                      topic=topic,
                                      topics=", ".join(rules_text.main_topics(self.rs))))
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

    def score(self):
        view = self.driver.view()
        return Reply("panel", title="Scores", lines=panels.score_lines(view, self.namer,
                                                                       self.rs))

    def tableau(self, args):
        view = self.driver.view()
        seats = None
        if args:
            want = " ".join(args).strip().lower()
            seats = [s for s in range(self.namer.n)
                     if self.namer.name(s).lower() == want or str(s) == want or
                     self.namer.letter(s).lower() == want or
                     (want in ("me", "you", "mine") and s == self.namer.you)]
            if not seats:
                seats = [s for s in range(self.namer.n)
                         if self.namer.name(s).lower().startswith(want)]
            if len(seats) != 1:
                return Reply("error", "No player '{who}'. Players: {names}.".format(
                    who=" ".join(args), names=", ".join(self.namer.names)))
        title = "Built cards" if seats is None else "Built cards of {name}".format(
            name=self.namer.name(seats[0]))
        return Reply("panel", title=title, lines=panels.tableau_lines(view, self.namer,
                                                                      self.rs, seats))

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

    # --- game commands ----------------------------------------------------------------------------
    def handle(self, text):
        words = text.strip().split()
        if not words:
            legal = self.driver.legal()
            if len(legal) == 1:
                return self.submit(legal[0], belfort.command_text(legal[0]))
            return Reply("none")
        cc = self.commands.get(words[0].lower())
        if cc is not None:
            return cc.run(words[1:])
        legal = self.driver.legal()
        view = self.driver.view()
        if not legal:
            if view["phase"] == "over":
                return Reply("error", "The game is over. 'quit' leaves; Esc shows the board.")
            return Reply("error", "Not your decision now. " +
                         prompt_text(view, legal, self.namer))
        numbered = self.numbered if self.numbered is not None else legal
        if len(words) == 1 and commands.ascii_int(words[0]) is not None and numbered != legal:
            reply = self.listing()
            reply.lines[:0] = ["The choices changed since that list: here they are again.", ""]
            return reply
        try:
            cmd = commands.resolve(text, legal, numbered)
        except commands.Resolution as exc:
            return Reply("error", str(exc))
        if cmd is None:
            missing = commands.incomplete(text, legal)
            if missing:
                return Reply("error", missing)
        return self.submit(cmd if cmd is not None else text.strip(), None)

    def submit(self, command, done):
        """Give the command to the driver; the Reply says what was done or why not."""
        legal = self.driver.legal()
        try:
            self.driver.submit(command)
        except belfort.CommandSyntaxError as exc:
            return Reply("error", self.unreadable(exc, legal))
        except belfort.IllegalCommandError as exc:
            return Reply("error", f"Refused ({exc.rule}): {exc.reason}.")
        except (ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
            # the engine's parser must never take the program down on odd input
            return Reply("error", "Cannot read {text!r}: {reason}. Type ? for your choices."
                         .format(text=str(command), reason=exc))
        self.numbered = None
        if done is None:
            done = belfort.command_text(command) if isinstance(command, tuple) else command
        return Reply("ok", done)

    def unreadable(self, exc, legal):
        """The message for text the engine cannot read: an unknown verb gets a 'did you
        mean' and what is possible now instead of the list of every verb."""
        verb = (exc.text or "").split()[0].lower() if (exc.text or "").split() else ""
        now = commands.summary(legal)
        if verb and verb not in belfort.commands.VERBS:
            close = difflib.get_close_matches(verb, list(belfort.commands.VERBS) +
                                              [w for w in self.commands], n=1)
            if close:
                return ("Cannot read '{text}': unknown command '{verb}'. Did you mean "
                        "'{close}'? You can now: {now}. Type ? for the list.").format(
                    text=exc.text, verb=verb, close=close[0], now=now)
            return ("Cannot read '{text}': unknown command '{verb}'. You can now: {now}. "
                    "Type ? for the list.").format(text=exc.text, verb=verb, now=now)
        if verb and not any(c[0] == verb for c in legal):
            return ("'{verb}' is not possible now. You can: {now}. Type ? for the list, "
                    "help {verb} for the rules.").format(verb=verb, now=now)
        return (f"Cannot read {exc.text!r}: {exc.reason}. Type ? for your choices, help for "
                "the rules.")
