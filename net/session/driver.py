"""NetDriver: a networked game behind the client's GameDriver interface
(client/driver.py), so the terminal UI drives a LAN game exactly like a local one.

    driver.seat, driver.names, driver.ruleset, driver.alerts
    driver.view()        belfort.seat_view of our seat ({} before the shared seed is known)
    driver.legal()       our legal commands, [] when no decision of ours is awaited
    driver.submit(cmd)   raises belfort.CommandSyntaxError / IllegalCommandError, or
                         RuntimeError("no decision of ours is awaited now")
    driver.subscribe(fn) fn(events) in the event loop's thread after every change
    driver.peers()       [{"seat", "name", "kind", "state", "quiet"}] — state is
                         "here" | "connected" | "disconnected" | "left"; quiet: seconds silent
    driver.waiting()     e.g. "waiting for Bo (disconnected 12 s)" ('' when nobody)
    driver.handoff(seat) vote to hand a seat silent past the time-out to a bot (3-5 players)
    driver.text_command("handoff 2")  the same as text; None for anything else
    driver.audit()       None while the game runs; (ok, text) at the end
    await driver.run()   the network work, in a thread; returns when the game is done
    driver.close()

Alerts are net.session.Alert objects (kind, text, seat, when, seen), the same fields
as client.driver.Alert: "desync", "cheat", "disconnect", "reconnect", "error", "info".
All socket work happens in run()'s thread; submit only queues our envelopes.
"""

from __future__ import annotations

import asyncio
import threading
import time

import belfort

from .core import STOPPED


class NetDriver:
    def __init__(self, node) -> None:
        self.node = node
        self.peer = node.peer
        self.peer.transmit = None      # envelopes go through the outbox: one socket thread
        self.seat = self.peer.seat
        self.names = list(self.peer.names)
        self.ruleset = self.peer.ruleset
        self.alerts = self.peer.alerts
        self._subs = []
        self._lock = threading.RLock()
        self._closed = False
        self._loop = None
        self._changed = False

    # --- the GameDriver interface ------------------------------------------------------
    def view(self) -> dict:
        with self._lock:
            g = self.peer.game
            return {} if g is None else belfort.seat_view(g, self.seat)

    def legal(self) -> list:
        with self._lock:
            if not self.peer.decision_needed():
                return []
            return belfort.legal_commands(self.peer.game, self.seat)

    def submit(self, command):
        with self._lock:
            return self.peer.submit(command, time.monotonic())

    def handoff(self, seat: int) -> None:
        """Vote to hand a seat silent past the time-out to a bot (3-5 players); every
        other remaining player must vote too.  Raises net.session.handoff.HandoffError."""
        with self._lock:
            self.peer.handoff(seat, time.monotonic())

    def handoff_candidates(self) -> list:
        """Seats that could be handed to a bot now."""
        with self._lock:
            return self.peer.handoff_candidates(time.monotonic())

    def text_command(self, text: str) -> str | None:
        """Engine-free commands typed in the client: 'handoff SEAT'.  Returns the answer
        to show, or None if ``text`` is not one of them."""
        if not text.strip().startswith("handoff"):
            return None
        from .peer import handoff_command
        with self._lock:
            return handoff_command(self.peer, text.strip())

    def subscribe(self, fn) -> None:
        self._subs.append(fn)

    def peers(self) -> list:
        with self._lock:
            return self.peer.peer_states(time.monotonic())

    def waiting(self) -> str:
        with self._lock:
            return self.peer.waiting_text(time.monotonic())

    def audit(self):
        with self._lock:
            if self.peer.status == STOPPED:
                return False, self.peer.stop_reason
            return self.peer.audit_result

    @property
    def status(self) -> str:
        return self.peer.status

    def start(self, timeout: float = 30.0) -> bool:
        """Block until the shared seed is known and our hand is dealt (call before the UI)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._step(20)
            g = self.peer.game
            if self.peer.status == STOPPED or (g is not None and self.peer.decks
                                               and self.peer.decks[0].ready):
                return True
        return False

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._run)

    def close(self) -> None:
        self._closed = True

    # --- inside ------------------------------------------------------------------------
    def _step(self, timeout_ms: float) -> list:
        frames = self.node.mesh.poll(timeout_ms)
        with self._lock:
            now = time.monotonic()
            for src, data in frames:
                self.peer.receive(data, now, src)
            self.peer.tick(now)
            self.node.flush()
            events = self.peer.take_events()
            if self.peer.finished and self.node.finished_at is None:
                self.node.finished_at = now
                if self.node.store is not None and self.peer.status != STOPPED:
                    self.node.store.mark_finished(self.node.summary())
        self._changed = bool(events or frames)
        return events

    def _run(self) -> None:
        try:
            while not self._closed and not self.node.done(grace=10.0):
                events = self._step(10)
                if self._changed and self._loop is not None:
                    self._loop.call_soon_threadsafe(self._notify, events)
            with self._lock:
                self.node.flush()
        finally:
            self.node.close()

    def _notify(self, events) -> None:
        for fn in list(self._subs):
            fn(events)
