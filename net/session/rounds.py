"""The open commit-reveal rounds: the shared seed, and each simultaneous decision.

One ``net.crypto.commit.CommitRevealRound`` per purpose: ``seed`` (every seat commits to
its share of the shared seed) and ``sim/<version>`` (keep-3, the Spies' show: every
waiting seat commits to its command).  Every seat's ``commit/*`` message goes through
``on_message``, our own included (as a DeckPeer checks its own messages), so the round
always holds every commitment and value this peer has seen.  Deadlines are liveness.py's
business, not the round's (its deadline is infinite).

The peer reveals once every commitment is in and, once every value is in, starts the
game (seed) or applies the commands in seat order (sim).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from net.crypto import CommitRevealRound, ProtocolError
from net.crypto.errors import (COMMIT_DUPLICATE, COMMIT_MISMATCH, COMMIT_REVEAL_BEFORE_COMMIT,
                               COMMIT_UNKNOWN_SEAT)

from .commands import int_suffix
from .effects import Names, Out, Refused
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .dispatch import Dispatcher
    from .table import GameTable

NO_DEADLINE = float("inf")


class Rounds:
    def __init__(self, game_id: str, n: int, names: Names, table: GameTable) -> None:
        self.game_id, self.n, self.names, self.table = game_id, n, names, table
        self.rounds: dict[str, CommitRevealRound] = {}
        self.done: set[str] = set()
        self.commit_seq: dict[str, dict[int, int]] = {}   # purpose -> seat -> seq of its commitment
        self._open("seed", range(n))

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("commit/commit", self.on_message, ready=self.ready)
        dispatch.on("commit/reveal", self.on_message, ready=self.ready)

    def _open(self, purpose: str, seats: Iterable[int]) -> CommitRevealRound:
        rnd = self.rounds[purpose] = CommitRevealRound(self.game_id, list(seats), purpose,
                                                       now=0.0, timeout=NO_DEADLINE)
        return rnd

    def get(self, purpose: str) -> CommitRevealRound | None:
        return self.rounds.get(purpose)

    def sim(self) -> CommitRevealRound:
        """The round of the simultaneous decision the game waits for now."""
        g = self.table.game
        assert g is not None, "a simultaneous decision is only waited for in a dealt game"
        purpose = f"sim/{g.version}"
        rnd = self.rounds.get(purpose)
        return rnd if rnd is not None else self._open(purpose, g.waiting_for())

    def pending(self) -> list[CommitRevealRound]:
        return [r for p, r in self.rounds.items() if p not in self.done]

    def close(self, purpose: str) -> None:
        self.done.add(purpose)

    def ready(self, body: dict) -> bool:
        """A simultaneous choice made at version v waits until our game is at v."""
        purpose, g = body.get("purpose"), self.table.game
        if isinstance(purpose, str) and purpose.startswith("sim/"):
            v = int_suffix(purpose)
            if g is None or (v is not None and g.version < v):
                return False
        return True

    def on_message(self, body: dict, now: float = 0.0) -> Out:
        seat, purpose, g = body["seat"], body.get("purpose"), self.table.game
        name = self.names.seat(seat)
        if not isinstance(purpose, str):
            raise Refused("cheat", seat, Msg(N_("{who} sent a commitment without purpose"),
                                             who=name))
        if purpose == "seed":
            rnd = self.rounds["seed"]
        elif purpose.startswith("sim/") and g is not None \
                and int_suffix(purpose) == g.version and len(g.waiting_for()) > 1:
            rnd = self.sim()
        else:
            raise Refused("cheat", seat, Msg(N_("{who} sent a commit-reveal message for "
                                                "{purpose}, which is not open now"),
                                             who=name, purpose=repr(purpose)))
        commit = body["type"] == "commit/commit"
        try:
            rnd.handle(body, now)
        except ProtocolError as exc:
            raise Refused("cheat", seat, self._why(exc.reason, name, purpose, commit)) from None
        if commit:
            self.commit_seq.setdefault(purpose, {})[seat] = body["seq"]
        return Out()

    @staticmethod
    def _why(reason: str, name: str, purpose: str, commit: bool) -> str:
        p = repr(purpose)
        if reason == COMMIT_UNKNOWN_SEAT:
            return Msg(N_("{who} is not part of {purpose}"), who=name, purpose=p)
        if reason == COMMIT_DUPLICATE and commit:
            return Msg(N_("{who} committed twice to {purpose}"), who=name, purpose=p)
        if reason in (COMMIT_DUPLICATE, COMMIT_REVEAL_BEFORE_COMMIT):
            return Msg(N_("{who} revealed out of turn for {purpose}"), who=name, purpose=p)
        if reason == COMMIT_MISMATCH:
            return Msg(N_("{who}'s reveal does not open its commitment ({purpose})"), who=name,
                       purpose=p)
        return Msg(N_("{who} sent a malformed commitment") if commit else
                   N_("{who} sent a malformed reveal"), who=name)
