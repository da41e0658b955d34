"""NetDriver: a networked game behind the client's GameDriver interface
(client/driver.py), so the terminal UI drives a LAN game exactly like a local one.

    driver.seat, driver.names, driver.ruleset, driver.alerts
    driver.networked     True; driver.seed None (not shown); driver.can_keep False
    driver.view()        our seat's view: SessionPeer.seat_view ({} before the shared seed)
    driver.legal()       our legal commands, [] when no decision of ours is awaited
    driver.submit(cmd)   raises belfort.CommandSyntaxError / IllegalCommandError, or
                         RuntimeError("no decision of ours is awaited now")
    driver.undo()        take back our last action (a signed take-back every peer applies,
                         takeback.py); returns the command, or raises
                         belfort.undo.UndoRefused with the reason
    driver.undo_refusal()  None when undo() would work now, else the Refusal
    driver.past_events()  the engine events from before the window opened (a rejoin)
    driver.game_log      the complete game's log file once written after the audit, or None
    driver.subscribe(fn) fn(events) in the event loop's thread after every change
    driver.peers()       [{"seat", "name", "kind", "state", "quiet"}] — state is
                         "here" | "connected" | "disconnected" | "left"; quiet: seconds silent
    driver.waiting()     e.g. "waiting for Bo (disconnected 12 s) — handoff possible in 2:48"
                         ('' when nobody)
    driver.stall()       the same as data: {"seats": [{"seat", "name", "quiet", "left",
                         "handoff_in" (s, 0 = now, None = cannot), "handoff_now"}],
                         "paused": why the game is paused (None: it is not), "stall_timeout",
                         "text"} — for a countdown; "paused" (2 players, or everyone else
                         away) means: quit when you like, `belfort rejoin` continues
    driver.handoff(seat) vote to hand a seat silent past the time-out to a bot (3-5 players)
    driver.say(text)     a signed chat line to the table; driver.chat_since(n) -> (count, lines)
    driver.text_command("handoff 2")  the same as text; None for anything else
    driver.audit()       None while the game runs; (ok, text) at the end
    driver.score_series()  None (no chart in a LAN game's window)
    await driver.run()   the network work, in a thread; returns when the game is done
    driver.close()

    driver.leave()       the person left the window: tell the others we left for now (an
                         unfinished game: they show "Ana left for now", not a disconnection,
                         and wait for `belfort rejoin`), close, and stop the bots this peer
                         started if nobody else is left to play with them; returns, for a
                         finished game another seat had not finished, what that seat can
                         do (endgame.py: `belfort rejoin --game ID` here gives it the end)
    driver.leave_for_good()  the person leaves for good (net/session/departure.py): a signed
                         leave to everyone; 3-5 players: a bot takes the seat at once
                         (returns True: the window may close), 2 players: the game ends
                         here with a final table and the audit (returns False: the window
                         shows the end).  Raises departure.LeaveRefused with the reason
    driver.left_for_good True once that was said
    driver.again()       once the game is over: ask for another game at this table (evening.py;
                         the answer to show).  run() returns when the game is done, as
                         before; while the table may play again, a thread of the driver keeps
                         the node going (heartbeats, the others' answers) until close() or
                         the next game: once everyone agreed, ``next_game`` is True, the
                         subscribers are told, the window closes and a new NetDriver(node)
                         plays the next game
    driver.table_notes()  what the final table adds: why the game ended early (a player left
                         for good), the evening's results, how to play again
    driver.staying()     after the window closed on a finished game: what to tell the
                         person while we stay for seats that may still fetch the end of
                         the game from us (a seat killed at the very end, rejoining), or
                         None — then leave at once
    driver.serve_end()   stay (answering, relaying) until those seats finished or the stall
                         time passed; returns the farewell (endgame.py) in the latter case.
                         Ctrl-C (KeyboardInterrupt) ends it; leave() then gives the hint

Alerts are net.alerts.Alert objects (kind, text, seat, when, seen), the type the local
game's driver uses too: "desync", "cheat", "disconnect", "reconnect", "error", "info".
run()'s thread receives and keeps time; our own decisions (submit, undo) leave from the
caller's thread before it returns, under the driver's lock like every send: waking
run()'s thread to send them would make them wait for the interpreter lock the window
holds while it redraws (up to the switch interval, 5 ms).  The other actions (say,
handoff) are sent the same way and also wake that thread, for what follows them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import belfort
import zmq

from net.session.core import PLAYING, STOPPED
from net.session.msgs import N_, Msg
from .textcmd import handoff_command

if TYPE_CHECKING:
    from belfort.commands import Command, Event
    from belfort.undo import Refusal
    from net.node.node import Node

IDLE_POLL_MS = 100     # nothing to do: heartbeats and the waiting text are refreshed this often


class NetDriver:
    def __init__(self, node: Node) -> None:
        self.node = node
        self.peer = node.peer
        self.peer.transmit_with(None)      # envelopes go through the outbox: sent under our lock
        self.seat = self.peer.seat
        self.names = list(self.peer.names)
        self.ruleset = self.peer.ruleset
        self.alerts = self.peer.alerts
        self._subs: list[Callable[[list[Event]], None]] = []
        self._lock = threading.RLock()
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed = False
        self._held = False             # the window closed; we stay for a seat (staying())
        self._ran = threading.Event()  # run()'s thread has ended
        self._table: threading.Thread | None = None   # after the game (_keep_table)

    # --- the GameDriver interface ------------------------------------------------------
    networked = True      # the Controller adds say / handoff / waiting
    seed: str | None = None   # the welcome shows no seed: the shared one is the deck's secret
    can_keep = False      # leaving is "left for now" (belfort rejoin), never keep / abandon

    def view(self) -> dict[str, Any]:
        with self._lock:
            return self.peer.view.seat_view()

    def legal(self) -> list[Command]:
        with self._lock:
            if not self.peer.decision_needed():
                return []
            return belfort.legal_commands(self.peer.game, self.seat)

    def submit(self, command: Command | str) -> list[Event] | None:
        with self._lock:
            events = self.peer.submit(command, time.monotonic())
            self.node.flush()          # it leaves now, from this thread (see above)
        return events

    def undo(self) -> Command:
        with self._lock:
            cmd = self.peer.take_back(time.monotonic())
            self.node.flush()
        return cmd

    def past_events(self) -> list[Event]:
        """The engine events of the game before this window opened (a rejoin's replay of
        our log), latest last; [] for a game that starts now."""
        with self._lock:
            return list(self.peer.replayed_events)

    def undo_refusal(self) -> Refusal | None:
        with self._lock:
            return self.peer.undo_refusal()

    @property
    def game_log(self) -> str | None:
        with self._lock:
            return str(self.node.game_log) if self.node.game_log is not None else None

    def handoff(self, seat: int) -> None:
        """Vote to hand a seat silent past the time-out to a bot (3-5 players); every
        other remaining player must vote too.  Raises net.session.handoff.HandoffError."""
        with self._lock:
            self.peer.handoff(seat, time.monotonic())
            self.node.flush()
        self.node.wake()

    def handoff_candidates(self) -> list[int]:
        """Seats that could be handed to a bot now."""
        with self._lock:
            return self.peer.view.handoff_candidates(time.monotonic())

    def text_command(self, text: str) -> str | None:
        """Engine-free commands typed in the client: 'handoff SEAT'.  Returns the answer
        to show, or None if ``text`` is not one of them."""
        if not text.strip().startswith("handoff"):
            return None
        with self._lock:
            answer = handoff_command(self.peer, text.strip())
            self.node.flush()
        self.node.wake()
        return answer

    def say(self, text: str) -> None:
        """A chat line to everyone at the table, signed; raises chat.ChatError if empty."""
        with self._lock:
            self.peer.say(text, time.monotonic())
            self.node.flush()
        self.node.wake()

    def chat_since(self, count: int) -> tuple[int, list[tuple[int, str]]]:
        """(lines said so far, [(seat, text)] of those after the first ``count``)."""
        with self._lock:
            return self.peer.chat.count, self.peer.chat.since(count)

    def subscribe(self, fn: Callable[[list[Event]], None]) -> None:
        self._subs.append(fn)

    def peers(self) -> list[dict[str, Any]]:
        with self._lock:
            return self.peer.view.peer_states(time.monotonic())

    def waiting(self) -> str:
        with self._lock:
            return self.peer.view.waiting_text(time.monotonic())

    def stall(self) -> dict[str, Any]:
        with self._lock:
            return self.peer.view.stall(time.monotonic())

    def audit(self) -> tuple[bool, str] | None:
        with self._lock:
            if self.peer.status == STOPPED:
                return False, self.peer.stop_reason
            return self.peer.audit_result

    def score_series(self) -> None:
        """None: a LAN game's window draws no score chart (its complete log can: belfort
        replay --chart)."""
        return None

    @property
    def status(self) -> str:
        return self.peer.status

    @property
    def handed(self) -> bool:
        """Our seat was handed to a bot (the notice is among the alerts): our game ended
        there, as handed, not stopped."""
        return self.peer.handoffs.ours_handed

    def start(self, timeout: float = 30.0) -> bool:
        """Block until the shared seed is known and our hand is dealt (call before the UI)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._step(IDLE_POLL_MS)
            g = self.peer.game
            if self.peer.status == STOPPED or (g is not None and self.peer.decks
                                               and self.peer.decks[0].ready):
                return True
        return False

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._run)

    @property
    def at_table(self) -> bool:
        with self._lock:
            return self.node.table_open(time.monotonic())

    @property
    def next_game(self) -> bool:
        """The next game of the evening began on our node (a new NetDriver plays it)."""
        return self.node.peer is not self.peer

    def again(self) -> str:
        with self._lock:
            answer = self.node.ask_again()
        self.node.wake()
        return answer

    def evening_text(self) -> str:
        with self._lock:
            return self.node.evening.text()

    def table_notes(self) -> list[str]:
        """Texts for the final table (net messages: the window translates them)."""
        with self._lock:
            notes = []
            if self.peer.departure.ended:
                notes.append(self.peer.departure.ended)
            if self.node.evening.games:
                notes.append(self.node.evening.text())
            if self.node.table_open(time.monotonic()):
                notes.append(Msg(N_("Another game at this table: press a (or type again).")))
            return notes

    def close(self) -> None:
        self._closed = True
        if not self.node.closed:
            self.node.wake()

    def leave(self, keep: bool = True) -> str | None:
        """The person left the window: tell the others we left for now (unless the game is
        done), stop the network work (closing the node if the loop never ran), and the
        bots this peer started if nobody else is left. (`keep` is the local game's choice:
        a LAN game is always left for now.)"""
        with self._lock:
            self.node.leave_for_now()     # (unless the game is done; closing lingers for it)
        self.close()
        if self._loop is None or self._held:
            self.node.close()
        self.node.stop_own_bots()
        with self._lock:
            return None if self.node.done() else self.peer.view.farewell(time.monotonic())

    def leave_for_good(self) -> bool:
        """Leave the game for good; True when nothing more is to be shown here (a bot
        plays the seat now), False when the game ends with a final table to show."""
        with self._lock:
            self.node.leave_for_good()
            gone = self.node.done()
        self.node.wake()
        return gone

    @property
    def left_for_good(self) -> bool:
        return self.node.left_for_good

    @property
    def ended(self) -> bool:
        return bool(self.peer.departure.ended)

    @property
    def left_for_now(self) -> bool:
        """leave() told the others we left an unfinished game for now (they wait for our
        `belfort rejoin`)."""
        return self.node.said_bye

    def staying(self) -> str | None:
        """Call once the window is gone: what to tell the person while this finished peer
        stays for seats that may still fetch the end of the game from it, or None."""
        if self._loop is not None:
            self._ran.wait(10)         # (the window's loop has normally waited for it)
        if not self._held:
            return None
        with self._lock:
            return self.peer.view.staying(time.monotonic())

    def serve_end(self) -> str | None:
        """Stay reachable (answering, relaying) until every seat we stay for has finished
        or has been silent past the stall time; then the farewell (what a seat that did
        not finish can do), or None.  Ctrl-C raises KeyboardInterrupt here."""
        while self._held and not self.node.closed and not self.node.done():
            self._step(IDLE_POLL_MS)
        with self._lock:
            self.node.flush()
            return self.peer.view.farewell(time.monotonic())

    # --- inside ------------------------------------------------------------------------
    def _step(self, timeout_ms: float) -> list[Event]:
        self.node.tend_lobby()
        frames = self.node.mesh.poll(timeout_ms)
        with self._lock:
            now = time.monotonic()
            for src, data in frames:
                self.node.deliver(src, data, now)
            # While the game is played, the window shows the move while its signature is
            # checked below (the check releases the GIL): its seat's own connection vouched
            # for it (Intake._on_word).  Past that, the step stays whole: the window must
            # not see the audit's result before the game's log is written.
            early = bool(frames) and self._loop is not None and self.peer.status == PLAYING
            if not early:
                events = self._after_frames(now)
            else:
                shown = self.peer.take_events()
        if early:
            if shown and self._loop is not None:
                self._loop.call_soon_threadsafe(self._notify, shown)
            with self._lock:
                events = self._after_frames(now)
        self._changed = bool(events or frames)
        return events

    def _after_frames(self, now: float) -> list[Event]:
        """The rest of a step, under the lock: its events."""
        self.peer.confirm(now)
        self.node.follow_moves()      # (a window's peer too follows a seat's new address)
        self.node.watch_address(now)  # and notices this machine's own new address
        self.peer.tick(now)
        self.node.evening_step(now)   # (the next game may begin: run() then returns)
        self.node.flush()
        events = self.peer.take_events()
        self.node.note_finished(now)
        return events

    def _run(self) -> None:
        try:
            while not self._closed and not self.node.done() and not self.next_game:
                events = self._step(IDLE_POLL_MS)
                if self._changed and self._loop is not None:
                    self._loop.call_soon_threadsafe(self._notify, events)
            with self._lock:
                if self._closed and not self.node.said_bye and not self.next_game:
                    # the window closed on a game that goes on: the person left for now, and
                    # the others are told so (not a disconnection) before the node closes
                    self.node.leave_for_now()
                self.node.flush()
        finally:
            # the window closed on a finished game that a seat may still fetch from us
            # (killed at the very end, rejoining): the node stays open for serve_end
            with self._lock:
                self._held = self._closed and not self.node.closed and bool(
                    self.peer.view.staying_for(time.monotonic())) and not self.node.done()
                table = not self._closed and not self.next_game \
                    and self.node.table_open(time.monotonic())
            if table:
                # the game is done, the person still at its final table: the table may play
                # again (evening.py), so the node goes on until they leave or it does
                self._table = threading.Thread(target=self._keep_table, daemon=True,
                                               name="belfort-table")
                self._table.start()
            elif not self._held and not self.next_game:
                self.node.close()
            self._ran.set()

    def _keep_table(self) -> None:
        """After the game: heartbeats and the others' answers about another game, until the
        person leaves (close) or the next game begins (the subscribers are told)."""
        try:
            while not self._closed and not self.next_game and not self.node.closed:
                with self._lock:
                    if not self.node.table_open(time.monotonic()):
                        break
                events = self._step(IDLE_POLL_MS)
                if (self._changed or self.next_game) and self._loop is not None:
                    self._loop.call_soon_threadsafe(self._notify, events)
            if not self._closed and not self.next_game and self._loop is not None:
                # the table closed (everyone else left it): the window stops offering
                # another game
                self._loop.call_soon_threadsafe(self._notify, [])
        except (zmq.ZMQError, RuntimeError):
            pass      # the window's loop or the sockets went away first: nobody to tell
        finally:
            if not self.next_game:
                with self._lock:
                    try:
                        self.node.close()
                    except zmq.ZMQError:
                        pass

    def _notify(self, events: list[Event]) -> None:
        for fn in list(self._subs):
            fn(events)
