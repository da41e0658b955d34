"""What the person's input means, shared by the full-screen window and `--plain`.

`Controller.handle(text)` returns a Reply; it submits commands through the driver and never
changes the game itself.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import belfort
from belfort.commands import named as named_command
from belfort.data import AREAS, SPREAD_AREAS
from belfort.undo import UndoRefused

from . import commands, lancmds, panels, rules_text
from .i18n import (L_, N_, _, active_language, canonical_line, localize_line,
                   localize_token, ngettext, suggest)
from .reply import Reply, ReplyKind
from .words import KINDS, TITLE, Namer, kind_words

if TYPE_CHECKING:
    from belfort.commands import Command

    from .driver import GameDriver
    from .i18n.catalog import LazyString


def workers_left(me: dict[str, Any]) -> int:
    u = me.get("unplaced") or {}
    return sum(u.values())


def shown_command(command: Command | str) -> str:
    """A canonical command (tuple or text) as the active language writes it."""
    text = belfort.command_text(command) if isinstance(command, tuple) else str(command)
    return localize_line(text, active_language())


def prompt_text(view: dict[str, Any], legal: Sequence[Command], namer: Namer) -> str:
    """What is being waited for, in a few words: 'Your placement — 3 workers left'; with a
    single legal choice, that Enter plays it."""
    text = _waited_for(view, legal, namer)
    if len(legal) == 1 and view["seat"] in view["waiting_for"]:
        return _("{prompt} — Enter: {command}").format(prompt=text,
                                                      command=shown_command(legal[0]))
    return text


def _np_name(namer: Namer, which: int) -> str:
    return _("NP{n}").format(n=which)


def _waited_for(view: dict[str, Any], legal: Sequence[Command], namer: Namer) -> str:
    phase, step = view["phase"], view["step"]
    me_seat = view["seat"]
    me = view["players"][me_seat]
    waiting = view["waiting_for"]
    if phase == "over":
        return _("Game over — Esc: board · quit: leave")
    if not waiting and view.get("pending_reveals"):
        return _("Waiting for a card to be revealed…")
    if me_seat not in waiting or not legal:
        others = ", ".join(namer.name(s) for s in waiting if s != me_seat)
        if not others and (phase == "keep" or step == "spies-show"):
            return _("Waiting…")      # every choice is made (LAN: committed), none revealed yet
        if phase == "keep":
            return _("Waiting for {names} to choose their cards…").format(names=others)
        if step == "spies-show":
            return _("Waiting for {names} to show a card to the Spies…").format(names=others)
        others = others or _("the others")
        if step == "discard":
            return _("Waiting for {names} to discard…").format(names=others)
        if step == "spread":
            return _("Waiting for {names} to spread workers…").format(names=others)
        message = {"placement": N_("Waiting for {names} to place…"),
                   "camp": N_("Waiting for {names} to choose a crest…"),
                   "np-turn": N_("Waiting for {names} to play a non-player…"),
                   "np-setup": N_("Waiting for {names} to place a non-player dwarf…"),
                   }.get(phase, N_("Waiting for {names} to act…"))
        return _(message).format(names=others)
    if phase == "keep":
        first: Any = named_command(legal[0]) if legal else None
        kept = first.kept if first is not None and first.verb == "keep" else ()
        k = len(kept) if kept else 3
        example = shown_command("keep " + " ".join(f"#{c}" for c in kept))
        return ngettext("Keep {k} of your {n} card — e.g. {example}",
                        "Keep {k} of your {n} cards — e.g. {example}",
                        len(view.get("hand", []))).format(
            k=k, n=len(view.get("hand", [])), example=example)
    if phase == "np-setup":
        np_seat = 3 if not any(g.get("np_dwarf") is not None for g in view["guilds"]) else 4
        return _("Put {np}'s dwarf on a guild").format(np=_np_name(namer, np_seat))
    if phase == "placement":
        if step == "spread":
            first = named_command(legal[0]) if legal else None
            spreading = first is not None and first.verb == "spread"
            kind = first.kind if spreading else 0
            total = first.a + first.b + first.c if spreading else 0
            areas = " ".join(localize_token(AREAS[a], active_language(), "area")
                             for a in SPREAD_AREAS[kind])
            later = [(k, n) for k, n in (me.get("unplaced") or {}).items()
                     if n and KINDS.index(k) > kind]
            example = shown_command(f"spread {total} 0 0")
            if later:
                return _("Spread your {now} ({areas}), then {later} — e.g. {example}").format(
                    now=kind_words(kind, total, counted=True), areas=areas, example=example,
                    later=", ".join(kind_words(k, n, counted=True) for k, n in later))
            return _("Spread your {now} ({areas}) — e.g. {example}").format(
                now=kind_words(kind, total, counted=True), areas=areas, example=example)
        n = workers_left(me)
        kinds = [(k, c) for k, c in (me.get("unplaced") or {}).items() if c]
        if kinds and (len(kinds) > 1 or kinds[0][0].startswith("master")):
            return ngettext("Your placement — {n} worker left: {kinds}",
                            "Your placement — {n} workers left: {kinds}", n).format(
                n=n, kinds=", ".join(kind_words(k, c, counted=True) for k, c in kinds))
        return ngettext("Your placement — {n} worker left",
                        "Your placement — {n} workers left", n).format(n=n)
    if phase == "camp":
        return _("King's camp — take a crest")
    if phase == "actions":
        if step == "discard":
            n = view.get("pending_discards") or 1
            return ngettext("Discard {n} card", "Discard {n} cards", n).format(n=n)
        if step == "spies-show":
            return _("Show a card to the Spies")
        if step == "spies-take":
            return _("Take one of the shown cards")
        w = me.get("waiting") or []
        if w:
            return ngettext("Your turn — {n} worker to activate",
                            "Your turn — {n} workers to activate", len(w)).format(n=len(w))
        return _("Your turn — build, trade… or end")
    if phase == "np-turn":
        np = _np_name(namer, 3 if me["crest"] == 1 else 4)
        if step == "np-mark":
            c = view.get("np_card") or {}
            return _("Mark a symbol for {np}'s {card}").format(
                np=np, card=TITLE[c["type"]] if c.get("type") in TITLE else _("card"))
        return _("Take a card for {np} (pool or top)").format(np=np)
    return _("Your decision")


def turn_hint(view: dict[str, Any], legal: Sequence[Command] | None) -> str:
    """A line about the current turn's allowances (trading post, hire)."""
    t = view.get("turn")
    if not t or view["current"] != view["seat"] or view["step"]:
        return ""
    bits = [_("Trading post: bought {buys}/{visits}, sold {sells}/{visits}").format(
        buys=t["buys"], sells=t["sells"], visits=t["visits"])]
    if t["exchanges"]:
        bits.append(ngettext("{n} exchange", "{n} exchanges", t["exchanges"]).format(
            n=t["exchanges"]))
    bits.append(_("gnome hired") if t["hired"] else _("gnome hire: yes"))
    return " · ".join(bits) + " · " + _("? for choices")


