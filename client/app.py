"""The full-screen window (prompt_toolkit).

Each frame is drawn from the driver's current view (render.screen); key handlers only build
commands and hand them to the Controller; the driver's background task (bots, network)
calls back when something changed and the window is invalidated.
"""

from __future__ import annotations

import asyncio
import os
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prompt_toolkit.application import Application
from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.bindings.auto_suggest import load_auto_suggest_bindings
from prompt_toolkit.layout import Float, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import AppendAutoSuggestion, BeforeInput
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.styles import Style

from belfort import events as belfort_events
from belfort.data import GUILDS

from . import chart, commands, panels, recap, render, rules_text
from . import lancmds
from .controller import Controller, ReplyKind, prompt_text, turn_hint
from .i18n import (_, active_language, canonical_line, cell_width, complete_word,
                   localize_line, ngettext)
from .i18n import wrap as wrap_cells
from .netmessages import net_text
from .recent import Recent
from .words import Describer

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from .coach import Coach
    from .commands import Hinter
    from .driver import GameDriver, LocalDriver
    from .reply import Reply

STYLE = {
    "brand": "reverse bold",
    "title": "bold",
    "th": "bold",
    "dim": "#8a8a8a",
    "free": "#6c6c6c",
    "p0": "ansired bold",
    "p1": "ansibrightblue bold",
    "p2": "ansiyellow bold",
    "p3": "ansigreen bold",
    "p4": "ansimagenta bold",
    "np": "#b0b0b0",
    "me": "underline",
    "turn": "bold",
    "warn": "ansiyellow",
    "alert": "bg:ansired ansiwhite bold",
    "chat": "italic nobold",        # a player's words, in their colour: never an alert
    "error": "ansired bold",
    "ok": "ansigreen",
    "info": "",
    "paneltitle": "reverse bold",
    "prompt": "bold",
    "prompt.attention": "reverse bold",
    "recent": "reverse",
    "auto-suggestion": "#8a8a8a",
    "guild": "",
    "card": "",
}


def want_colour(flag: bool | None = None) -> bool:
    """False when the person or the terminal asks for no colour (NO_COLOR, TERM=dumb)."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM", "") in ("dumb",):
        return False
    return True


class LegalCompleter(Completer):
    def __init__(self, owner: BelfortApp) -> None:
        self.owner = owner

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterator[Completion]:
        if not document.text_before_cursor.strip() and not complete_event.completion_requested:
            return
        hinter = self.owner.hinter()
        for word, start, meta in localized_complete(hinter, document.text_before_cursor):
            yield Completion(word, start_position=start, display=word.strip(),
                             display_meta=meta)


class LegalSuggest(AutoSuggest):
    """Inline hint: the rest of the first legal command that starts with what was typed."""

    def __init__(self, owner: BelfortApp) -> None:
        self.owner = owner

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        rest = localized_suggestion(self.owner.hinter(), document.text)
        return Suggestion(rest) if rest else None


def localized_complete(hinter: Hinter, before: str,
                       lang: str | None = None) -> list[tuple[str, int, str]]:
    """The Hinter's completions (English) for text typed in the active language: the words
    before the partial one are read as canonical English, the candidates are offered in the
    player's language (an English beginning still completes in English)."""
    lang = active_language() if lang is None else lang
    if lang == "en":
        return hinter.complete(before)
    words = before.split()
    partial = "" if (not before or before[-1].isspace()) else words.pop()
    canon = canonical_line(" ".join(words), lang) if words else ""
    hits = hinter.complete(canon + " " if canon else "")
    if not words and partial:
        hits += [(w, 0, str(meta)) for w, meta in hinter.client_words.items()]
    found = {w.strip(): (w, meta) for w, _start, meta in hits}
    out = []
    for shown, english in complete_word(partial, list(found), lang, first=not words):
        word, meta = found[english]
        out.append((shown + (" " if word.endswith(" ") else ""), -len(partial), meta))
    return out


def localized_suggestion(hinter: Hinter, text: str, lang: str | None = None) -> str | None:
    """The grey hint after the cursor, in the active language."""
    lang = active_language() if lang is None else lang
    if lang == "en":
        return hinter.suggestion(text)
    canon = canonical_line(text, lang) + (" " if text.endswith(" ") else "")
    rest = hinter.suggestion(canon)
    if not rest:
        return None
    whole = localize_line(canon + rest, lang)
    if key_of(whole).startswith(key_of(text)) and len(whole) > len(text):
        return whole[len(text):]
    return None


