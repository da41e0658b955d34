"""BotSeat: a bot playing a handed-over seat, on the lowest remaining seat's peer.

It holds a hosted ``SeatActor`` with the seat's rebuilt secrets (one DeckPeer per
epoch, brought to the current transcript from the deck messages this peer has
processed, the departed seat's own included) signing with the host's identity key,
the seat's sequence going on from the cut.  ``step()`` returns what the seat owes now —
stage, key releases, its decision, its audit — as ``Out.hosted`` envelopes; the peer
sends them to everyone and takes them into its own session like anyone else's.

Its decisions come from ``belfort.bots.make_bot(level, "<seed>/handoff<seat>")`` on
``redact(state, seat)``.  If the seat committed to a simultaneous choice before the cut
but its reveal never arrived, the committed command is recovered: its nonce comes from
the seat's master, so every legal command is tried against the commitment.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import belfort

from net.crypto import Signer, commitment_hash, wire

from .commands import plain
from .derive import derive_bytes
from .effects import Names, Out
from .msgs import N_, Msg
from .seat import SeatActor
from .table import OVER, PLAYING

if TYPE_CHECKING:
    from belfort.bots import Bot
    from belfort.commands import Command
    from net.crypto import CommitRevealRound, Identity

    from .commands import Commands
    from .desync import DesyncCheck
    from .intake import Intake
    from .rounds import Rounds
    from .table import GameTable


class BotSeat:
    def __init__(self, identity: Identity, seat: int, master: bytes, cut: int, *,
                 table: GameTable, rounds: Rounds, commands: Commands, hashes: DesyncCheck,
                 intake: Intake, names: Names, level: str = "normal",
                 think: float = 0.0) -> None:
        self.seat, self.master, self.level, self.think = seat, master, level, think
        self.table, self.rounds, self.commands = table, rounds, commands
        self.hashes, self.intake, self.names = hashes, intake, names
        signer = Signer(identity, table.cfg.game_id, seat, next_seq=cut)
        self.actor = SeatActor(signer, table.n, master, table.per, hosted=True)
        self.acted = -1
        self.bot: Bot | None = None
        self._pending: list[dict] = []
        for e, d in enumerate(table.decks):
            self.actor.new_epoch(e, d.card_ids, start=False)  # its commitment is in the transcript
            for body in table.deck_log[e]:
                self.actor.absorb(body)

    # ------------------------------------------------------------ fed by the peer
    def new_epoch(self, epoch: int, cards: Iterable[int], replaying: bool) -> None:
        # while the host replays its log, the seat's commitment comes from the log
        self._pending += self.actor.new_epoch(epoch, cards, start=not replaying)

    def absorb(self, body: dict) -> None:
        self.actor.absorb(body)

    def resume(self) -> None:
        """After the host replayed its log: go on from the seat's last logged message."""
        self._pending += self.actor.resume(self.intake.expected_seq(self.seat))

    # ------------------------------------------------------------ acting
    def step(self) -> Out:
        """Key releases, decisions and the audit the seat owes now."""
        out, self._pending = Out(hosted=self._pending), []
        t, s, g, a = self.table, self.seat, self.table.game, self.actor
        if g is None or self.hashes.desync or t.status not in (PLAYING, OVER):
            return out
        if self.intake.inbox[s]:
            return out          # the seat's messages already sent go first
        out.hosted += a.stages_due()
        out.hosted += a.releases(g, t.locate)[0]
        if t.status == PLAYING and not self.commands.paused:
            waiting = g.waiting_for()
            if s in waiting:
                view = self._view()
                if view is not None:
                    self._decide(view, waiting, out)
        if t.status == OVER:
            out.hosted += a.audits()
        return out

    def _decide(self, view: belfort.GameState, waiting: list, out: Out) -> None:
        g, s, a = self.table.game, self.seat, self.actor
        assert g is not None, "step() decides only in a dealt game"
        v = g.version
        if len(waiting) == 1:
            if self.acted != v:
                self.acted = v
                cmd = self._choose(view)
                out.hosted += a.opens(cmd, g, self.table.locate)
                out.hosted.append(a.command(v, cmd, len(self.table.undo.steps)))
            return
        purpose = f"sim/{v}"
        rnd = self.rounds.sim()
        if purpose not in a.choices and s not in rnd.values:
            if s in rnd.commitments:
                found = self._recover(view, rnd, purpose)
                if found is None:
                    out.halt(Msg(N_("{who}'s simultaneous choice before the handoff cannot be "
                                    "recovered"), who=self.names.seat(s)))
                    return
                a.adopt(purpose, *found)
            else:
                out.hosted.append(a.commit(purpose, wire.pack(plain(self._choose(view)))))
        if purpose in a.choices and rnd.all_committed and s not in rnd.values:
            out.hosted += a.reveal(purpose, g, self.table.locate)

    def _view(self) -> belfort.GameState | None:
        """The game with the seat's own hand known (from its rebuilt deck secrets)."""
        g, s = self.table.game, self.seat
        assert g is not None, "step() asks only in a dealt game"
        types = self.actor.hand_types(g, self.table.locate)
        if any(g.types[c] is None and c not in types for c in g.players[s].hand):
            return None
        vg = g.copy()
        for c, typ in types.items():
            belfort.learn(vg, c, typ)
        return vg

    def _choose(self, view: belfort.GameState) -> Command:
        if self.bot is None:
            from belfort.bots import make_bot
            assert self.table.seed is not None, "begin() set it with the game"
            self.bot = make_bot(self.level, f"{self.table.seed.hex()}/handoff{self.seat}",
                                think=self.think)
        try:
            cmd = self.bot.choose(belfort.redact(view, self.seat), self.seat)
            return belfort.check_legal(view, cmd, self.seat)[0]
        except Exception:
            return belfort.check_legal(view, belfort.legal_commands(view, self.seat)[0],
                                       self.seat)[0]

    def _recover(self, view: belfort.GameState, rnd: CommitRevealRound,
                 purpose: str) -> tuple[bytes, bytes] | None:
        """The departed seat committed before the cut but never revealed: try every legal
        command against its commitment (the nonce comes from its master)."""
        s = self.seat
        seq = self.rounds.commit_seq.get(purpose, {}).get(s, -1)
        nonce = derive_bytes(self.master, f"nonce/{purpose}/{seq}")
        for cmd in belfort.legal_commands(view, s):
            try:
                norm = belfort.check_legal(view, cmd, s)[0]
            except Exception:
                continue
            value = wire.pack(plain(norm))
            if commitment_hash(value, nonce, self.table.cfg.game_id, s, purpose) \
                    == rnd.commitments[s]:
                return value, nonce
        return None
