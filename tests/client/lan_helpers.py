"""A LAN game in one process for the window's tests: the real session peers of
net.session (MemoryNetwork), with the NetDriver interface on seat 0 and bots on the
other seats.  ``down`` cuts a seat off (a disconnect) and ``clock`` is the peers' time."""

import asyncio
import time

import belfort

from net.session.memnet import MemoryNetwork
from client.textcmd import handoff_command


class MemNetDriver:
    networked = True
    seed = None
    can_keep = False
    game_log = None

    @property
    def handed(self) -> bool:
        return self.peer.handoffs.ours_handed

    def __init__(self, players=3, seed="lan", names=None):
        self.net = MemoryNetwork.create(players, seed=seed, level="random", names=names)
        self.peer = self.net.peers[0]
        self.peer.configure_handoff(auto=None)
        self.seat = 0
        self.names = list(self.peer.names)
        self.ruleset = self.peer.ruleset
        self.alerts = self.peer.alerts
        self._subs = []
        self._closed = False
        self.net.start()
        self.settle()

    # the net plays the bots of every seat but ours
    def settle(self, rounds=3):
        for _ in range(rounds):
            self.net.pump()
            for p in self.net.peers[1:]:
                if p.seat in self.net.down or not p.decision_needed():
                    continue
                bot = self.net.bots.get(p.seat)
                if bot is None:
                    from net.session.memnet import bot_for
                    bot = self.net.bots[p.seat] = bot_for("random", p.seed.hex(), p.seat)
                p.submit(bot.choose(p.game, p.seat), self.net.now)
                self.net._collect(p)
        self.net.pump()

    def tick(self, seconds, step=0.4):
        """Let ``seconds`` pass, in heartbeat-sized steps (a single jump of the clock
        would be taken for a suspended machine)."""
        end = self.net.now + seconds
        while self.net.now < end:
            self.net.now = min(end, self.net.now + step)
            for p in self.net.peers:
                if p.seat not in self.net.down:
                    p.tick(self.net.now)
                    self.net._collect(p)
            self.settle()
        self._notify(self.peer.take_events())

    def view(self):
        return self.peer.view.seat_view()

    def legal(self):
        if not self.peer.decision_needed():
            return []
        return belfort.legal_commands(self.peer.game, 0)

    def submit(self, command):
        events = self.peer.submit(command, self.net.now)
        self.net._collect(self.peer)
        self.settle()
        self._notify(self.peer.take_events())
        return events

    def say(self, text):
        self.peer.say(text, self.net.now)
        self.net._collect(self.peer)
        self.net.pump()

    def chat_since(self, count):
        return self.peer.chat.count, self.peer.chat.since(count)

    def waiting(self):
        return self.peer.view.waiting_text(self.net.now)

    ended = left_for_good = next_game = at_table = False

    def leave_for_good(self):
        self.peer.leave_for_good(self.net.now)
        self.net._collect(self.peer)
        self.settle()
        self._notify(self.peer.take_events())
        return self.peer.n >= 3

    def again(self):
        return ""

    def evening_text(self):
        return ""

    def table_notes(self):
        return [self.peer.departure.ended] if self.peer.departure.ended else []

    def text_command(self, text):
        if not text.strip().startswith("handoff"):
            return None
        return handoff_command(self.peer, text.strip(), self.net.now)

    def peers(self):
        return self.peer.view.peer_states(self.net.now)

    def audit(self):
        return self.peer.audit_result

    def subscribe(self, fn):
        self._subs.append(fn)

    def _notify(self, events):
        for fn in list(self._subs):
            fn(events)

    async def run(self):
        while not self._closed:
            await asyncio.sleep(0.02)

    def close(self):
        self._closed = True

    def leave(self, keep=True):
        self.close()

    def past_events(self):
        return list(self.peer.replayed_events)

    def undo(self):
        cmd = self.peer.take_back(self.net.now)
        self.net._collect(self.peer)
        self.settle()
        self._notify(self.peer.take_events())
        return cmd

    def undo_refusal(self):
        return self.peer.undo_refusal()

    def score_series(self):
        return None

    def stall(self):
        return self.peer.view.stall(self.net.now)

    def handoff(self, seat):
        self.peer.handoff(seat, self.net.now)
        self.net._collect(self.peer)

    def handoff_candidates(self):
        return self.peer.view.handoff_candidates(self.net.now)


def wait_until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)