@dataclass
class ClientCommand:
    """A command of the program itself (not a game command): `help`, `score`, … Networked
    sessions add theirs (`say`, `handoff`, `waiting`) with Controller.add_command."""
    name: str
    run: Callable[[list[str]], Reply]
    usage: str | LazyString
    meta: str | LazyString     # the completion menu's hint
    aliases: tuple[str, ...] = ()


def _answer(run: Callable[[list[str]], tuple[ReplyKind, str]]) -> Callable[[list[str]], Reply]:
    """A (kind, text) answer as a Reply."""
    return lambda args: Reply(*run(args))


class Controller:
    def __init__(self, driver: GameDriver) -> None:
        self.driver = driver
        self.namer = Namer(driver.names, driver.seat)
        self.numbered: list[Command] | None = None
        self.rs = driver.ruleset
        self.commands: dict[str, ClientCommand] = {}
        for cc in (
                ClientCommand("?", lambda a: self.listing(), "?",
                              L_("list what you can do now (a number then picks one)"),
                              ("choices", "options")),
                ClientCommand("help", lambda a: self.help(" ".join(a) or "overview"),
                              L_("help [TOPIC]"), L_("rules and commands: help TOPIC (a card, "
                                                     "a guild, a phase, a command)"),
                              ("rules", "h")),
                ClientCommand("score", lambda a: self.score(), "score",
                              L_("the scores so far, and what a scoring now would give"),
                              ("scores",)),
                ClientCommand("tableau", self.tableau, L_("tableau [PLAYER]"),
                              L_("everyone's built cards (or one player's)"), ("tableaux",)),
                ClientCommand("log", lambda a: Reply(ReplyKind.LOG), "log",
                              L_("the whole game log")),
                ClientCommand("undo", lambda a: self.undo(), "undo",
                              L_("take back your last action (Ctrl-Z)")),
                ClientCommand("quit", lambda a: Reply(ReplyKind.QUIT), "quit", L_("leave the game"),
                              ("exit", "leave"))):
            self.add_command(cc)
        for name, run, usage, meta, aliases in lancmds.commands(driver):
            self.add_command(ClientCommand(name, _answer(run), usage, meta, aliases))

    def add_command(self, cc: ClientCommand) -> None:
        self.commands[cc.name] = cc
        for a in cc.aliases:
            self.commands[a] = cc

    def client_words(self) -> dict[str, str]:
        """{word: hint} for completing a line's first word."""
        return {name: str(cc.meta) for name, cc in self.commands.items() if name == cc.name}

    # --- the program's own commands ----------------------------------------------------------
    def help(self, topic: str) -> Reply:
        found = rules_text.lookup(self.rs, topic)
        if found is None:
            # the topic as the player wrote it: it reaches here read as English ('wood')
            shown = " ".join(localize_token(w, active_language(), "arg") for w in topic.split())
            return Reply(ReplyKind.ERROR, _("No help on '{topic}'. Topics: {topics}, and any card, "
                                    "guild or command name.").format(
                topic=shown, topics=", ".join(rules_text.main_topics(self.rs, localized=True))))
        title, text = found
        return Reply(ReplyKind.PANEL, title=title, lines=text.split("\n"))

    def listing(self) -> Reply:
        legal = self.driver.legal()
        if not legal:
            view = self.driver.view()
            return Reply(ReplyKind.INFO, prompt_text(view, legal, self.namer))
        self.numbered = list(legal)
        lines = [ngettext("Type a command, or its number. {n} choice: {summary}",
                          "Type a command, or its number. {n} choices: {summary}",
                          len(legal)).format(n=len(legal), summary=commands.summary(legal)),
                 ""]
        lines += commands.listing(legal, limit=300)
        hint = commands.spread_hint(legal)
        if hint:
            lines += ["", hint]
        return Reply(ReplyKind.PANEL, title=_("What you can do now"), lines=lines)

    def score(self) -> Reply:
        view = self.driver.view()
        return Reply(ReplyKind.PANEL, title=_("Scores"), lines=panels.score_lines(view, self.namer,
                                                                          self.rs))

    def tableau(self, args: list[str]) -> Reply:
        view = self.driver.view()
        seats = None
        if args:
            want = " ".join(args).strip().lower()
            seats = [s for s in range(self.namer.n)
                     if self.namer.name(s).lower() == want or str(s) == want or
                     self.namer.letter(s).lower() == want or
                     (want in ("me", "you", "mine", _("me").lower()) and s == self.namer.you)]
            if not seats:
                seats = [s for s in range(self.namer.n)
                         if self.namer.name(s).lower().startswith(want)]
            if len(seats) != 1:
                return Reply(ReplyKind.ERROR, _("No player '{who}'. Players: {names}.").format(
                    who=" ".join(args), names=", ".join(self.namer.names)))
        title = _("Built cards") if seats is None else _("Built cards of {name}").format(
            name=self.namer.name(seats[0]))
        return Reply(ReplyKind.PANEL, title=title, lines=panels.tableau_lines(view, self.namer,
                                                                      self.rs, seats))

    def undo(self) -> Reply:
        """Take back our last action, or say why not ('Bo has played since')."""
        try:
            cmd = self.driver.undo()
        except UndoRefused as exc:
            return Reply(ReplyKind.ERROR, _("Cannot undo: {why}.").format(
                why=reason_text(exc.refusal, self.namer.name)))
        self.numbered = None
        return Reply(ReplyKind.UNDO, _("Taken back: {command}").format(command=shown_command(cmd)))

    # --- game commands ----------------------------------------------------------------------------
    def handle(self, text: str) -> Reply:
        """What the person typed, in their language or in English: read as the canonical
        English command (what the engine, the wire and the log see); refusals quote `text`,
        shortened and with its control characters made visible (`echo`, `tame`)."""
        typed = text.strip()
        if len(typed) > MAX_LINE:
            return Reply(ReplyKind.ERROR, _(
                "That line is {n} characters long: no command is that long, so nothing was "
                "done ('{start}')").format(n=len(typed), start=echo(typed, 24)))
        reply = self._handle(typed)
        reply.text = tame(_shorten_runs(reply.text))
        reply.lines = [tame(ln) if isinstance(ln, str) else ln for ln in reply.lines]
        return reply

    def _handle(self, typed: str) -> Reply:
        line = canonical_line(typed, active_language())
        words = line.split()
        if not words:
            legal = self.driver.legal()
            if len(legal) == 1:
                return self.submit(legal[0], shown_command(legal[0]))
            return Reply(ReplyKind.NONE)
        cc = self.commands.get(words[0].lower())
        if cc is not None:
            args = words[1:] if cc.name in ("help", "?") else typed.split()[1:]
            return cc.run(args)
        if words[0].lower() in ("board", "table"):
            # --plain prints the board for this word itself; the window always shows it
            return Reply(ReplyKind.INFO, _("The board is on the screen; Esc shows it whole."))
        if words[0].lower() in LAN_WORDS:
            # a LAN command in a game on this computer: say so, rather than "unknown command"
            return Reply(ReplyKind.ERROR, _("'{verb}' is a command of a game over the LAN; this "
                                            "game is played on this computer alone.").format(
                verb=echo(typed.split()[0])))
        legal = self.driver.legal()
        view = self.driver.view()
        if not legal:
            if view["phase"] == "over":
                return Reply(ReplyKind.ERROR, _("The game is over. 'quit' leaves; Esc shows the "
                                        "board."))
            return Reply(ReplyKind.ERROR, _("Not your decision now. {prompt}").format(
                prompt=prompt_text(view, legal, self.namer)))
        numbered = self.numbered if self.numbered is not None else legal
        if len(words) == 1 and commands.ascii_int(words[0]) is not None and numbered != legal:
            reply = self.listing()
            reply.lines[:0] = [_("The choices changed since that list: here they are again."),
                               ""]
            return reply
        try:
            cmd = commands.resolve(line, legal, numbered)
        except commands.Resolution as exc:
            return Reply(ReplyKind.ERROR, str(exc))
        if cmd is None:
            missing = commands.incomplete(line, legal)
            if missing:
                return Reply(ReplyKind.ERROR, missing)
        return self.submit(cmd if cmd is not None else line, None, typed=typed)

    def submit(self, command: Command | str, done: str | None,
               typed: str | None = None) -> Reply:
        """Give the command to the driver; the Reply says what was done or why not."""
        legal = self.driver.legal()
        try:
            self.driver.submit(command)
        except belfort.CommandSyntaxError as exc:
            return Reply(ReplyKind.ERROR, self.unreadable(exc, legal, typed))
        except belfort.IllegalCommandError as exc:
            return Reply(ReplyKind.ERROR, _("Refused ({rule}): {reason}.").format(
                rule=exc.rule, reason=reason_text(exc.reason, self.namer.name)))
        except (ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
            # the engine's parser must never take the program down on odd input
            return Reply(ReplyKind.ERROR, _("Cannot read {text!r}: {reason}. Type ? for your "
                                    "choices.").format(text=echo(typed or str(command)),
                                                       reason=reason_text(exc)))
        self.numbered = None
        if done is None:
            done = shown_command(command)
        return Reply(ReplyKind.OK, done)

    def unreadable(self, exc: belfort.CommandSyntaxError, legal: Sequence[Command],
                   typed: str | None = None) -> str:
        """The message for text the engine cannot read: an unknown verb gets a 'did you
        mean' and what is possible now instead of the list of every verb."""
        lang = active_language()
        shown = echo(typed or exc.text or "")
        verb = (exc.text or "").split()[0].lower() if (exc.text or "").split() else ""
        typed_verb = shown.split()[0] if shown.split() else verb
        now = commands.summary(legal)
        if verb and verb not in belfort.commands.VERBS:
            close = difflib.get_close_matches(verb, list(belfort.commands.VERBS) +
                                              [w for w in self.commands], n=1)
            mine = suggest(typed_verb, lang, first=True) if lang != "en" else []
            if mine or close:
                return _("Cannot read '{text}': unknown command '{verb}'. Did you mean "
                         "'{close}'? You can now: {now}. Type ? for the list.").format(
                    text=shown, verb=typed_verb, now=now,
                    close=localize_line(canonical_line(mine[0], lang), lang) if mine
                    else localize_line(close[0], lang))
            return _("Cannot read '{text}': unknown command '{verb}'. You can now: {now}. "
                     "Type ? for the list.").format(text=shown, verb=typed_verb, now=now)
        if verb and not any(c[0] == verb for c in legal):
            return _("'{verb}' is not possible now. You can: {now}. Type ? for the list, "
                     "help {verb} for the rules.").format(verb=localize_line(verb, lang),
                                                          now=now)
        return _("Cannot read {text!r}: {reason}. Type ? for your choices, help for the "
                 "rules.").format(text=shown, reason=reason_text(exc.reason))


# The LAN commands (client.lancmds) and their aliases, as canonical_line reads them.
LAN_WORDS = frozenset(("say", "chat", "handoff", "waiting", "again", "evening"))
MAX_LINE = 300       # longer than any command, a chat line (200 characters) included
ECHO = 60            # what is quoted back of a line the program cannot read
_RUN = re.compile(r"\S{49,}")


def tame(text: str) -> str:
    """``text`` safe to show: a control character (C0, DEL, C1 — an escape sequence
    recolouring the terminal, a bell; a byte that is not UTF-8) is shown as ^X or as �,
    never written raw."""
    if text.isprintable() or not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        return text
    out = []
    for ch in text:
        if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cs"):
            out.append(ch)
        elif ord(ch) < 32:
            out.append("^" + chr(ord(ch) + 64))
        elif ch == "\x7f":
            out.append("^?")
        else:
            out.append("\ufffd")
    return "".join(out)


def echo(text: str, limit: int = ECHO) -> str:
    """Typed text as quoted back: tamed, and cut to ``limit`` characters with an ellipsis."""
    return tame(text if len(text) <= limit else text[:limit - 1] + "…")


def _shorten_runs(text: str) -> str:
    """A refusal quoting a long unbroken word (a paste) shows only its beginning."""
    return _RUN.sub(lambda m: m.group(0)[:40] + "…", text)


def reason_text(reason: object, name_of: Callable[[int], str] | None = None) -> str:
    """An engine reason in the active language: the engine gives English with, where it
    can, the template and its values (belfort.reasons.Reason); see client.reasons."""
    from .reasons import translate_reason
    return translate_reason(reason, name_of)
