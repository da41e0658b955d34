"""The parts of one peer's session, each made with its collaborators.

``SessionParts`` makes every part of a ``SessionPeer`` (core.py) and hands each the parts
it works with — narrow and read-only where it only reads — in its constructor: a part
made later is reached through a lambda, so nothing is wired into a part after it is
made, and no part writes another's fields.  The coordinator's own work (carrying out
what the parts return) is in core.py; what each part does: docs/network.md, "The parts
of a session".
"""

from __future__ import annotations

from collections.abc import Callable

from net.crypto import Identity, Signer

from .alerting import HELD_STOP, Alerting
from .audit import AuditCheck
from .catchup import CatchUp
from .chat import Chat
from .commands import Commands
from .config import GameConfig, Timing
from .decide import Decisions
from .deckwork import DeckWork
from .departure import Departure
from .desync import DesyncCheck
from .dispatch import Dispatcher
from .dispute import Dispute
from .doubt import Doubt
from .effects import Names
from .escrow import Escrow
from .evening import Again
from .forks import Forks
from .handoff import Handoff
from .intake import Intake
from .liveness import Liveness
from .msglog import MessageLog, RecordStore
from .outgoing import Outgoing
from .pump import Pump
from .resync import Resync
from .rounds import Rounds
from .seat import SeatActor
from .settle import Settle
from .state import PeerState
from .table import OVER, STOPPED, GameTable
from .takeback import TakeBack
from .ticker import Ticker
from .view import TableView
from .waits import TableWaits


