"""Equivocation becomes proof: a seat that signs two different messages with
one sequence number, to show different peers different games, is named by the two
signed messages themselves — never by a vote of the peers it deceived.

* Echo.  Every heartbeat carries, for each seat, the running hash (``MessageLog.chain``)
  of the envelopes of that seat we hold.  A peer whose hash for a seat differs from ours
  at the same count holds a different message somewhere: we send it that seat's
  envelopes (``ctl/sync``), and its intake finds the one that differs from its own.
* Proof.  Holding two valid signatures of one seat over different bodies with the same
  seq, a peer broadcasts ``ctl/proof {a, b}`` (both envelopes), names the signer and stops
  the game with that verdict.  Every peer checks the proof itself (evidence.py: both
  signatures with the roster's key, same game, seat and seq, different bytes), adopts
  the verdict and passes the proof on once.  A desync report then names the proven
  signer, not the seats outside the largest group of equal hashes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.crypto import encode_envelope

from .effects import Names, Out, Refused
from .msgs import N_, Msg
from .evidence import signed_body

if TYPE_CHECKING:
    from net.crypto import Identity

    from .config import GameConfig
    from .dispatch import Dispatcher
    from .table import GameTable


class Forks:
    def __init__(self, config: GameConfig, identity: Identity, seat: int, names: Names,
                 table: GameTable) -> None:
        self.cfg, self.identity, self.seat, self.names, self.table = (config, identity, seat, names,
                                                                      table)
        self.proven: dict[int, str] = {}          # seat -> verdict

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/proof", self.on_proof)

    def verdict(self, seat: int, seq: int) -> str:
        return Msg(N_("{who} signed two different messages with seq {seq} (equivocation: it "
                      "showed different peers different games; the two signed messages were "
                      "sent to everyone as proof)"), who=self.names.seat(seat), seq=seq)

    def found(self, seat: int, seq: int, held: bytes, other: bytes) -> Out:
        """We hold ``held`` for (seat, seq) and received the different ``other``."""
        if seat in self.proven or seat == self.seat:
            return Out()
        text = self.proven[seat] = self.verdict(seat, seq)
        body = {"type": "ctl/proof", "game": self.cfg.game_id, "seat": self.seat, "seq": 0,
                "a": held, "b": other}
        out = Out(frames=[(None, encode_envelope(self.identity.sign_message(body)))])
        out.alert("cheat", text, seat, proof=True)
        if self.table.status == "stopped":
            out.verdict(text)     # a desync it caused names it, not its victims
        return out.halt(text)

    def on_proof(self, sender: int, body: dict, now: float) -> Out:
        a, b = body.get("a"), body.get("b")
        if not (isinstance(a, bytes) and isinstance(b, bytes)) or a == b:
            raise Refused("cheat", sender, Msg(N_("{who} sent a malformed proof"),
                                               who=self.names.seat(sender)))
        for s in range(self.cfg.n):
            ba = signed_body(a, self.cfg.keys[s], self.cfg.game_id)
            if ba is None or ba["seat"] != s:
                continue
            bb = signed_body(b, self.cfg.keys[s], self.cfg.game_id)
            if bb is not None and bb["seat"] == s and bb["seq"] == ba["seq"]:
                return self.found(s, ba["seq"], a, b)
        raise Refused("cheat", sender, Msg(N_("{who} sent a proof of equivocation that does "
                                              "not hold"), who=self.names.seat(sender)))
