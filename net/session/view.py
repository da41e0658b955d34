"""What the players are shown of the session: who is waiting for whom, stalls and pauses,
the end of the game when not everyone sees it together, and our seat's view of the game.

``TableView`` is the session's read-model: it only reads the parts it is given (the game
table, liveness, the handoff and its escrow, resync's reports, the rounds and the audit)
and answers the window's, the peer command's and the node's questions; it changes
nothing.  Its texts are ``msgs.Msg`` values, translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import belfort

from . import endgame
from .config import GameConfig, Timing
from .msgs import N_, Msg
from .table import OVER, STOPPED

if TYPE_CHECKING:
    from .audit import AuditCheck
    from .escrow import Escrow
    from .handoff import Handoff
    from .liveness import Liveness
    from .resync import Resync
    from .rounds import Rounds
    from .table import GameTable

__all__ = ["TableView"]


class TableView:
    def __init__(self, config: GameConfig, seat: int, timing: Timing, *, table: GameTable,
                 rounds: Rounds, audit: AuditCheck, liveness: Liveness, handoffs: Handoff,
                 escrow: Escrow, resync: Resync, finished: Callable[[], bool],
                 rejoined_at: Callable[[], float | None]) -> None:
        """``finished()``: the session has nothing more to do; ``rejoined_at()``: when we
        rejoined a running game (None: we did not)."""
        self.cfg, self.seat, self.n, self.timing = config, seat, config.n, timing
        self.names = list(config.names)
        self.table, self.rounds, self.audit = table, rounds, audit
        self.liveness, self.handoffs, self.escrow, self.resync = liveness, handoffs, escrow, resync
        self._finished, self._rejoined_at = finished, rejoined_at

    def may_leave(self, now: float) -> bool:
        """Finished, and nobody needs us any more (endgame.py): every other seat has all
        of our envelopes and said it finished (or the game stopped); a seat that went
        silent without finishing keeps us reachable up to the stall time (it may rejoin
        and fetch the end of the game from us), one that said it finished, or that we
        never heard since our (re)start, only up to the disconnection time."""
        if not self._finished():
            return False
        if self.handoffs.ours_handed:
            return True           # our seat is a bot's now: nothing of ours is wanted
        return not any(self._keeps_us(s, now) for s in self._others())

    def _others(self) -> list[int]:
        return [s for s in range(self.n) if s != self.seat and s not in self.handoffs.handed]

    def _keeps_us(self, s: int, now: float) -> bool:
        lv = self.liveness
        hosted = [self.handoffs.bot.seat] if self.handoffs.bot is not None else []
        return endgame.keeps(lv.silent(s, now), lv.heard[s],
                             lv.finished_of[s] or self.table.status == STOPPED,
                             self.resync.has_ours(s, hosted), self.timing)

    def farewell(self, now: float) -> str | None:
        """Leaving a finished game while a seat we heard has not finished (silent past the
        stall time): what it can do to get the end of the game later, or None."""
        if self.table.status != OVER or not self._finished():
            return None
        return endgame.farewell(self.names, self._unfinished(),
                                lambda s: self.liveness.silent(s, now), self.cfg.game_id)

    def _unfinished(self) -> list[int]:
        """Other seats we heard since our (re)start that have not said they finished."""
        lv = self.liveness
        return [s for s in self._others() if lv.heard[s] and not lv.finished_of[s]]

    def staying_for(self, now: float) -> list[int]:
        """Finished, and seats we heard that have not finished still keep us reachable
        (they may fetch the end of the game from us): those seats."""
        if not self._finished() or self.handoffs.ours_handed:
            return []
        return [s for s in self._unfinished() if self._keeps_us(s, now)]

    def staying(self, now: float) -> str | None:
        """What a person closing the window now is told while we stay for ``staying_for``
        seats (endgame.py), or None when nobody needs us."""
        seats = self.staying_for(now)
        at_most = max((self.timing.timeout - self.liveness.silent(s, now) for s in seats),
                      default=0.0)
        return endgame.staying(self.names, seats, max(0.0, at_most))

    def _unanswered(self) -> bool:
        """We rejoined and nobody has answered since."""
        return self._rejoined_at() is not None and not any(
            self.liveness.heard[s] for s in self._others())

    def lacking(self, now: float) -> str | None:
        """Rejoined, not finished, and nobody answers: what this machine lacks and how to
        get it (endgame.py), or None."""
        rejoined = self._rejoined_at()
        if self._finished() or self.table.status == STOPPED or not self._unanswered() \
                or rejoined is None:       # (not rejoined: never unanswered)
            return None
        seats = [s for s in self.waiting_seats() if s != self.seat] or self._others()
        return endgame.lacking(self.names, seats, self.table.status == OVER, now - rejoined,
                               self.cfg.game_id)

    def abandoned(self, now: float) -> bool:
        """Every other peer has been silent past the time-out."""
        return self.liveness.abandoned(now, self.handoffs.handed)

    def waiting_seats(self) -> list[int]:
        """Seats whose message the game needs next (decision, commitment or deck step)."""
        return self.table.waiting_seats(self.rounds, self.audit.result is not None)

    def seat_view(self) -> dict:
        """``belfort.seat_view`` of our seat ({} before the shared seed), with what only the
        session knows: in a simultaneous step (the keep, the Spies' showing) the engine
        learns every choice at once when they are revealed, but a seat that committed to
        its choice has made it — as in a game on one machine, it is no longer waited for,
        and at the keep it is marked as having chosen."""
        g = self.table.game
        if g is None:
            return {}
        view = belfort.seat_view(g, self.seat)
        waiting = view["waiting_for"]
        rnd = self.rounds.get(f"sim/{g.version}") if len(waiting) > 1 else None
        if rnd is not None:
            chosen = [s for s in waiting if s in rnd.commitments]
            view["waiting_for"] = [s for s in waiting if s not in chosen]
            if view["phase"] == "keep":
                view["keep_submitted"] = sorted(set(view["keep_submitted"]) | set(chosen))
        return view

    def waiting_text(self, now: float) -> str:
        """E.g. "waiting for Bo (disconnected 12 s) — handoff possible in 2:48"."""
        paused = self.pause_reason(now)
        text = self.liveness.waiting_text(self.waiting_seats(), now, self.handoffs.handed,
                                          self._handoff_in(now), paused=bool(paused))
        return Msg(N_("{waiting}. {paused}"), waiting=text, paused=paused) if paused and text \
            else (paused or text)

    def _handoff_in(self, now: float) -> Callable[[int], float | None] | None:
        """seat -> seconds until it may be handed to a bot (0: now), None if it cannot be."""
        if not self.handoffs.possible():
            return None
        limit = self.handoffs.limit()
        return lambda s: max(0.0, limit - self.liveness.stalled(s, now)) \
            if s in self.escrow.escrow else None

    def stall(self, now: float) -> dict:
        """The waiting state, for the window: every seat the game waits for that is not
        here — ``{"seat", "name", "quiet" (s silent), "left" (said it left for now),
        "handoff_in" (s until it may be handed to a bot, 0: now; None: it cannot be),
        "handoff_now"}`` — ``"paused"`` (the reason the game is paused, or None),
        ``"stall_timeout"`` and ``"text"`` (as waiting_text)."""
        handoff_in = self._handoff_in(now)
        seats = []
        for s in self.waiting_seats():
            if s == self.seat or s in self.handoffs.handed:
                continue
            lv = self.liveness
            if not lv.absent(s):
                continue
            left = handoff_in(s) if handoff_in is not None else None
            seats.append({"seat": s, "name": self.names[s], "quiet": round(lv.quiet(s, now), 1),
                          "left": lv.left_of[s],
                          "handoff_in": None if left is None else round(left, 1),
                          "handoff_now": left is not None and left <= 0})
        return {"seats": seats, "paused": self.pause_reason(now),
                "stall_timeout": self.timing.timeout, "text": self.waiting_text(now)}

    def pause_reason(self, now: float, bot: bool = False) -> str | None:
        """Why the game cannot go on until someone rejoins (every other seat away — with
        2 players, the other one — or, ``bot``: every person), or None."""
        if self._finished() or self.table.status == STOPPED:
            return None
        # the one seat away, on its way to a bot (an attempt open, or ours to propose by
        # itself), is not waited for: the handoff, not a pause, ends its stall.  With two
        # seats away neither can be handed over (each would need the other's vote): pause
        lv, hand = self.liveness, self.handoffs
        away = [s for s in self._others() if lv.away(s, now)]
        if not away:
            return None     # (asked after every step: with nobody away there is no pause)
        handing = set(away) if len(away) == 1 and hand.possible() \
            and away[0] in self.escrow.escrow and (hand.votes.get(away[0]) or
                                                   hand.auto is not None) else set()
        why = self.liveness.pause_reason(now, {*self.handoffs.handed, *handing}, bot,
                                         can_hand=self.handoffs.possible())
        return (self.lacking(now) or why) if why is not None else None

    def votes_cast(self) -> list[int]:
        """Seats we voted to hand to a bot."""
        return [t for t, votes in self.handoffs.votes.items() if self.seat in votes]

    def peer_states(self, now: float) -> list[dict]:
        """Each seat as the window's table lists it (liveness.py ``states``)."""
        return self.liveness.states(now, self.handoffs.handed)

    def handoff_candidates(self, now: float) -> list[int]:
        """Seats that could be handed to a bot now."""
        return self.handoffs.candidates(lambda q: self.liveness.stalled(q, now))