class SessionParts(PeerState):
    def __init__(self, config: GameConfig, seat: int, identity: Identity, master: bytes, *,
                 store: RecordStore | None = None, timing: Timing | None = None,
                 now: float = 0.0, clock: Callable[[], float] | None = None,
                 wall_ns: Callable[[], int] | None = None, number: int = 1) -> None:
        """See SessionPeer."""
        if not 0 <= seat < config.n:
            raise ValueError("seat out of range")
        if identity.public_bytes != config.keys[seat]:
            raise ValueError("this identity is not the one the roster has for this seat")
        self.cfg, self.n, self.seat, self.names = config, config.n, seat, list(config.names)
        self.identity, self.master, self.clock = identity, master, clock
        self.timing = timing or Timing()
        self.signer = Signer(identity, config.game_id, seat)
        who = self.who = Names(config.names)
        # the parts (docs/network.md lists them): each gets its collaborators here, a part
        # made later through a lambda, so nothing is wired into a part after it is made
        self.log = MessageLog(self.n, seat, store)
        self.own = SeatActor(self.signer, self.n, master, config.ruleset().cards_per_type)
        self.table = GameTable(config, seat, self.own.decks, clock)
        self.ruleset = self.table.ruleset

        def stopped() -> bool:
            return self.table.status == STOPPED
        self.forks = Forks(config, identity, seat, who, self.table)
        self.intake = Intake(config, seat, self.log, who, stopped=stopped, found=self.forks.found,
                             beyond_cut=lambda s, q: self.handoffs.beyond_cut(s, q),
                             below_cut=lambda s, q: self.handoffs.below_cut(s, q),
                             is_handed=lambda s: self.handoffs.is_handed(s))
        self.rounds = Rounds(config.game_id, self.n, who, self.table)
        self.commands = Commands(self.table, who)
        self.takebacks = TakeBack(self.table, who)
        self.doubt = Doubt(self.n, seat, self.log, who, self.timing, self.table, self.forks.proven)
        self.hashes = DesyncCheck(self.signer, self.n, who, timing=self.timing,
                                  confirmed=lambda s, need: self.doubt.judge(s, need) is True,
                                  stopped=stopped, proven=self.forks.proven,
                                  provisional=("DESYNC", HELD_STOP))
        self.audit = AuditCheck(self.table)
        self.escrow = Escrow(self.signer, identity, self.n, master, who)
        self.handoffs = Handoff(config, self.signer, identity, who, self.timing, log=self.log,
                                intake=self.intake, table=self.table, escrow=self.escrow,
                                rounds=self.rounds, commands=self.commands, hashes=self.hashes)
        self.departure = Departure(self.signer, who, table=self.table, log=self.log,
                                   escrow=self.escrow, handoffs=self.handoffs,
                                   steps=lambda: len(self.table.undo.steps))
        self.deckwork = DeckWork(self.table, self.own, who, self.handoffs,
                                 dispute=lambda epoch, problem: self.dispute.start(epoch, problem))
        self.dispute = Dispute(self.table, self.own, who, self.deckwork)
        self.resync = Resync(config, identity, self.log, self.intake, who, self.timing,
                             lambda: self.finished, now)
        self.liveness = Liveness(self.n, seat, who, self.timing, config.kinds, now,
                                 game_ended=lambda: self.table.status in (OVER, STOPPED))
        self.catchup = CatchUp(self.log, self.own, self.table, self.rounds, self.hashes,
                               self.escrow, self.handoffs, master)
        self.dispatch = Dispatcher()
        self.waits = TableWaits(self.n, seat, who, self.timing, table=self.table,
                                rounds=self.rounds, intake=self.intake,
                                ready=self.dispatch.ready, handoffs=self.handoffs,
                                dispute=self.dispute, liveness=self.liveness,
                                agrees=self.doubt.agrees)
        self.chat = Chat(identity, config.game_id, seat, who, clock_ns=wall_ns)
        self.again = Again(identity, config.game_id, seat, who, number)
        for part in (self.deckwork, self.dispute, self.rounds, self.commands, self.takebacks,
                     self.hashes, self.escrow, self.handoffs, self.resync, self.liveness,
                     self.chat, self.forks, self.doubt, self.departure, self.again):
            part.register(self.dispatch)
        self.alerting = Alerting(self.n, seat, self.log, self.doubt, self.table)
        self.settle = Settle(self.names, who, table=self.table, log=self.log, own=self.own,
                             rounds=self.rounds, commands=self.commands, deckwork=self.deckwork,
                             escrow=self.escrow, handoffs=self.handoffs, audit=self.audit,
                             hashes=self.hashes, catchup=self.catchup, alerting=self.alerting)
        self.outgoing = Outgoing(log=self.log, table=self.table, rounds=self.rounds,
                                 intake=self.intake, handoffs=self.handoffs,
                                 departure=self.departure)
        self.decisions = Decisions(seat, config.game_id, self.signer, table=self.table,
                                   log=self.log, own=self.own, rounds=self.rounds,
                                   takebacks=self.takebacks, hashes=self.hashes,
                                   catchup=self.catchup, settle=self.settle,
                                   outgoing=self.outgoing, departure=self.departure,
                                   clock=clock)
        self.pump = Pump(self.n, seat, who, intake=self.intake, dispatch=self.dispatch,
                         table=self.table, log=self.log, liveness=self.liveness,
                         handoffs=self.handoffs, doubt=self.doubt, hashes=self.hashes,
                         dispute=self.dispute, settle=self.settle, alerting=self.alerting,
                         departure=self.departure, settled=self._settle,
                         caught_up=self._catch_up)
        self.view = TableView(config, seat, self.timing, table=self.table, rounds=self.rounds,
                              audit=self.audit, liveness=self.liveness, handoffs=self.handoffs,
                              escrow=self.escrow, resync=self.resync,
                              finished=lambda: self.finished,
                              rejoined_at=lambda: self.catchup.rejoined_at)
        self.ticker = Ticker(self.timing, log=self.log, table=self.table, audit=self.audit,
                             resync=self.resync, liveness=self.liveness, waits=self.waits,
                             doubt=self.doubt, hashes=self.hashes, dispute=self.dispute,
                             handoffs=self.handoffs, catchup=self.catchup, settle=self.settle,
                             pump=self.pump, view=self.view, departure=self.departure,
                             again=self.again, started=lambda: self.started)

    # the coordinator's (core.py): the ticker reads whether we started, the pump runs the
    # settle loop and our catch-up between its rounds
    started: bool

    def _settle(self) -> bool:
        raise NotImplementedError("the coordinator's (SessionPeer)")

    def _catch_up(self, now: float) -> bool:
        raise NotImplementedError("the coordinator's (SessionPeer)")
