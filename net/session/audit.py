"""The end-of-game verdict on the hidden deck.

Once the game is over every seat publishes its secrets of every epoch (seat.SeatActor.
audits); each epoch's DeckPeer replays every shuffle and re-key with them.  The verdict
is "deck audit passed" only if every epoch checks out and every card the game made
public is the card the deck holds there.
"""

from __future__ import annotations

import belfort
from belfort.reasons import Word

from .effects import Out
from .msgs import N_, Joined, Msg
from .table import GameTable


class AuditCheck:
    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.result: tuple[bool, str] | None = None

    def verdict(self) -> Out:
        """The verdict once every epoch's audit is complete (empty Out before, and after)."""
        decks = self.table.decks
        if self.result is not None or not all(d.audit_report is not None for d in decks):
            return Out()
        out = Out()
        bad = [(e, rep) for e, d in enumerate(decks)
               if (rep := d.audit_report) is not None and not rep.ok]     # all there (above)
        if bad:
            e, rep = bad[0]
            faults = Joined("; ", [Msg(N_("seat {seat}: {fault}"), seat=s, fault=f"{r} {d}")
                                   for s, r, d in rep.faults[:5]])
            self.result = (False, Msg(N_("deck audit FAILED (epoch {epoch}): {faults}"),
                                      epoch=e, faults=faults))
            out.alert("cheat", self.result[1])
        else:
            game = self.table.game
            # every epoch's audit is in: the decks were dealt, with the game
            assert game is not None, "an audit without a game"
            wrong = self.public_cards_problem()
            if wrong:
                self.result = (False, Msg(N_("audit: {problem}"), problem=wrong))
            else:
                self.result = (True, Msg(
                    N_("deck audit passed: {decks} deck(s), every shuffle and key checked by "
                       "all {peers} peers; final state hash {hash}"), decks=len(decks),
                    peers=self.table.n, hash=belfort.state_hash(game)[:12]))
        out.events.append(("audit", self.result[0]))
        return out

    def public_cards_problem(self) -> str:
        """Every card the game made public must be the card the deck holds there."""
        t = self.table
        g = t.game
        assert g is not None, "asked once every epoch's audit is in: after the deal"
        for c, typ in enumerate(g.types):
            if typ is None or not g.public[c]:
                continue
            e, pos = t.locate(c)
            rep = t.decks[e].audit_report
            phys = rep.cards[pos] if rep is not None and rep.cards else None
            if phys is not None and phys // t.per != typ:
                return Msg(N_("card #{card} was played as {type} but the deck holds another "
                              "card"), card=c, type=Word("card", belfort.CARD_TYPES[typ]))
        return ""
