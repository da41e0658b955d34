"""`--plain`: the game line by line, for screen readers and pipes.

It prints what happened as sentences, the table when it is your decision, and reads one
command per line. '?' lists your choices (numbered: a number picks one), 'help TOPIC'
explains, 'board' prints the table again, 'quit' leaves. End of input leaves too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from belfort import events as belfort_events
from belfort.data import GUILDS
from net.session.msgs import N_, Msg

from . import chart, panels, recap, render
from . import lancmds
from .controller import Controller, ReplyKind, prompt_text, turn_hint
from .i18n import _, active_language, canonical_line
from .netmessages import net_text
from .words import Describer

if TYPE_CHECKING:
    from .coach import Coach
    from .driver import GameDriver
    from .reply import Reply

SAFETY_WAIT = 1.0     # seconds; a change normally wakes the loop at once
# the input streams read by a thread: (stream, its lines, [the event its UI waits on])
_READERS: dict[int, tuple[TextIO, queue.Queue[str], list[threading.Event]]] = {}
LAN_WORDS = ("say", "chat", "handoff", "waiting", "again", "evening")


class PlainUI:
    def __init__(self, driver: GameDriver, inp: TextIO | None = None, out: TextIO | None = None,
                 width: int = 100, log_path: str | Path | None = None, notes: Iterable[str] = (),
                 coach: Coach | None = None) -> None:
        self.driver = driver
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.width = width
        self.ctl = Controller(driver)
        self.namer = self.ctl.namer
        view = driver.view()
        self.describer = Describer(self.namer, driver.ruleset,
                                   [GUILDS.index(g["guild"]) for g in view["guilds"]])
        self.log_path = log_path
        self.notes = list(notes)
        self.coach = coach
        self.pending: list[str] = []
        self._shown_alerts = 0
        self.chat = lancmds.ChatFeed(driver)
        # a LAN game's typed lines (see _start_reader)
        self.lines: queue.Queue[str] | None = None
        self._printed = False
        # set after every change the driver reports (and when its work ends): the loop
        # below sleeps on it instead of polling
        self._changed = threading.Event()
        driver.subscribe(self._on_events)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()
        self._printed = True

    # --- input: a LAN game reads lines on a thread, so that say, handoff and waiting work
    # --- while the others decide (a local game reads only at our decisions)
    def _start_reader(self) -> None:
        # one reader per input stream: the next game of a LAN evening opens a new PlainUI
        # on the same terminal, and two readers would share its lines between them
        got = _READERS.get(id(self.inp))
        if got is not None and got[0] is self.inp:
            _inp, self.lines, wake = got
            wake[0] = self._changed
            return
        lines: queue.Queue[str] = queue.Queue()
        self.lines = lines
        wake = [self._changed]
        _READERS[id(self.inp)] = (self.inp, lines, wake)
        inp = self.inp

        def read():
            while True:
                try:
                    line = inp.readline()
                except (OSError, ValueError):
                    line = ""
                lines.put(line)
                wake[0].set()
                if not line:
                    return
        threading.Thread(target=read, name="belfort-input", daemon=True).start()

    def _lan_line_waiting(self):
        """A LAN command (say, handoff, waiting) is next in the input: it need not wait
        for our decision.  Anything else waits for it (a pipe's game commands)."""
        if self.lines is None:
            return False
        try:
            head = self.lines.queue[0]
        except IndexError:
            return False
        # (in the player's language too: `rejouer` is `again` typed in French)
        words = canonical_line(head, active_language()).split()
        return bool(words) and words[0] in LAN_WORDS

    def _readline(self):
        """The next typed line ('' at the end of input); None when the game changed
        first (a LAN game only)."""
        if self.lines is None:
            return self.inp.readline()
        while True:
            try:
                return self.lines.get(timeout=SAFETY_WAIT)
            except queue.Empty:
                if self._changed.is_set():
                    return None

    def _on_events(self, events):
        view = self.driver.view()
        # also with no new event: our drawn cards' names may just have reached us
        self.pending += self.describer.sentences(events, view)
        if events:
            named = belfort_events.named_known(events)
            over = any(e.event == "game-over" for e in named)
            for e in named:
                if e.event == "scoring" and not over:
                    lines = panels.score_lines(view, self.namer, self.driver.ruleset,
                                               width=self.width, just=e.round)
                    self.pending += [""] + [ln.text().rstrip() for ln in lines] + [""]
            if self.coach is not None and not over:
                self.pending += self.lesson_text(self.coach.lessons(events, view,
                                                                    self.driver.legal()))
        self._changed.set()

    def _wait_change(self, timeout=None):
        # the timeout only bounds a wait whose wake-up would have been lost
        self._changed.wait(SAFETY_WAIT if timeout is None else min(timeout, SAFETY_WAIT))

    @staticmethod
    def lesson_text(lessons: Iterable[tuple[str, str]]) -> list[str]:
        out = []
        for title, text in lessons:
            out += ["", f"=== {title} ==="] + text.split("\n") + [""]
        return out

    def attention(self) -> None:
        """Our decision has come: a bell on a terminal (never into a pipe or a file)."""
        try:
            if self.out.isatty():
                self.out.write("\a")
        except (AttributeError, ValueError):
            pass

    def flush(self) -> None:
        for s in self.pending:
            self.say(s)
        self.pending = []
        for _seat, line in self.chat.take_shown(self.namer):
            self.say(line)
        alerts = self.driver.alerts
        for a in alerts[self._shown_alerts:]:
            label = render.ALERT_LABEL.get(a.kind)
            self.say(f"!!! {_(label) if label else a.kind.upper()}: {render.alert_text(a)}")
        self._shown_alerts = len(alerts)

    def table(self) -> None:
        view = self.driver.view()
        ctx = render.Context(self.namer, self.driver.ruleset, peers=self.driver.peers(),
                             turn_hint=turn_hint(view, None))
        lines = (render.header(view, ctx, self.width) +
                 render.districts(view, ctx, self.width, False) +
                 render.collection(view, ctx, self.width, False) +
                 render.players(view, ctx, self.width, False) +
                 render.hand_and_piles(view, ctx, self.width, False))
        self.say(render.as_text(lines))

    def run(self) -> int:
        """Read commands on this thread; the driver's background work (bots, network) runs
        on an asyncio loop in another thread, and every call into it goes through that loop."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="belfort-driver", daemon=True)
        thread.start()
        task = asyncio.run_coroutine_threadsafe(self.driver.run(), loop)
        task.add_done_callback(lambda _f: self._changed.set())

        def call(fn):
            async def _do():
                return fn()
            return asyncio.run_coroutine_threadsafe(_do(), loop).result(timeout=60)
        self._call = call
        if self.driver.networked:
            self._start_reader()

        self.say(_("Belfort — plain mode. Type a command; ? lists your choices (a number picks "
                   "one), help TOPIC explains, board shows the table, quit leaves."))
        self.say(_("Players: {players}. You are {letter}.").format(
            players=", ".join(f"{self.namer.letter(s)}={n}"
                              for s, n in enumerate(self.driver.names)),
            letter=self.namer.letter(self.driver.seat)))
        for text in self.notes:
            self.say(text)
        past = call(lambda: recap.earlier(self.driver.past_events()))
        if past:
            self.say(_("Earlier in this game:"))
            for text in call(lambda: self.describer.sentences(past, self.driver.view())):
                self.say(text)
        if self.coach is not None:
            for text in self.lesson_text(call(lambda: self.coach.lessons(
                    [], self.driver.view(), self.driver.legal()))):
                self.say(text)
        last_prompted = None
        try:
            while True:
                self._changed.clear()
                # Look at the task BEFORE reading the view: a view read first may predate
                # the bots' last move that ended the task, and the game's end would be lost.
                stopped = task.done()
                view, legal = call(lambda: (self.driver.view(), self.driver.legal()))
                call(self.flush)
                # (a LAN game may also end early: a player left it for good)
                if view["phase"] == "over" or call(lambda: self.driver.ended):
                    # A networked game's audit runs after the last command: wait for it.
                    deadline = time.monotonic() + 120
                    while True:
                        self._changed.clear()
                        if call(self.driver.audit) is not None or task.done() \
                                or time.monotonic() >= deadline:
                            break
                        self._wait_change(deadline - time.monotonic())
                    call(self.final)
                    if self.driver.networked and self.lines is not None:
                        return self.table_again(task, call)
                    return 0
                if stopped:
                    exc = task.exception() if not task.cancelled() else None
                    if exc is None and call(lambda: self.driver.handed):
                        # (the notice, when and by whose votes, was shown as an alert)
                        self.say(_("Your seat is played by a bot now."))
                        return 5
                    if exc is None:
                        self.say(_("The game stopped before its end."))
                    else:
                        self.say(_("The game stopped: {error}").format(error=exc))
                    return 1
                if not legal:
                    if self.lines is not None and self._lan_line_waiting():
                        text = self.lines.get_nowait().strip()
                        self.show(call(lambda: self.ctl.handle(text)))
                        continue
                    self._wait_change()      # a bot's or a peer's move will wake us
                    continue
                key = (view["phase"], view["step"], view["round"], view["current"],
                       repr(view["players"][self.driver.seat]))
                if key != last_prompted:
                    self.say()
                    call(self.table)
                    self.attention()
                    last_prompted = key
                    self._printed = True
                if self._printed:
                    self.out.write(prompt_text(view, legal, self.namer) + " > ")
                    self.out.flush()
                    self._printed = False
                try:
                    line = self._readline()
                except KeyboardInterrupt:
                    if self.confirm_leave():
                        return 0
                    continue
                if line is None:
                    continue                 # news came first (a chat line, a move)
                self._printed = True
                if not line:
                    self.say("\n" + _("End of input: leaving the game."))
                    self.leave(keep=True)
                    return 0
                text = line.strip()
                if canonical_line(text, active_language()) in ("board", "table"):
                    call(self.table)
                    continue
                reply = call(lambda: self.ctl.handle(text))
                if reply.kind is ReplyKind.QUIT:
                    if self.confirm_leave():
                        return 0
                else:
                    self.show(reply)
        except KeyboardInterrupt:
            self.say("\n" + _("Leaving the game."))
            return 130
        finally:
            loop.call_soon_threadsafe(self.driver.close)
            try:
                task.result(timeout=5)
            except BaseException:
                pass
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)

    def table_again(self, task: concurrent.futures.Future,
                    call: Callable[[Callable[[], Any]], Any]) -> int:
        """After a LAN game: the evening's table, and another game when everyone agrees
        (``again``); the next game begins on the same node (the caller opens it)."""
        driver = self.driver
        for text in call(driver.table_notes):
            self.say(net_text(text))
        while not driver.next_game and call(lambda: driver.at_table):
            line = self._readline()
            if line is None:
                continue
            if not line:
                return 0
            word = line.strip().lower()
            if word in ("quit", "exit", "leave"):
                return 0
            self.show(call(lambda: self.ctl.handle(line.strip())))
        if not driver.next_game:
            # the table closed by itself: everyone else left it
            self.say(net_text(Msg(N_("There is no next game: nobody else at the table wants "
                                     "one."))))
        return 0

    def show(self, reply: Reply) -> None:
        """Print what a command answered."""
        if reply.kind is ReplyKind.QUIT:
            self.say(_("(quit leaves at your next decision)"))
        elif reply.kind is ReplyKind.PANEL:
            self.say(reply.title)
            for ln in reply.lines:
                self.say(ln.text().rstrip() if isinstance(ln, render.Line) else ln)
        elif reply.kind is ReplyKind.LOG:
            self.say(_("(the log is printed as the game goes)"))
        elif reply.kind in (ReplyKind.ERROR, ReplyKind.INFO, ReplyKind.UNDO):
            self.say(reply.text)
        elif reply.kind is ReplyKind.OK:
            self.say(_("OK: {what}").format(what=reply.text))

    def confirm_leave(self) -> bool:
        """Ctrl-C or quit during a running game: ask first (end of input counts as yes; a
        local game is then kept for `belfort play --resume`)."""
        keepable = self.driver.can_keep
        lan = self.driver.networked
        if lan:
            # i18n: the answers y and g stay as they are
            self.out.write("\n" + _("Leave the running game? y = for now (belfort rejoin "
                                    "continues it), g = for good, anything else = stay:") + " ")
        elif keepable:
            # i18n: the answers k and a stay as they are
            self.out.write("\n" + _("Leave the running game? k = keep it for later, a = abandon "
                                    "it, anything else = stay:") + " ")
        else:
            # i18n: the answer y stays as it is
            self.out.write("\n" + _("Leave the running game? (y/n)") + " ")
        self.out.flush()
        try:
            answer = self._readline()
            while answer is None:
                answer = self._readline()
        except KeyboardInterrupt:
            answer = "y"
        word = answer.strip().lower()
        if lan and word.startswith("g"):
            return self.leave_for_good()
        if not answer or word.startswith(("y", "k")) or (keepable and word.startswith("a")):
            keep = not (keepable and word.startswith("a"))
            self.say(_("Leaving the game."))
            self.leave(keep)
            return True
        self.say(_("Still playing."))
        return False

    def leave_for_good(self) -> bool:
        """The LAN game's "leave for good": True when nothing more is shown (a bot plays
        the seat now), False when the game ends here and its end is still to show."""
        from net.session.departure import LeaveRefused     # a LAN game only: net is loaded
        call = getattr(self, "_call", None) or (lambda fn: fn())
        try:
            gone = call(lambda: self.driver.leave_for_good())
        except LeaveRefused as exc:
            self.say(net_text(exc))
            return False
        if gone:
            self.say(_("You left the game for good: a bot plays your seat now."))
            return True
        self.say(_("You left the game for good: it ends here."))
        return False

    def leave(self, keep: bool) -> None:
        if not self.driver.can_keep:
            return
        call = getattr(self, "_call", None) or (lambda fn: fn())
        call(lambda: self.driver.leave(keep=keep))   # on the driver's loop, like every call
        if keep:
            where = f" {self.log_path}" if self.log_path else ""
            self.say(_("The game is kept: belfort play --resume{where} continues it.").format(
                where=where))
        else:
            self.say(_("The game is abandoned (its log can still be replayed)."))

    def final(self) -> None:
        view = self.driver.view()
        ctx = render.Context(self.namer, self.driver.ruleset)
        self.say()
        self.say(render.as_text(render.final_lines(view, ctx, self.driver.audit(),
                                                   width=self.width)))
        series = self.driver.score_series()
        if series is not None:
            lines = chart.text_chart(series)
            if lines:
                self.say()
                self.say(chart.as_text(lines))
        log_path = self.log_path or self.driver.game_log
        if log_path:
            self.say("\n" + _("Game log: {log}   (belfort replay {log})").format(log=log_path))