def key_of(text: str) -> str:
    from .i18n.vocabulary import fold
    return fold(text).lower()


class BelfortApp:
    def __init__(self, driver: GameDriver, colour: bool | None = None, input: Input | None = None,
                 output: Output | None = None, log_path: str | Path | None = None,
                 notes: Iterable[str] = (), coach: Coach | None = None) -> None:
        self.driver = driver
        self.colour = want_colour(colour)
        self.ctl = Controller(driver)
        self.namer = self.ctl.namer
        view = driver.view()
        self.describer = Describer(self.namer, driver.ruleset,
                                   [GUILDS.index(g["guild"]) for g in view["guilds"]])
        self.log: list[tuple[str, str]] = []
        self.log_scroll = 0
        self.panel: tuple[str, list[Any]] | None = None    # (title, [text lines])
        self.panel_scroll = 0
        self.hint = ("class:dim", _("Tab completes · ? choices · help TOPIC · Ctrl-Z undo · "
                                    "Ctrl-C leaves"))
        self.message: tuple[str, str] = self.hint
        # the message that speaks of the open panel
        self._panel_message: tuple[str, str] | None = None
        self._scoring_title: str | None = None
        self.confirm: bool | str = False
        self.log_path = log_path
        self._hinter: Hinter | None = None
        self._hinter_key: tuple[object, ...] | None = None
        self._topics = rules_text.topic_names(driver.ruleset)
        self.finished = False
        self.final_audit: tuple[bool, str] | None = None
        self._final_notes: list[str] = []        # the table's notes the final panel shows
        self.left: str | None = None  # "kept" | "abandoned" when a local game was left
        self.recent = Recent()
        self.coach = coach
        self.lessons: list[tuple[str, str]] = []   # the tutorial's lessons waiting for the panel
        self.attention = False        # our decision just came: the prompt stands out
        self._was_ours = self.ours()
        self.chat = lancmds.ChatFeed(driver)
        me = view["players"][driver.seat]
        # a local game names its player "You": no name to greet then
        welcome = (_("Welcome! You play {letter} (seat {seat}). Players: {players}.")
                   if me["name"] == _("You") else
                   _("Welcome, {name}! You play {letter} (seat {seat}). Players: {players}.")
                   ).format(name=me["name"], letter=self.namer.letter(driver.seat),
                             seat=driver.seat, players=", ".join(
                                 f"{self.namer.letter(s)}={n}"
                                 for s, n in enumerate(driver.names)))
        if driver.seed:
            welcome += " " + _("Seed {seed}.").format(seed=driver.seed)
        self.note(welcome, "class:ok")
        self.note(_("Type ? for what you can do, help for the rules; Tab completes, → takes "
                    "the hint after the cursor."), "class:dim")
        for text in notes:
            self.note(text, "class:ok")
        past = recap.earlier(driver.past_events())
        if past:
            self.note(_("Earlier in this game:"), "class:dim")
            self._describe(past, view)
        self.buffer = Buffer(completer=LegalCompleter(self), complete_while_typing=True,
                             auto_suggest=LegalSuggest(self), history=InMemoryHistory(),
                             multiline=False, accept_handler=self._accept,
                             on_text_changed=self._typed)
        style = dict(STYLE)
        if not self.colour:
            # without colour a grey hint would look typed: underline it instead
            style["auto-suggestion"] = "underline"
        self.app: Application[None] = Application(layout=self._layout(),
                               key_bindings=merge_key_bindings([load_auto_suggest_bindings(),
                                                                self._keys()]),
                               style=Style.from_dict(style), full_screen=True,
                               mouse_support=False, input=input, output=output,
                               color_depth=None if self.colour else ColorDepth.MONOCHROME,
                               # a LAN game: "disconnected 12 s" counts on with no news
                               refresh_interval=1.0 if driver.networked else None)
        driver.subscribe(self._on_events)
        if self.coach is not None:
            self.show_lessons(self.coach.lessons([], view, self.driver.legal()))

    # --- state shown -------------------------------------------------------------------------
    def note(self, text: str, style: str = "") -> None:
        self.log.append((style, text))
        if len(self.log) > 2000:
            del self.log[:500]

    def ours(self) -> bool:
        """Is a decision ours now (a turn, a placement, showing a card to the Spies…)?"""
        return self.driver.seat in self.driver.view()["waiting_for"] and bool(self.driver.legal())

    def _typed(self, _buffer):
        self.attention = False

    def hinter(self) -> Hinter:
        view = self.driver.view()
        key = (view["phase"], view["step"], view["round"], view["current"], len(self.log),
               repr(view["players"][self.driver.seat]), repr(view["board"]))
        if self._hinter is None or key != self._hinter_key:
            self._hinter = commands.Hinter(self.driver.legal(), view, self.driver.ruleset,
                                           self._topics, self.ctl.client_words(),
                                           self.namer.names)
            self._hinter_key = key
        return self._hinter

    def size(self) -> tuple[int, int]:
        try:
            s = self.app.output.get_size()
            return s.columns, s.rows
        except Exception:     # pragma: no cover
            return 80, 24

    def context(self, view: dict[str, Any], width: int) -> render.Context:
        alerts = render.current_alerts(self.driver.alerts)
        ctx = render.Context(self.namer, self.driver.ruleset, log=self.log,
                             log_scroll=self.log_scroll, peers=self.driver.peers(),
                             alerts=alerts, turn_hint=turn_hint(view, None),
                             choices=commands.summary(self.driver.legal()),
                             recent=self.recent)
        if self.panel is not None:
            title, lines = self.panel
            body = []
            for ln in lines:
                if isinstance(ln, render.Line):
                    body.append(ln)
                else:
                    body += render.wrap(ln, width)
            ctx.panel = (title, body)
            ctx.panel_scroll = self.panel_scroll
        return ctx

    def main_lines(self, width: int | None = None,
                   height: int | None = None) -> list[render.Line]:
        w, h = self.size()
        width = width or w
        height = height or max(3, h - self.input_height() - self.message_height())
        view = self.driver.view()
        return render.screen(view, self.context(view, width), width, height)

    def _main_fragments(self):
        return render.as_fragments(self.main_lines())

    def input_height(self) -> int:
        w, _h = self.size()
        need = cell_width(self.prompt()) + cell_width(self.buffer.text) + 2
        return max(1, min(3, -(-need // max(w, 1))))

    def _message_lines(self):
        w, _h = self.size()
        if not self.message[1].isascii():
            return wrap_cells(self.message[1], max(w, 10)) or [""]
        return textwrap.wrap(self.message[1], max(w, 10)) or [""]

    def message_height(self) -> int:
        """Room for the whole message (a refusal with its example), up to 6 lines."""
        return min(6, len(self._message_lines()))

    def _message_fragments(self):
        style = self.message[0]
        return [(style, "\n".join(self._message_lines()[:6]))]

    def prompt(self) -> str:
        if self.confirm == "keep":
            # i18n: the keys k and a stay as they are
            return _("Leave the game? k: keep it for later · a: abandon it · other key: stay") \
                + " "
        if self.confirm == "lan":
            # i18n: the keys y and g stay as they are
            return _("Leave the game? y: for now · g: for good · other key: stay") + " "
        if self.confirm:
            # i18n: the key y stays as it is
            return _("Leave the game? (y/n)") + " "
        view = self.driver.view()
        legal = self.driver.legal()
        if not legal:
            stalled = lancmds.stalled_sentence(self.driver)
            if stalled:
                return stalled + " › "
        return prompt_text(view, legal, self.namer) + " › "

    # --- layout and keys -----------------------------------------------------------------------
    def _layout(self):
        main = Window(FormattedTextControl(self._main_fragments), wrap_lines=False)
        msg = Window(FormattedTextControl(self._message_fragments),
                     height=lambda: self.message_height(), wrap_lines=True)
        inp = Window(BufferControl(self.buffer, input_processors=[
            BeforeInput(lambda: [("class:prompt.attention" if self.attention else
                                  "class:prompt", self.prompt())]),
            AppendAutoSuggestion()]),
            height=lambda: self.input_height(), wrap_lines=True)
        body = FloatContainer(
            content=HSplit([main, msg, inp]),
            floats=[Float(xcursor=True, ycursor=True,
                          content=CompletionsMenu(max_height=10, scroll_offset=1))])
        return Layout(body, focused_element=inp)

    def _keys(self):
        kb = KeyBindings()
        confirming = Condition(lambda: bool(self.confirm))

        @kb.add("c-c")
        @kb.add("c-q")
        def _(event):
            self.ask_quit()

        @kb.add("y", filter=confirming, eager=True)
        @kb.add("Y", filter=confirming, eager=True)
        @kb.add("k", filter=confirming, eager=True)
        @kb.add("K", filter=confirming, eager=True)
        def _(event):
            self.quit(keep=True)

        @kb.add("g", filter=Condition(lambda: self.confirm == "lan"), eager=True)
        @kb.add("G", filter=Condition(lambda: self.confirm == "lan"), eager=True)
        def _(event):
            self.leave_for_good()

        @kb.add("a", filter=Condition(lambda: self.confirm == "keep"), eager=True)
        @kb.add("A", filter=Condition(lambda: self.confirm == "keep"), eager=True)
        def _(event):
            self.quit(keep=False)

        @kb.add("a", filter=Condition(lambda: self.finished and not self.confirm
                                      and not self.buffer.text
                                      and self.driver.networked), eager=True)
        def _(event):
            self.message = ("class:info", net_text(self.driver.again()))
            self.invalidate()

        @kb.add("c-z", filter=~confirming)
        def _(event):
            self.submit_text("undo")

        @kb.add("<any>", filter=confirming, eager=True)
        def _(event):
            self.confirm = False
            self.message = ("class:dim", "Still playing.")

        @kb.add("escape", eager=True)
        def _(event):
            buf = event.app.current_buffer
            if buf.complete_state:
                buf.cancel_completion()
                return
            unseen = [a for a in self.driver.alerts if not a.seen]
            if unseen:
                for a in unseen:
                    a.seen = True
            elif self.panel is not None:
                self.close_panel()
            elif self.log_scroll:
                self.log_scroll = 0
            elif self.finished:
                self.show_final()        # Esc goes back and forth: the board, the end

        @kb.add("pageup")
        def _(event):
            if self.panel is not None:
                self.panel_scroll = max(0, self.panel_scroll - 10)
            else:
                self.log_scroll = min(self.log_scroll + 5, max(0, len(self.log) - 1))

        @kb.add("pagedown")
        def _(event):
            if self.panel is not None:
                self.panel_scroll += 10
            else:
                self.log_scroll = max(0, self.log_scroll - 5)

        return kb

    # --- input ------------------------------------------------------------------------------------
    def _accept(self, buff):
        self.submit_text(buff.text)
        return False

    def submit_text(self, text: str) -> Reply | None:
        self.attention = False
        if not text.strip() and self.panel is not None and not self.finished:
            # Enter on an empty line dismisses a panel (a scoring, a lesson) like Esc
            self.close_panel()
            self.invalidate()
            return None
        shown = self.panel
        reply = self.ctl.handle(text)
        self.show_chat()                  # our own 'say' shows at once
        if reply.kind is ReplyKind.NONE:
            return reply
        if reply.kind is ReplyKind.QUIT:
            self.ask_quit()
        elif reply.kind is ReplyKind.LOG:
            self.panel = (_("The whole log"), [t for _style, t in self.log])
            self.panel_scroll = max(0, len(self.log) - 15)
        elif reply.kind is ReplyKind.PANEL:
            self.panel = (reply.title, reply.lines)
            self.panel_scroll = 0
            self.panel_message("class:dim", _("Esc returns to the board."))
        elif reply.kind is ReplyKind.UNDO:
            self.note(f"↶ {reply.text}", "class:dim")
            self.log_scroll = 0
            # "one more" only when there is one (in a LAN game another player may have
            # played since our previous step)
            more = self.driver.undo_refusal() is None
            self.message = ("class:ok", "↶ " + (_("{what} (Ctrl-Z takes back one more)").format(
                what=reply.text) if more else reply.text))
        elif reply.kind is ReplyKind.ERROR:
            self.message = ("class:error", reply.text)
        elif reply.kind is ReplyKind.INFO:
            self.message = ("class:info", reply.text)
        elif reply.kind is ReplyKind.OK:
            if not self.finished and self.panel is shown:
                # the command closes what the person had opened (help, ?), not what the
                # game opened meanwhile (a scoring, a lesson)
                self.close_panel()
            self.log_scroll = 0
            self.recent.clear()          # the others' moves were seen: highlight anew
            self.message = ("class:ok", f"✓ {reply.text}")
        self.invalidate()
        return reply

    def ask_quit(self) -> None:
        if self.finished or self.driver.view()["phase"] == "over":
            self.quit()
            return
        if self.driver.can_keep:
            self.confirm = "keep"
            self.message = ("class:error", _("Leave the running game? k keeps it for later "
                                             "(belfort play --resume), a abandons it, any "
                                             "other key stays."))
        elif self.driver.networked:
            self.confirm = "lan"
            self.message = ("class:error", _(
                "Leave the running game? y leaves for now (belfort rejoin continues it); g "
                "leaves for good (3–5 players: a bot takes your seat at once; 2 players: the "
                "game ends here); any other key stays."))
        else:
            self.confirm = True
            self.message = ("class:error", _("Leave the running game? Press y to leave, any "
                                             "other key to stay."))
        self.invalidate()

    def leave_for_good(self) -> None:
        """The LAN game's "leave for good": a bot takes the seat (the window closes) or,
        at 2 players, the game ends here and the window shows its final table."""
        self.confirm = False
        from net.session.departure import LeaveRefused     # a LAN game only: net is loaded
        try:
            gone = self.driver.leave_for_good()
        except LeaveRefused as exc:
            self.message = ("class:error", net_text(exc))
            self.invalidate()
            return
        if gone:
            self.quit()
            return
        self.message = ("class:info", _("You left the game for good: it ends here."))
        self.invalidate()

    def quit(self, keep: bool = True) -> None:
        """Leave; a local game is kept for `--resume` (or abandoned: keep=False)."""
        if self.confirm == "keep":
            self.left = "kept" if keep else "abandoned"
            # only a local game's driver offers to keep the game
            cast("LocalDriver", self.driver).leave(keep=keep)
        self.confirm = False
        if self.app.is_running:
            self.app.exit()

    def invalidate(self) -> None:
        if self.app.is_running:
            self.app.invalidate()

    # --- what the driver reports ------------------------------------------------------------
    def show_chat(self) -> None:
        for seat, line in self.chat.take_shown(self.namer):
            self.note(line, f"{self.namer.style(seat)} class:chat")

    def _describe(self, events, view):
        for line in self.describer.sentences(events, view):
            style = ""
            if line.startswith("──"):
                style = "class:title"
            elif line.startswith("★"):
                style = "class:ok"
            self.note(line, style)

    def _on_events(self, events):
        if self.driver.next_game:
            if self.app.is_running:
                self.app.exit()      # the next game of the evening: a window of its own
            return
        self.show_chat()
        view = self.driver.view()
        # also with no new event: our drawn cards' names may just have reached us
        self._describe(events, view)
        if events:
            self.recent.add(events, self.driver.seat,
                            {GUILDS.index(g["guild"]): f"guild@{d}"
                             for d, g in enumerate(view["guilds"])})
            named = belfort_events.named_known(events)
            # (or a LAN game ended early: a player left it for good, departure.py)
            over = any(e.event == "game-over" for e in named) or \
                any(ev and ev[0] == "ended" for ev in events)
            if over and not self.finished:
                self.finished = True
                self.show_final()
            elif not over:
                for e in named:
                    if e.event == "scoring":
                        self.show_scoring(e.round, view)
            if self.coach is not None and not self.finished:
                self.show_lessons(self.coach.lessons(events, view, self.driver.legal()))
        if self.finished and self.final_audit is None and self.driver.audit() is not None:
            self.show_final()   # a networked audit finishes after the last command
        elif self.finished and self.panel is not None and self.panel[0] == _("The end") \
                and self._table_notes() != self._final_notes:
            self.show_final()   # the table changed: everyone else left it, no next game
        ring = any(not a.seen for a in self.driver.alerts)
        ours = self.ours()
        if ours and not self._was_ours:
            # our turn (or the Spies ask us): a bell, and the prompt stands out until we type
            self.attention = True
            ring = True
        self._was_ours = ours
        if ring:
            try:
                self.app.output.bell()
            except Exception:     # pragma: no cover
                pass
        self.invalidate()

    def show_scoring(self, rnd: int, view: dict[str, Any]) -> None:
        """The breakdown of the scoring phase that just happened, until dismissed."""
        lines = panels.score_lines(view, self.namer, self.driver.ruleset, just=rnd)
        self._scoring_title = _("Scoring after month {m}").format(m=rnd)
        self.panel = (self._scoring_title, lines)
        self.panel_scroll = 0
        self.panel_message("class:ok", _("Scoring after month {m}: Esc (or Enter) returns to "
                                         "the board; 'score' shows it again.").format(m=rnd))

    def _scoring_shown(self):
        return self.panel is not None and self.panel[0] == self._scoring_title

    def close_panel(self) -> None:
        """Close the panel; the next waiting lesson of the tutorial, if any, takes its
        place."""
        self.panel = None
        self.panel_scroll = 0
        if self.lessons:
            self._show_lesson(*self.lessons.pop(0))
        elif self.message is self._panel_message:
            # "Esc returns to the board" is done with
            self.message = self.hint if not self.finished else (
                "class:ok", _("Game over. Esc shows the final scores again; quit (or Ctrl-C) "
                              "leaves."))

    def show_lessons(self, lessons: Iterable[tuple[str, str]]) -> None:
        """The tutorial's explanations, one panel each, shown in turn as each is closed;
        a lesson that comes with a scoring is shown above its breakdown."""
        self.lessons += lessons
        if self.lessons and (self.panel is None or self._scoring_shown()):
            self._show_lesson(*self.lessons.pop(0))

    def _show_lesson(self, title, text):
        lines = [render.Line((title, "class:title"))] + text.split("\n")
        if self._scoring_shown():
            assert self.panel is not None      # the scoring panel is up
            lines += ["", render.Line(("─" * 20, "class:dim"))] + list(self.panel[1])
        self.panel = (_("Tutorial: {title}").format(title=title), lines)
        self.panel_scroll = 0
        if self.lessons:
            self.panel_message("class:ok", ngettext(
                "Read this, then Esc or Enter ({n} more to read). 'help' explains more; 'quit' "
                "ends the game.", "Read this, then Esc or Enter ({n} more to read). 'help' "
                "explains more; 'quit' ends the game.", len(self.lessons)).format(
                    n=len(self.lessons)))
        else:
            self.panel_message("class:ok", _("Read this, then Esc or Enter. 'help' explains "
                                             "more; 'quit' ends the game."))

    def panel_message(self, style: str, text: str) -> None:
        """The status line for the panel just opened: replaced by the usual hint when the
        panel closes (unless something else was said meanwhile)."""
        self.message = self._panel_message = (style, text)

    def show_final(self) -> None:
        view = self.driver.view()
        audit = self.final_audit = self.driver.audit()
        ctx = render.Context(self.namer, self.driver.ruleset)
        lines = render.final_lines(view, ctx, audit, width=self.size()[0])
        series = self.driver.score_series()
        if series is not None:
            lines += [render.Line()] + [render.Line(*[(t, st) for st, t in frags])
                                        for frags in chart.text_chart(series)]
        log_path = self.log_path or self.driver.game_log
        if log_path:
            width = self.size()[0]
            lines += [render.Line()] + render.unbroken(
                _("Game log: {log}").format(log=log_path), width, "class:dim") + \
                render.unbroken(_("Step through it with: belfort replay {log}").format(
                    log=log_path), width, "class:dim")
        self._final_notes = self._table_notes()
        for text in self._final_notes:
            lines += [render.Line()] + [render.Line((ln, "class:dim")) for ln in text.split("\n")]
        self.panel = (_("The end"), lines)
        self.panel_scroll = 0
        if self.driver.networked and self.driver.at_table:
            # (the panel's own line saying so may be below the fold at 80x24)
            self.panel_message("class:ok", _("Game over. a: another game · Esc: the board · "
                                             "quit (or Ctrl-C) leaves."))
        else:
            self.panel_message("class:ok", _("Game over. Esc shows the board; quit (or Ctrl-C) "
                                             "leaves."))

    def _table_notes(self) -> list[str]:
        return [str(net_text(text)) for text in self.driver.table_notes()]

    # --- running ----------------------------------------------------------------------------------
    async def run_async(self) -> None:
        task = asyncio.ensure_future(self.driver.run())

        def done(t):
            if self.driver.next_game and self.app.is_running:
                self.app.exit()          # the next game of the evening: a window of its own
                return
            if not t.cancelled() and t.exception() is not None:
                from .driver import Alert
                self.driver.alerts.append(Alert("error", _("the game stopped: {error}").format(
                    error=repr(t.exception()))))
                self.invalidate()
        task.add_done_callback(done)
        try:
            await self.app.run_async()
        finally:
            self.driver.close()
            if not task.done():
                task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    def run(self) -> None:
        asyncio.run(self.run_async())
