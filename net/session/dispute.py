"""Deck disputes (net/crypto/PROTOCOL.md §5, "Problems found at decoding").

When a position of a deck decodes to something that is not a card of its epoch, or to a
card seen at another position, some shuffle or re-key stage was tampered with — but the
seat whose key release completed the decoding is not to blame, and nobody can be named
from the decoding alone.  So:

1. The peer that sees it stops the game ("the deck of epoch e is wrong at position p").
   If the position was dealt to it (a private deal: nobody else can see the problem), it
   first *disputes*: it releases its own key for that position, so every peer decodes it
   and sees the same problem for itself.
2. It publishes its audit of that epoch (every secret of that deck: its scalar,
   permutation and keys, each opening the commitments it made at the start).  An honest
   peer does this only for a problem it decoded itself: no message of another seat can
   make it publish its secrets.
3. Once every seat's audit is in, each peer recomputes every stage from the published
   secrets; the stage that differs from the transcript names its seat (a verdict only
   the audit can give).  A seat that does not publish its audit is named by the
   deadlines (deadlines.py: "withheld its deck audit").

``deck/audit`` is processed after the game stopped (it is how a dispute ends).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from net.crypto import CheatingError, ProtocolError
from net.crypto.errors import DECK_DUPLICATE_CARD, DECK_NOT_A_CARD

from .effects import Names, Out
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .dispatch import Dispatcher
    from .seat import SeatActor
    from .table import GameTable

DECODE_PROBLEMS = (DECK_NOT_A_CARD, DECK_DUPLICATE_CARD)


def is_decode_problem(exc: Exception) -> bool:
    return isinstance(exc, ProtocolError) and not isinstance(exc, CheatingError) \
        and exc.reason in DECODE_PROBLEMS and exc.seat is None


class DeckMessages(Protocol):
    """Where deck messages are handled (deckwork.DeckWork, which starts disputes here)."""

    def on_message(self, body: dict, now: float) -> Out: ...


class Dispute:
    def __init__(self, table: GameTable, own: SeatActor, names: Names,
                 deckwork: DeckMessages) -> None:
        self.table, self.own, self.names, self.deckwork = table, own, names, deckwork
        self.epochs: set[int] = set()            # epochs under dispute
        self.verdicts: dict[int, str] = {}

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("deck/audit", self.on_audit, after_stop=True)

    @property
    def active(self) -> bool:
        return bool(self.epochs) and len(self.verdicts) < len(self.epochs)

    def start(self, epoch: int, problem: Exception, positions: Iterable[int] = ()) -> Out:
        """A decoding problem found in ``epoch`` (near ``positions``): dispute, stop,
        publish our audit of that epoch."""
        out = Out()
        if not (isinstance(epoch, int) and 0 <= epoch < len(self.own.decks)):
            return out.halt(Msg(N_("deck problem: {problem}"), problem=str(problem)))
        deck = self.own.decks[epoch]
        if epoch not in self.epochs:
            self.epochs.add(epoch)
            text = Msg(N_("the deck of epoch {epoch} is wrong ({detail}): some shuffle or "
                          "re-key stage was tampered with; every seat now publishes its secrets "
                          "of that deck to find whose step was wrong. The game is stopped."),
                       epoch=epoch, detail=str(getattr(problem, "detail", problem)))
            out.alert("cheat", text, None).halt(text)
        # a duplicate's two copies may both be in our hand (private deals): release
        # whichever of them only we can read, so every seat decodes both and sees it
        where = list(positions) + list(getattr(problem, "positions", None) or [])
        mine = sorted({p for p in where if isinstance(p, int) and 0 <= p < deck.size
                       and deck.holder(p) == self.own.seat})
        if mine and deck.ready:
            out.send += self.own.mine([deck.release(mine)])      # the dispute itself
        if deck.ready and self.own.seat not in deck.audits:
            out.send += self.own.mine([deck.publish_audit()])
        return out

    def on_audit(self, body: dict, now: float) -> Out:
        """A seat's audit: the end of the game's, or a dispute's."""
        e = body.get("epoch")
        try:
            out = self.deckwork.on_message(body, now)
        except CheatingError as exc:
            # (the deck raises only for an existing epoch: deckwork refuses any other first)
            assert isinstance(e, int), "a deck error without an epoch"
            return self._verdict(e, exc)
        except ProtocolError as exc:
            if is_decode_problem(exc):
                assert isinstance(e, int), "a deck error without an epoch"
                return self.start(e, exc)
            raise
        if isinstance(e, int) and e in self.epochs and e not in self.verdicts:
            deck = self.own.decks[e]
            if deck.audit_report is not None and deck.audit_report.ok:
                self.verdicts[e] = "ok"
                out.alert("info", Msg(N_("the audit of deck epoch {epoch} found every stage "
                                         "correct"), epoch=e))
        return out

    def withheld(self, epoch: int, seat: int, text: str) -> Out:
        """``seat`` did not publish its audit of the disputed ``epoch`` in time: without it
        no stage can be checked, so the withholding itself is the verdict (the dispute is
        decided, and the peers may leave)."""
        if epoch not in self.epochs or epoch in self.verdicts:
            return Out()
        self.verdicts[epoch] = text
        return Out().alert("cheat", text, seat, proof=True).verdict(text).halt(text)

    def _verdict(self, epoch: int, exc: CheatingError) -> Out:
        faults = getattr(exc, "faults", None) or [(exc.seat, exc.reason, exc.detail)]
        seats = sorted({s for s, _r, _d in faults if s is not None})
        out = Out()
        for s, reason, detail in faults:
            out.alert("cheat", Msg(N_("{who} broke the deck protocol ({reason}: {detail})"),
                                   who=self.names.seat(s), reason=reason, detail=detail), s,
                      proof=True)
        text = Msg(N_("the audit of deck epoch {epoch} shows {seats} tampered with the deck"),
                   epoch=epoch, seats=self.names.seats(seats)) if seats else \
            Msg(N_("deck problem: {problem}"), problem=str(exc))
        if isinstance(epoch, int):
            self.verdicts[epoch] = text
        if self.table.status == "stopped":
            out.verdict(text)     # the verdict replaces "the deck is wrong"
        return out.halt(text)
