"""Leaving a game for good (``sess/leave``), as opposed to leaving for now (``ctl/bye``).

A player who says they will not come back signs a ``sess/leave``: a sequenced message of
their own seat, so every peer processes it at the same place in that seat's stream (after
every message the seat sent before it), keeps it in its log and replays it on a rejoin.
A relayed copy counts as much as the original: it is the seat's signature that speaks,
not the connection it came through.  What follows:

- **3 to 5 players**: each other seat votes at once to hand the seat to a bot (the
  ordinary handoff, handoff.py: every remaining seat's vote, the cut, the escrow shares,
  the bot hosted by the lowest remaining seat).  The vote cites the leave, so nobody waits
  out the stall time.  A seat that cannot be handed over (one handoff per game already
  made, or its escrow never arrived) cannot leave for good: it is told so before anything
  is sent, and may leave for now.
- **2 players**: there is nobody to play the seat against but a bot the opponent would
  host with every card of the leaver known, and no escrow to rebuild it from, so the game
  ends.  The seat that stays answers with ``sess/end`` (how many steps it had applied,
  which the leaver reaches too, since it sends no decision after leaving): both tables end
  at the same step, with the same final table, calmly — nobody is accused.

What the leaver cannot escape by leaving (why the rules below hold):

- **The audit.**  A seat that tampered with the deck might want to leave just before the
  end, when the deck audit would show it.  Leaving never skips it: at 2 players the game
  ends as over, and every seat publishes its deck secrets exactly as at a normal end (the
  leaver's peer stays for that, and a leaver that withholds them owes them like any
  audit: deadlines.py names it); at 3-5 the handoff rebuilds the leaver's master secret
  from the escrow, checks it against the leaver's deck commitments (handoff.py), and the
  bot publishes the seat's audit at the end.
- **Its hand's secrecy, paid for.**  At 3-5 the escrow makes the leaver's hand known to
  everyone (as at any handoff); a leaver cannot keep it secret by choosing the moment to
  leave, nor reveal it to one player only.  At 2 players every hand is made public by
  the audit at the end, as at a normal end, and the game is over: nothing learnt then can
  be used in it.
- **A last decision.**  No decision of a seat counts after its leave (a ``sess/cmd``,
  ``sess/undo`` or simultaneous commitment that follows it is refused, on every peer at
  the same place), so a leaver cannot leave and play on, nor take back a move once gone.
  Its automatic steps (key releases) still count until the cut: they are the protocol's,
  and the bot makes them again from the cut on.
- **Another seat's word.**  Only the seat itself signs its leave; a ``sess/end`` is
  believed only by a seat that left (2 players), and only at the step where it left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from net.crypto import wire

from .effects import Names, Out, Refused
from .escrow import MIN_SEATS
from .msgs import N_, Msg
from .table import PLAYING

if TYPE_CHECKING:
    from net.crypto import Signer

    from .dispatch import Dispatcher
    from .escrow import Escrow
    from .handoff import Handoff
    from .msglog import MessageLog
    from .table import GameTable

# the ``why`` of a handoff vote on a seat that left for good (handoff.py keeps it)
LEFT_FOR_GOOD = "left for good"

YOU_ENDED = N_("The game ended because you left it for good. The table is shown as it stood.")
THEY_ENDED = N_("{name} left the game for good: the game ends here, with the table as it "
                "stood. Nobody did anything wrong.")
THEY_LEFT = N_("{name} left the game for good: the seat is handed to a bot now")
DECISIONS = ("sess/cmd", "sess/undo")


class LeaveRefused(Exception):
    """Leaving for good is not possible now (the text says why)."""


class Departure:
    def __init__(self, signer: Signer, names: Names, *, table: GameTable, log: MessageLog,
                 escrow: Escrow, handoffs: Handoff,
                 steps: Callable[[], int]) -> None:
        """``steps()``: how many steps (commands and take-backs) the table has applied."""
        self.signer, self.seat, self.names = signer, signer.seat, names
        self.table, self.log, self.escrow, self.handoffs = table, log, escrow, handoffs
        self.n = table.n
        self.steps = steps
        self.left: dict[int, int] = {}       # seat -> the seq of its sess/leave, processed
        self.ours = False                    # we left for good
        self.ended: str = ""                 # why the game ended early ('' : it did not)

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("sess/leave", self.on_leave, ready=lambda body: self.table.game is not None)
        dispatch.on("sess/end", self.on_end, ready=self._end_ready)

    # ------------------------------------------------------------ ours
    def refusal(self) -> str | None:
        """Why we cannot leave for good now, or None."""
        if self.ours:
            return Msg(N_("you already left this game for good"))
        if self.table.status != PLAYING or self.table.game is None:
            return Msg(N_("the game is not running: there is nothing to leave for good"))
        if self.n >= MIN_SEATS and len(self.escrow.escrow) < self.n - 1:
            # (ours went out once every seat's escrow key was in, as theirs did)
            return Msg(N_("the seats' escrow is not complete yet, so your seat "
                          "could not be handed to a bot: leave for now instead, or wait a "
                          "moment"))
        if self.n >= MIN_SEATS and self.handoffs.handed:
            return Msg(N_("a seat was already handed to a bot in this game, so yours cannot "
                          "be (one handoff per game): leave for now instead"))
        return None

    def leave(self) -> Out:
        """Our ``sess/leave`` (a local decision: logged, and made again on a rejoin)."""
        why = self.refusal()
        if why is not None:
            raise LeaveRefused(why)
        g = self.table.game
        assert g is not None, "refusal() says the game is dealt"
        self.log.record("leave", g.version)
        return Out(send=[self.signer.sign("sess/leave", {"v": g.version})])

    def own(self, body: dict) -> Out:
        """One of our envelopes of this part, made or adopted after a rejoin."""
        if body["type"] == "sess/leave":
            self.ours = True
        return Out()

    def decides(self, seat: int) -> bool:
        """``seat`` may still make decisions (it has not left for good)."""
        return not (self.ours if seat == self.seat else seat in self.left)

    def check(self, body: dict) -> None:
        """Refuse a decision of a seat that left for good (every peer at the same place)."""
        t, seat = body["type"], body["seat"]
        handed = self.handoffs.handed.get(seat)
        if handed is not None and body["seq"] >= handed["cut"]:
            return               # the bot's, from the cut on
        if seat in self.left and (t in DECISIONS or (
                t == "commit/commit" and str(body.get("purpose", "")).startswith("sim/"))):
            raise Refused("cheat", seat, Msg(N_("{who} sent a decision after leaving the game "
                                                "for good: refused"), who=self.names.seat(seat)))

    def to_vote(self) -> list[int]:
        """Seats that left for good and that we have not voted to hand to a bot in the
        attempt now open (a first vote, or again after an attempt was called off)."""
        if self.table.status != PLAYING or self.n < MIN_SEATS or self.handoffs.handed:
            return []
        return [s for s in sorted(self.left) if s != self.seat and s in self.escrow.escrow
                and self.seat not in self.handoffs.votes.get(s, {})]

    # ------------------------------------------------------------ theirs
    def on_leave(self, body: dict, now: float) -> Out:
        seat = body["seat"]
        if seat in self.left:
            raise Refused("cheat", seat, Msg(N_("{who} left the game for good twice"),
                                             who=self.names.seat(seat)))
        if not wire.is_int(body.get("v")):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed leave"),
                                             who=self.names.seat(seat)))
        if self.table.status != PLAYING:
            return Out()            # the game is over already: nothing to hand on or end
        self.left[seat] = body["seq"]
        if self.n >= MIN_SEATS:
            if self.handoffs.handed or seat not in self.escrow.escrow:
                # (its own peer refuses that; it can only be a message that crossed a
                # handoff of another seat): the table waits as for a seat left for now
                return Out().alert("info", Msg(N_("{name} left the game for good, but the "
                                                  "seat cannot be handed to a bot: the game "
                                                  "waits as for a seat left for now"),
                                               name=self.names[seat]), seat)
            # our vote follows at once (SessionPeer.tick: to_vote), cited as a leave
            return Out().alert("info", Msg(THEY_LEFT, name=self.names[seat]), seat)
        out = Out()
        if not self.ours or self.seat < seat:
            # the seat that stays (or, both gone, the lower one) says where the game ends
            n = self.steps()
            g = self.table.game
            out.send.append(self.signer.sign("sess/end", {"left": seat, "n": n,
                                                          "v": g.version if g else 0}))
        text = Msg(YOU_ENDED) if self.ours else Msg(THEY_ENDED, name=self.names[seat])
        if not self.ours or self.seat < seat:
            self._end(text, out)
        return out

    def _end_ready(self, body: dict) -> bool:
        n = body.get("n")
        return not wire.is_int(n) or self.steps() >= n

    def on_end(self, body: dict, now: float) -> Out:
        """``sess/end``: the other seat ends the game where we left it (2 players)."""
        seat, left, n = body["seat"], body.get("left"), body.get("n")
        if self.n >= MIN_SEATS or left != self.seat or not self.ours \
                or not (wire.is_int(n) and n == self.steps()):
            raise Refused("cheat", seat, Msg(N_("{who} ended the game where nobody left it: "
                                                "refused"), who=self.names.seat(seat)))
        out = Out()
        if self.table.status == PLAYING:
            self._end(Msg(YOU_ENDED), out)
        return out

    def _end(self, text: str, out: Out) -> None:
        self.ended = text
        self.table.end()
        out.events.append(("ended", text))
        out.alert("info", text)
