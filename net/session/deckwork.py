"""Deck work: what the hidden deck must do, derived from the engine state after every change.

* A ``deck/*`` message of another seat goes to our seat's DeckPeer of its epoch (and to
  the bot seat we host, if any); it waits until its epoch exists and, for a
  ``deck/open``, until every other seat's key for that position has reached us.
* Every hidden card in *another* seat's hand gets our key released (a private deal);
  every card in the engine's ``reveal_queue`` too and, once all keys are in, is revealed
  to the engine (``belfort.reveal``); our own hand's cards are learnt
  (``belfort.learn``) once the others' keys have come.
* A reshuffle event ``("reshuffle", e, old_ids, new_ids)`` starts deck epoch e over the
  physical cards of ``old_ids`` (all public, so known to all); ``new_ids[j]`` is its
  position j.

The settle loop runs these steps in order after every change (settle.Settle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import belfort

from net.crypto import wire

from .dispute import is_decode_problem
from .effects import Names, Out, Refused
from .msgs import N_, Msg
from .seat import SeatActor
from .table import GameTable

if TYPE_CHECKING:
    from net.crypto import DeckPeer

    from .dispatch import Dispatcher
    from .handoff import Handoff


class DeckWork:
    def __init__(self, table: GameTable, own: SeatActor, names: Names, handoff: Handoff,
                 dispute: Callable[[int, Exception], Out] | None = None) -> None:
        self.table, self.own, self.names, self.handoff = table, own, names, handoff
        # dispute.Dispute.start (made after us: it reads our deck messages)
        self.dispute = dispute

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("deck/", self.on_message, ready=self.ready)

    def ready(self, body: dict) -> bool:
        """Whether a deck message can be processed now; one that never could (an epoch
        past the next, an open of a card never dealt to its sender) is ready at once, to
        be refused: it must not block its sender's queue and stall the game."""
        decks, e = self.table.decks, body.get("epoch")
        if wire.is_int(e) and e == len(decks):
            return False      # the next epoch: its reshuffle is on its way
        if body["type"] == "deck/open" and wire.is_int(e) and 0 <= e < len(decks):
            # the holder opens a card once every other seat's key reached it; those
            # keys may still be on their way to us (another seat's queue)
            deck, pos, s = decks[e], body.get("pos"), body["seat"]
            if not deck.ready:
                return False
            if wire.is_int(pos) and 0 <= pos < deck.size and self.never_dealt(deck, pos, s):
                return True
            if wire.is_int(pos) and 0 <= pos < deck.size and any(
                    q not in deck.released[pos] for q in range(self.table.n) if q != s):
                return False
        return True

    def never_dealt(self, deck: DeckPeer, pos: int, seat: int) -> bool:
        """Position ``pos`` can never be opened by ``seat``: it released its own key there.
        (An open of a card that is not in its hand waits; deadlines.py refuses it once it
        has waited past the deadline with no key owed for it.)"""
        return seat in deck.released[pos]

    def on_message(self, body: dict, now: float) -> Out:
        """Raises Refused, or the deck's CheatingError / ProtocolError."""
        seat, e = body["seat"], body["epoch"]
        if not (wire.is_int(e) and 0 <= e < len(self.table.decks)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a deck message for an epoch that "
                                                "does not exist ({epoch})"),
                                             who=self.names.seat(seat), epoch=repr(e)))
        if body["type"] == "deck/open":
            deck, pos = self.table.decks[e], body.get("pos")
            if deck.ready and wire.is_int(pos) and 0 <= pos < deck.size \
                    and self.never_dealt(deck, pos, seat):
                raise Refused("cheat", seat, Msg(N_("{who} opened position {pos} of deck epoch "
                                                    "{epoch}, which was never dealt to it: "
                                                    "refused"),
                                                 who=self.names.seat(seat), pos=pos, epoch=e))
        envs = self.own.on_deck(body)
        self.table.deck_log[e].append(body)
        if self.handoff.bot is not None:
            self.handoff.bot.absorb(body)
        return Out(send=envs)

    def first_epoch(self, start: bool = True) -> Out:
        """The deck of epoch 0: the physical cards in order (the game was just dealt)."""
        assert self.table.game is not None, "called right after the deal"
        envs = self.own.new_epoch(0, range(len(self.table.game.types)), start)
        self.table.add_epoch(self.own.decks[0])
        return Out(send=envs)

    def new_epoch(self, epoch: int, old: tuple, new: tuple, replaying: bool,
                  start: bool = True) -> Out:
        """A reshuffle: a new deck over the physical cards of the discarded ``old`` ids."""
        t = self.table
        if epoch != len(t.decks):
            return Out().halt(Msg(N_("reshuffle epoch {epoch} does not follow deck {last}"),
                                  epoch=epoch, last=len(t.decks) - 1))
        try:
            cards = [t.physical(c) for c in old]
        except KeyError:
            return Out().halt(Msg(N_("a discarded card was never shown through the deck")))
        envs = self.own.new_epoch(epoch, cards, start)
        t.add_epoch(t.decks[epoch], new)
        if self.handoff.bot is not None:
            self.handoff.bot.new_epoch(epoch, cards, replaying)
        return Out(send=envs)

    def releases(self) -> Out | None:
        """Our keys owed now (private deals, public reveals); None when none is."""
        assert self.table.game is not None, "keys are owed only in a dealt game"
        envs, problems = self.own.releases(self.table.game, self.table.locate)
        if not envs and not problems:
            return None
        out = Out(send=envs)
        for a in problems:
            epoch = next((d.epoch for d in self.own.decks if any(x is a for x in d.alerts)), None)
            if self.dispute is not None and is_decode_problem(a) and epoch is not None:
                out.add(self.dispute(epoch, a))       # nobody is named: the audit will
                continue
            out.alert("cheat", Msg(N_("the deck is inconsistent: {problem}"), problem=str(a)),
                      a.seat)
            out.halt(Msg(N_("deck problem: {problem}"), problem=str(a)))
        return out

    def learn_hand(self) -> bool:
        """Learn the cards of our hand the deck has shown us; True if any."""
        g = self.table.game
        assert g is not None, "a hand is learnt only in a dealt game"
        learnt = self.own.hand_types(g, self.table.locate)
        for c, typ in learnt.items():
            belfort.learn(g, c, typ)
        return bool(learnt)

    def revealable(self) -> list[int]:
        assert self.table.game is not None, "cards are revealed only in a dealt game"
        return list(self.table.game.reveal_queue)

    def reveal(self, card: int) -> Out | None:
        """Reveal ``card`` to the engine if every key is in (None if not yet)."""
        t = self.table
        e, pos = t.locate(card)
        if e >= len(t.decks):
            return None
        deck = t.decks[e]
        if len(deck.released[pos]) != t.n or pos not in deck.known:
            return None
        try:
            events = t.reveal(card, t.card_type(deck, pos))
        except belfort.BelfortError as exc:
            return Out().halt(Msg(N_("the deck revealed an impossible card: {error}"),
                                  error=exc))
        return Out(changes=[events])
