"""What a session's peer shows of its state: read only, for the window, the node and tests.

``PeerState`` is the part of ``SessionPeer`` (core.py) that only reads: each name here
is a view of the part that owns the value (the table, the log, the checks, our seat's
moves), so outside code asks the peer rather than reaching into its parts.  Nothing here
changes anything; the coordinator's work is in core.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belfort.undo import Refusal

from .table import OVER, STOPPED

if TYPE_CHECKING:
    from .audit import AuditCheck
    from .catchup import CatchUp
    from .commands import Commands
    from .decide import Decisions
    from .desync import DesyncCheck
    from .dispute import Dispute
    from .doubt import Doubt
    from .handoff import Handoff
    from .msglog import MessageLog
    from .table import GameTable


class PeerState:
    # the parts read here (parts.py makes them)
    table: GameTable
    log: MessageLog
    hashes: DesyncCheck
    audit: AuditCheck
    handoffs: Handoff
    commands: Commands
    decisions: Decisions
    catchup: CatchUp
    doubt: Doubt
    dispute: Dispute
    log_failed: str | None

    game = property(lambda self: self.table.game)
    seed = property(lambda self: self.table.seed)
    status = property(lambda self: self.table.status)
    stop_reason = property(lambda self: self.table.stop_reason)
    decks = property(lambda self: self.table.decks)
    history = property(lambda self: self.table.history)
    apply_times = property(lambda self: self.table.apply_times)
    t_first_place = property(lambda self: self.table.t_first_place)
    t_over = property(lambda self: self.table.t_over)
    desync = property(lambda self: self.hashes.desync)
    audit_result = property(lambda self: self.audit.result)
    handed = property(lambda self: self.handoffs.handed)
    ghost = property(lambda self: self.handoffs.bot)
    sent = property(lambda self: self.log.sent)
    accepted = property(lambda self: self.log.accepted)
    paused = property(lambda self: self.commands.paused)
    sent_times = property(lambda self: self.decisions.sent_times)   # our commands: when sent

    @property
    def finished(self) -> bool:
        """Nothing more to do: the game is over and audited, or stopped — and no accusation
        is still being checked (doubt.py)."""
        if self.handoffs.ours_handed:
            return True           # our seat is a bot's: nothing is ours to do or judge
        if self.doubt.pending or self.dispute.active:
            return False       # a deck dispute is decided before anyone leaves
        return self.status == STOPPED or (self.status == OVER and self.audit.result is not None)

    @property
    def sync_due(self) -> bool:
        return self.log.sync_due

    def undo_refusal(self) -> Refusal | None:
        """None when ``take_back`` would work now, else the belfort.undo.Refusal."""
        return self.decisions.undo_refusal()

    @property
    def steps(self) -> list:
        """Every step applied, for the complete log: ("cmd", seat, command) and
        ("undo", seat, n), n the index of the command taken back."""
        return self.table.undo.steps

    def decision_needed(self) -> bool:
        """True when our seat must decide now (and knows its whole hand) — not while,
        after a rejoin, the others may still hold a decision of ours that we lost: it is
        then taken from them (decide.py ``catch_up``), never made again differently."""
        if self.catchup.ours_missing() or self.log_failed is not None:
            return False
        return self.decisions.may_decide()

