"""Desync detection: state hashes at every phase boundary, compared across peers.

At every change of ``(round, phase)`` each peer sends ``sess/hash`` for that game
version.  A mismatch stops the game: the verdict names the seats outside the largest
group of equal hashes ("DESYNC at round 2, placement (version 43): Bo (seat 2)
disagrees with the others") and is refined as more hashes arrive.  Blame only with proof
(doubt.py): a seat is named only once every seat whose hash is in has shown, in its claims
made after its hash, that it held the very messages we hold — else (a fork: someone
equivocated) the verdict says the peers are being checked, and the proof of the fork
(forks.py) names the equivocator; past ``step_deadline`` with no proof, the seats whose
hash differs from ours are named.  Each peer then sends
its public view for that version (``sess/view``) and reports which fields differ
("Bo's public state differs from ours in: players[0].score").  These two types are
still processed after the game stopped, so the report completes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import belfort
from belfort.reasons import Word

from net.crypto import wire

from .effects import Names, Out, Refused
from .msgs import N_, Joined, Msg

if TYPE_CHECKING:
    from net.crypto import DeckPeer, Signer

    from .config import Timing
    from .dispatch import Dispatcher

KEEP_VIEWS = 8            # public views kept for desync reports
HASH_AHEAD = 1000         # a hash this many versions past ours (a whole game is ~300): a flood
HASH_AGAIN = 16           # hashes of a version sent again by one seat (take-backs)


def diff(a: Any, b: Any, path: str = "", out: list | None = None, limit: int = 20) -> list:
    """Paths where two JSON-like values differ."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k}" if path else str(k))
            else:
                diff(a[k], b[k], f"{path}.{k}" if path else str(k), out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(path or "(whole view)")
    return out


class DesyncCheck:
    def __init__(self, signer: Signer, n: int, names: Names, *, timing: Timing | None = None,
                 confirmed: Callable[[int, int], bool] = lambda seat, need: True,
                 stopped: Callable[[], bool] = lambda: False, proven: Mapping | None = None,
                 provisional: tuple[str, ...] = ("DESYNC",)) -> None:
        """``timing``: config.Timing (its step_deadline).  ``confirmed(seat, need)``: the
        seat's claims show it held what we hold once it had sent ``need`` envelopes
        (doubt.py).  ``stopped``: our game has stopped.  ``proven``: the seats proven to
        equivocate (forks.Forks.proven, read only).  ``provisional``: the stop reasons a
        refined verdict replaces (ours, and a held stop's)."""
        self.signer, self.n, self.seat, self.names = signer, n, signer.seat, names
        self._boundary: tuple | None = None
        self.my_hashes: dict[int, tuple] = {}             # version -> (round, phase, hash, decks)
        self.my_views: dict[int, dict] = {}
        self.their_hashes: dict[int, dict[int, tuple]] = {}
        self.their_views: dict[int, dict[int, dict]] = {}
        self.desync: dict | None = None
        self.proven = proven if proven is not None else {}
        self.unsent: set[int] = set()     # versions whose hash we hold back (catchup.py)
        self._again: dict[int, int] = {}  # seat -> hashes it sent for a version again
        self.hash_seq: dict[tuple[int, int], int] = {}     # (version, seat) -> its seq
        self.confirmed, self.timing, self.stopped = confirmed, timing, stopped
        self.provisional = provisional
        self._since: float | None = None        # when the desync was found (our clock)
        self.now = 0.0

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("sess/hash", self.on_hash, after_stop=True)
        dispatch.on("sess/view", self.on_view, after_stop=True)

    def boundary(self, game: belfort.GameState, decks: Iterable[DeckPeer],
                 send: bool = True) -> Out | None:
        """After a change of the game: our hash if a phase boundary was crossed, else None
        (not ``send``: noted, sent later by ``hash_message``)."""
        key = (game.round, game.phase)
        if key == self._boundary:
            return None
        self._boundary = key
        v = game.version
        h = belfort.state_hash(game)
        self.my_hashes[v] = (game.round, game.phase, h, [d.transcript_digest or b"" for d in decks])
        self.my_views[v] = belfort.public_view(game)
        for old in sorted(self.my_views)[:-KEEP_VIEWS]:
            del self.my_views[old]
        if send:
            out = Out(send=[self.hash_message(v)])
        else:
            self.unsent.add(v)
            out = Out()
        if v in self.their_hashes:
            for s, theirs in list(self.their_hashes[v].items()):
                out.add(self._compare(s, v, theirs))
        return out

    def adopt_hash(self, v: object) -> bool:
        """Our ``sess/hash`` of version ``v``, made before a crash: it is not sent again
        (False while we have not reached that version)."""
        if v not in self.my_hashes:
            return False
        self.unsent.discard(v)
        return True

    def take_unsent(self) -> list[dict]:
        """The hashes held back while we caught up (catchup.py), to send now."""
        out = [self.hash_message(v) for v in sorted(self.unsent)]
        self.unsent.clear()
        return out

    def hash_message(self, v: int) -> dict:
        r, phase, h, _decks = self.my_hashes[v]
        return self.signer.sign("sess/hash", {"v": v, "round": r, "phase": phase, "hash": h})

    def on_hash(self, body: dict, now: float) -> Out:
        seat = body["seat"]
        v, r, ph, h = body.get("v"), body.get("round"), body.get("phase"), body.get("hash")
        if not (wire.is_int(v) and wire.is_int(r) and isinstance(ph, str) and isinstance(h, str)
                and len(h) == 64 and len(ph) < 32):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed state hash"),
                                             who=self.names.seat(seat)))
        theirs = (r, ph, h)
        if seat in self.their_hashes.get(v, {}):
            self._again[seat] = self._again.get(seat, 0) + 1
        if self._again.get(seat, 0) > HASH_AGAIN or (
                self.my_hashes and v > max(self.my_hashes) + HASH_AHEAD):
            # an honest peer hashes a version again only after a take-back, and is at
            # most a little ahead of us
            raise Refused("cheat", seat, Msg(N_("{who} sent too many state hashes for one "
                                                "version, or one far ahead (version {version})"),
                                             who=self.names.seat(seat), version=v))
        self.their_hashes.setdefault(v, {})[seat] = theirs
        self.hash_seq[(v, seat)] = body["seq"]
        if len(self.their_hashes) > 64:
            gone = min(self.their_hashes)
            del self.their_hashes[gone]
            for s in range(self.n):
                self.hash_seq.pop((gone, s), None)
        self.now = max(self.now, now)
        if v in self.my_hashes:
            return self._compare(seat, v, theirs)
        return Out()

    def _compare(self, seat: int, v: int, theirs: tuple) -> Out:
        out = Out()
        mine = self.my_hashes[v]
        if self.desync is None:
            if tuple(mine[:3]) == tuple(theirs):
                return out
            self.desync = {"version": v, "round": mine[0], "phase": mine[1],
                           "hashes": {self.seat: mine[2]}, "verdict": ""}
            view = self.my_views.get(v)
            if view is not None:
                out.send.append(self.signer.sign("sess/view", {
                    "v": v, "view": json.dumps(view, sort_keys=True)}))
        elif self.desync["version"] != v:
            return out
        hashes = self.desync["hashes"]
        hashes[seat] = theirs[2]
        for s, th in self.their_hashes.get(v, {}).items():
            hashes.setdefault(s, th[2])
        return out.add(self._verdict())

    def _deadline(self) -> float:
        return self.timing.step_deadline if self.timing is not None else 15.0

    def recheck(self, now: float | None = None) -> Out:
        """The verdict again, as claims and proofs come in (doubt.py)."""
        if now is not None:
            self.now = max(self.now, now)
        if self.desync is None:
            return Out()
        return self._verdict()

    def _unsure(self, hashes: dict) -> list[int]:
        """Seats whose claims do not yet show they held what we hold when they hashed."""
        assert self.desync is not None, "asked only once a desync was found"
        v = self.desync["version"]
        return [s for s in sorted(hashes) if s != self.seat and not self.confirmed(
            s, self.hash_seq.get((v, s), -1) + 1)]

    def _verdict(self) -> Out:
        assert self.desync is not None, "asked only once a desync was found"
        out = Out()
        v, hashes = self.desync["version"], self.desync["hashes"]
        mine = self.my_hashes[v]
        if self._since is None:
            self._since = self.now
        # who disagrees: the seats outside the largest group of equal hashes
        groups: dict[str, list[int]] = {}
        for s, h in sorted(hashes.items()):
            groups.setdefault(h, []).append(s)
        best = max(groups.values(), key=len)
        if self.proven:
            # a seat proven to have signed two different messages caused it: name that
            # seat, never the peers it deceived (forks.py)
            odd = sorted(self.proven)
            who = Msg(N_("{seats} signed contradicting messages (proof sent)"),
                      seats=self.names.seats(odd))
        elif self._unsure(hashes) and self.now - self._since <= self._deadline():
            # maybe a fork: the deceived disagree with the others through no fault of
            # theirs.  Nobody is named until the peers' claims or a proof settle it.
            odd = []
            who = Msg(N_("the state hashes differ; checking that every peer holds the same "
                         "messages before naming anyone"))
        elif self._unsure(hashes):
            # past the deadline with no proof: name only the seats that differ from us
            odd = sorted(s for s, h in hashes.items() if h != hashes[self.seat])
            who = Msg(N_("{seats} disagrees with us and did not show they hold the same "
                         "messages") if len(odd) == 1 else
                      N_("{seats} disagree with us and did not show they hold the same "
                         "messages"), seats=self.names.seats(odd))
        elif len(best) * 2 <= len(hashes):
            # no majority, but every seat held what we hold: those that differ from us
            # computed their hash wrong
            odd = sorted(s for s, h in hashes.items() if h != hashes[self.seat])
            who = Msg(N_("the peers disagree ({hashes}): {seats} differs from us, holding the "
                         "same messages") if len(odd) == 1 else
                      N_("the peers disagree ({hashes}): {seats} differ from us, holding the "
                         "same messages"),
                      hashes=self._groups(groups), seats=self.names.seats(odd))
        else:
            odd = sorted(s for g in groups.values() if g is not best for s in g)
            who = Msg(N_("{seats} disagrees with the others") if len(odd) == 1 else
                      N_("{seats} disagree with the others"), seats=self.names.seats(odd))
        if who == self.desync["verdict"]:
            return out
        self.desync["verdict"] = who
        self.desync["odd"] = odd
        text = Msg(N_("DESYNC at round {round}, {phase} (version {version}): {who} ({got} of "
                      "{n} state hashes in). The game is stopped."), round=mine[0],
                   phase=Word("phase", mine[1]), version=v, who=who, got=len(hashes), n=self.n)
        out.alert("desync", text, odd[0] if len(odd) == 1 else None, proof=True).halt(text)
        if self.stopped():
            # a refined verdict replaces the first one, or a held stop's reason
            out.verdict(text, self.provisional)
        return out

    def _groups(self, groups: dict) -> Joined:
        """'Ana (seat 0), Bo (seat 1) have 3f2a…; Cy (seat 2) has 9c01…'."""
        return Joined("; ", [Msg(N_("{seats} has {hash}") if len(g) == 1 else
                                 N_("{seats} have {hash}"), seats=self.names.seats(g),
                                 hash=h[:12]) for h, g in groups.items()])

    def on_view(self, body: dict, now: float) -> Out:
        seat, v, text = body["seat"], body.get("v"), body.get("view")
        if not (wire.is_int(v) and isinstance(text, str)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed view"),
                                             who=self.names.seat(seat)))
        if self.desync is None or v != self.desync["version"] or \
                seat in self.their_views.get(v, {}):
            # a view is only ever sent once, for the version of a desync: anything else
            # is not kept (nobody can make us store views without end)
            return Out()
        try:
            theirs = json.loads(text)      # its size and depth were checked at intake
        except (ValueError, RecursionError):
            raise Refused("cheat", seat, Msg(N_("{who} sent a view that is not JSON"),
                                             who=self.names.seat(seat))) from None
        self.their_views.setdefault(v, {})[seat] = theirs
        mine = self.my_views.get(v)
        if mine is None:
            return Out()
        fields = diff(json.loads(json.dumps(mine, sort_keys=True)), theirs)
        if not fields:
            return Out()
        self.desync.setdefault("fields", {})[seat] = fields
        return Out().alert("desync", Msg(N_("{name}'s public state differs from ours in: "
                                            "{fields}"), name=self.names[seat],
                                         fields=", ".join(fields)), seat)
