"""Handing a departed seat to a bot (3-5 players; docs/network.md).

Every remaining seat votes (``hand/vote``, with how many of the target's envelopes it
holds); from a peer's first vote on, the target's envelopes count only below the largest
``have`` so far, and with every vote in that is the cut.  With the target's envelopes up
to the cut held, each remaining seat publishes its decrypted escrow share
(``hand/share``); with every share in, each peer rebuilds the target's master secret,
checks every share against its commitment (a wrong one names its sender), the master
against its commitment and against the target's deck commitments.  From then on the
target's messages, its sequence going on from the cut, are signed with the identity key
of the lowest remaining seat, which plays it with a bot (botseat.BotSeat).  The owner
coming back is told so (``ctl/handed``) and stops.

Blame only with proof: a vote is each seat's own judgement (silence past the
time-out, or a missed protocol deadline, which it cites in ``why``), and nothing happens
to the target until *every* remaining seat has voted: another seat's lone vote neither
freezes the target's messages nor makes us publish anything.  Our own vote stops us
counting the target's messages past what we held then (we judged it gone).  The
``ctl/handed`` notice carries every remaining seat's signed vote; the owner stops only
if they check out (a forged notice changes nothing).

One handoff per game: the handed seat's shares of the other seats' masters are gone.

The late target: our vote freezes the target for us, but the target may come back and
deliver messages past our ``have`` before the other seats voted — they then see it
playing and would never vote, and we would wait for ever.  So every remaining seat
answers each *attempt* ``k`` by itself, yes (``hand/vote``) or no (``hand/no``), at most
once, and within the step deadline (waits.py: a seat that does neither is named and the
game stops — it cannot hold the table up for ever).  A no carries its evidence and is
void without it: one of the attempt's signed votes, and a signed message of the target
newer than that vote — an envelope of its sequence at or past the vote's ``have``, or a
heartbeat whose have-vector shows it holds the vote.  So only a target that is alive
after the attempt began can be defended, each objection needs a newer message of it, and
a seat that objects to everything has nothing to show.  One valid no calls the attempt
off on every peer (the votes are void, the freeze is lifted, the target's messages we
dropped come back by resync) and a new attempt may follow later.  A seat that voted yes
cannot say no, and shares go out only once every remaining seat voted yes — so each
attempt ends the same way on every peer, whatever the order in which the seats'
messages arrive (a message of a later attempt waits until the earlier one is called
off).  A vote citing a missed deadline is answered by our own judgement of it: yes when
our deadline names the target too, no (with its heartbeat) when it owes us nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING, Any, cast

from net.crypto import encode_envelope, wire

from .botseat import BotSeat
from .effects import Names, Out, Refused
from .evidence import signed_body
from .msgs import N_, Msg
from .escrow import MIN_SEATS, combine, deck_check, master_commitment, share_commitment
from .table import PLAYING, STOPPED
from .schemas import MAX_BYTES
from .deadlines import STOP, Owed

if TYPE_CHECKING:
    from net.crypto import Identity, Signer

    from .commands import Commands
    from .config import GameConfig, Timing
    from .desync import DesyncCheck
    from .dispatch import Dispatcher
    from .escrow import Escrow
    from .intake import Intake
    from .msglog import MessageLog
    from .rounds import Rounds
    from .table import GameTable

NO_EVIDENCE = N_("{who} objected to the handoff of {target} without evidence that {target} "
                 "is alive: ignored")
UNANSWERED = N_("{who} neither agreed nor objected to the handoff of {target} (attempt "
                "{k}) in time: the game is stopped")

TWO_PLAYERS = Msg(N_("handing a seat to a bot needs 3 to 5 players: with 2, the escrow would "
                     "give the single opponent the whole master secret (every card of the "
                     "other seat)"))
YOURS_HANDED = N_("your seat was handed to a bot at round {round} (game version {version}): it "
                  "is played by a bot hosted by {host}; you cannot rejoin this game")
HANDED_BY = N_("your seat was handed to a bot at round {round} (game version {version}) while "
               "you were away, by the votes of {voters}: a bot at level {level} hosted by "
               "{host} plays it; the game went on without you, and you cannot rejoin it")
ONE_ONLY = Msg(N_("a seat was already handed to a bot in this game: its share of every other "
                  "seat's escrow went with it, so no second seat can be handed over"))


class HandoffError(Exception):
    """A handoff cannot be proposed now (the text says why)."""


class Handoff:
    def __init__(self, config: GameConfig, signer: Signer, identity: Identity, names: Names,
                 timing: Timing, *, log: MessageLog, intake: Intake, table: GameTable,
                 escrow: Escrow, rounds: Rounds, commands: Commands,
                 hashes: DesyncCheck) -> None:
        self.cfg, self.n, self.seat, self.names, self.timing = (config, config.n, signer.seat,
                                                                names, timing)
        self.signer, self.identity = signer, identity
        self.log, self.intake, self.table, self.escrow = log, intake, table, escrow
        self.rounds, self.commands, self.hashes = rounds, commands, hashes
        self.auto: float | None = None       # vote by itself after this many s of silence
        self.follow = False                  # a bot peer: agree to a proposal by itself
        self.level, self.think = "normal", 0.0
        self.votes: dict[int, dict[int, int]] = {}       # target -> voter -> envelopes held
        self.shares_in: dict[int, dict[int, bytes]] = {}
        self._share_sent: set[int] = set()
        self.handed: dict[int, dict] = {}                # seat -> {host, cut, round, version}
        self.bot: BotSeat | None = None                  # the bot seat we host
        self.ours_handed = False                         # our own seat is a bot's now
        self._told: dict[int, float] = {}
        self.vote_envs: dict[int, dict[int, bytes]] = {}  # target -> voter -> its signed vote
        # the attempt now open per target; its votes citing a deadline; messages of later
        # attempts, kept in order until this one is called off
        self.attempt: dict[int, int] = {}
        self.opened: dict[int, float] = {}               # target -> when its attempt opened here
        self.called_off: dict[int, float] = {}           # target -> when its last attempt ended
        self.cites: dict[int, set[int]] = {}
        self.heartbeat_of: dict[int, bytes] = {}         # each seat's latest signed heartbeat
        self._later: dict[tuple[int, int], list[tuple[dict, bytes | None]]] = {}

    def configure(self, **settings: Any) -> None:
        """Set ``auto``, ``follow``, ``level`` or ``think`` (see the constructor)."""
        for name, value in settings.items():
            if name not in ("auto", "follow", "level", "think"):
                raise TypeError(f"no handoff setting {name!r}")
            setattr(self, name, value)

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("hand/vote", self.on_message)
        dispatch.on("hand/no", self.on_message)
        dispatch.on("hand/share", self.on_message)
        dispatch.on_control("ctl/handed", self.on_notice)

    # ------------------------------------------------------------ ours, adopted (catchup.py)
    def adopt_share(self, target: int, share: bytes | None) -> bool:
        """Our ``hand/share`` for ``target``, made before a crash: False while no vote on
        ``target`` is known here yet (it is adopted later)."""
        if target not in self.votes:
            return False
        self._share_sent.add(target)
        # (kept as adopted: our escrow holds the share it was made from, by the replay)
        self.shares_in.setdefault(target, {})[self.seat] = cast(bytes, share)
        return True

    def adopt_vote(self, target: int, k: int, have: int) -> None:
        """Our ``hand/vote``, made before a crash: counted if it is of the open attempt."""
        if k == self.attempt.get(target, 0):
            self.votes.setdefault(target, {})[self.seat] = have

    def adopt_no(self, target: int, k: int) -> Out:
        """Our ``hand/no``, made before a crash: the open attempt is called off."""
        if k == self.attempt.get(target, 0):
            return self._call_off(target)
        return Out()

    # ------------------------------------------------------------ queries
    def beyond_cut(self, seat: int, seq: int) -> bool:
        """A handoff of ``seat`` is under way and ``seq`` is past the cut: it does not
        count.  Under way = we voted ourselves, or every remaining seat did: another
        seat's vote alone changes nothing for the target."""
        votes = self.votes.get(seat)
        if not votes or seat in self.handed or not 0 <= seat < self.n:
            return False
        if self.seat not in votes and not all(s in votes for s in self._remaining(seat)):
            return False
        return seq >= max(votes.values())

    def below_cut(self, seat: int, seq: int) -> bool:
        """Every remaining seat voted on ``seat`` and ``seq`` is below the cut: the
        handoff needs this envelope (even from a seat we no longer take messages of)."""
        votes = self.votes.get(seat)
        if not votes:
            return False
        return seat not in self.handed \
            and all(s in votes for s in self._remaining(seat)) and seq < max(votes.values())

    def is_handed(self, seat: int) -> bool:
        return seat in self.handed

    def untouched(self) -> bool:
        """No handoff was ever proposed in this game: nothing of this part reads a seat's
        log while a frame is handled (a command may then wait for its signature check:
        intake.py ``_on_word``)."""
        return not self.votes and not self.handed and self.bot is None

    def possible(self) -> bool:
        """A handoff could happen in this game now (3-5 players, none yet, running)."""
        return self.n >= MIN_SEATS and not self.handed and self.table.status == PLAYING

    def limit(self) -> float:
        return self.auto if self.auto is not None else self.timing.timeout

    def candidates(self, quiet: Callable[[int], float]) -> list[int]:
        """Seats that could be handed to a bot now (``quiet(seat)``: its stall clock)."""
        if self.n < MIN_SEATS or self.table.status != PLAYING or self.handed:
            return []
        return [s for s in range(self.n) if s != self.seat and s not in self.handed
                and s in self.escrow.escrow and quiet(s) >= self.limit()
                and self.seat not in self.votes.get(s, {})]

    def auto_targets(self, quiet: Callable[[int], float], finished_of: Sequence[bool],
                     left_of: Sequence[bool] | None = None, now: float = 0.0) -> list[int]:
        """Seats to vote on by ourselves: stalled past ``--auto-handoff`` (``quiet(seat)``:
        its stall clock), or (``follow``, a bot peer, which has nobody to ask) proposed by
        another seat and stalled past the stall time.  ``--auto-handoff`` gives a seat
        whose player said it leaves for now the whole stall time to come back (not the
        shorter automatic one), then takes it like any other: "for now" cannot mean for
        ever when nobody else is there to decide.  A seat shown alive by an objection is
        not proposed again until that much time has passed since (no vote-and-objection
        loop while our view of it lags)."""
        if (self.auto is None and not self.follow) or self.n < MIN_SEATS \
                or self.table.status != PLAYING or self.handed:
            return []
        out = []
        for s in range(self.n):
            if s == self.seat or s in self.handed or finished_of[s] or s not in self.escrow.escrow \
                    or self.seat in self.votes.get(s, {}):
                continue
            if self.auto is None and not self.votes.get(s):
                continue     # (asked at every tick: only a proposed seat could be one)
            silent, left = quiet(s), left_of is not None and left_of[s]
            silent = min(silent, now - self.called_off.get(s, float("-inf")))
            auto = None if self.auto is None else \
                (max(self.auto, self.timing.timeout) if left else self.auto)
            if (auto is not None and silent > auto) or \
                    (self.follow and self.votes.get(s) and silent >= self.limit()):
                out.append(s)
        return out

    def check_proposal(self, seat: int, quiet: float) -> None:
        """Raise HandoffError with the reason unless we may vote to hand ``seat`` over."""
        if self.n < MIN_SEATS:
            raise HandoffError(TWO_PLAYERS)
        if not (isinstance(seat, int) and 0 <= seat < self.n) or seat == self.seat:
            raise HandoffError(Msg(N_("seat {seat} is not another seat of this game"),
                                   seat=repr(seat)))
        name = self.names[seat]
        if seat in self.handed:
            raise HandoffError(Msg(N_("{name}'s seat is already played by a bot"), name=name))
        if self.handed:
            raise HandoffError(ONE_ONLY)
        if self.seat in self.votes.get(seat, {}):
            raise HandoffError(Msg(N_("you already voted to hand {name}'s seat to a bot"),
                                   name=name))
        if self.table.status != PLAYING:
            raise HandoffError(Msg(N_("the game is not running")))
        if seat not in self.escrow.escrow:
            raise HandoffError(Msg(N_("{name} left before its escrow reached us: the seat "
                                      "cannot be handed to a bot (it can still rejoin)"),
                                   name=name))
        if quiet < self.limit():
            raise HandoffError(Msg(N_("{name} has been silent {secs} s; a seat can be handed "
                                      "to a bot after {limit} s of silence"),
                                   name=name, secs=f"{quiet:.0f}", limit=f"{self.limit():.0f}"))

    def depart(self, seat: int, text: str, why: str, replaying: bool = False) -> Out:
        """``seat`` is named (``text``) and treated as departed: our vote to hand it to a
        bot (3-5 players, citing ``why``), else the game stops with that verdict.  While
        our log is replayed the vote is not made here: it is in the log (a "handoff"
        record) and made again there."""
        out = Out()
        if self.seat in self.votes.get(seat, {}) or seat in self.handed:
            return out.alert("cheat", text, seat, proof=True)
        try:
            self.check_proposal(seat, float("inf"))
        except HandoffError as exc:
            out.alert("cheat", Msg(N_("{text}: the game is stopped"), text=text), seat,
                      proof=True)
            return out.halt(Msg(N_("{text}; it cannot be handed to a bot ({why})"), text=text,
                                why=exc))
        out.alert("cheat", Msg(N_("{text}: it is treated as departed (vote to hand it to a "
                                  "bot)"), text=text), seat, proof=True)
        if not replaying:
            out.add(self.vote(seat, why))
        return out

    # ------------------------------------------------------------ votes and shares
    def vote(self, seat: int, why: str = "") -> Out:
        """Our vote (a local decision: logged, and replayed on rejoin).  ``why``: the
        missed deadline it cites (empty: silence past the time-out)."""
        self.log.record("handoff", seat if not why else [seat, why])
        have = self.intake.expected_seq(seat)
        self.votes.setdefault(seat, {})[self.seat] = have
        fields: dict[str, object] = {"target": seat, "have": have}
        if self.attempt.get(seat):
            fields["k"] = self.attempt[seat]
        fields["level"] = self.level     # the host's says how the seat is played (the owner)
        if why:
            fields["why"] = why[:200]
            self.cites.setdefault(seat, set()).add(self.seat)
        env = self.signer.sign("hand/vote", fields)
        self.vote_envs.setdefault(seat, {})[self.seat] = encode_envelope(env)
        out = Out(send=[env])
        return out.alert("info", Msg(N_("you voted to hand {name}'s seat to a bot"),
                                      name=self.names[seat]), seat)

    def note_heartbeat(self, seat: int, data: bytes) -> None:
        """A seat's signed heartbeat (already verified): evidence, should a handoff of
        that seat be proposed while it is alive."""
        self.heartbeat_of[seat] = data

    def _open(self) -> list[int]:
        """Targets with an attempt open that we have not answered."""
        if self.handed or self.table.status != PLAYING:
            return []
        return [t for t, votes in sorted(self.votes.items())
                if votes and t != self.seat and self.seat not in votes]

    def answers(self, now: float, quiet: Callable[[int], float], owes: Callable[[int], bool]
                ) -> tuple[list[tuple[int, bytes, bytes]], list[int]]:
        """Our answers due now to the open attempts: ``(objections, agreements)`` —
        objections as ``(target, cited vote, evidence)``.  ``quiet(seat)``: how long it
        has been silent to us; ``owes(seat)``: it owes a protocol step now (deadlines.py).
        Objection as soon as we hold evidence; agreement to a silence vote once half the
        step deadline has passed without any (the target silent to us, or not at all
        alive after the vote); a vote citing a missed deadline is left to our own
        deadline unless the target owes us nothing."""
        objections, agreements = [], []
        step = self.timing.step_deadline
        for t in self._open():
            proof = self.evidence(t)
            cited = bool(self.cites.get(t))
            if proof is not None and (not cited or not owes(t) or proof[2]):
                objections.append((t, proof[0], proof[1]))
                continue
            if cited:
                continue
            age = now - self.opened.get(t, now)
            if (age >= step / 2 and quiet(t) > self.timing.disconnected) or age >= step * 3 / 4:
                agreements.append(t)
        return objections, agreements

    def evidence(self, target: int) -> tuple[bytes, bytes, bool] | None:
        """A vote of the open attempt on ``target`` and a newer signed message of the
        target we hold: ``(vote, message, moved on)`` — moved on: the message is an
        envelope of its sequence past the vote (it played on), not a heartbeat."""
        envs = self.vote_envs.get(target, {})
        votes = self.votes.get(target, {})
        held = self.intake.expected_seq(target)
        ours = self.log.envelopes(target)
        for voter in sorted(envs, key=lambda v: -votes.get(v, 0)):
            have = votes.get(voter)
            if have is None or held <= have:
                continue
            # the first newer envelope small enough to carry (a public view can be large)
            for data in ours[have:have + 8]:
                if len(data) <= MAX_BYTES:
                    return envs[voter], data, True
        hb = self.heartbeat_of.get(target)
        if hb is None:
            return None
        for voter, vote in sorted(envs.items()):
            if self._holds_vote(hb, target, voter, vote):
                return vote, hb, False
        return None

    def _holds_vote(self, hb: object, target: int, voter: int, vote: object) -> bool:
        """``hb`` is the target's signed heartbeat and shows it holds ``voter``'s vote
        (both as a peer sent them: checked here)."""
        body = signed_body(hb, self.cfg.keys[target], self.cfg.game_id)
        vb = signed_body(vote, self.cfg.keys[voter], self.cfg.game_id)
        if body is None or vb is None or body["type"] != "ctl/hb" or body["seat"] != target:
            return False
        have = body.get("have")
        return isinstance(have, list) and len(have) == self.n and wire.is_int(have[voter]) \
            and have[voter] > vb["seq"]

    def _valid_no(self, body: dict) -> bool:
        """A ``hand/no`` carries one of the attempt's votes and a newer message of the
        target (see the module docstring)."""
        target, k = body["target"], body.get("k", 0)
        vote, proof = body.get("vote"), body.get("proof")
        voters = [s for s in range(self.n) if s not in (target, body["seat"])]
        for voter in voters:
            vb = signed_body(vote, self.cfg.keys[voter], self.cfg.game_id)
            if vb is None:
                continue
            if vb["seat"] != voter or vb["type"] != "hand/vote" or vb.get("target") != target \
                    or vb.get("k", 0) != k or not wire.is_int(vb.get("have")):
                return False
            pb = signed_body(proof, self.cfg.keys[target], self.cfg.game_id)
            if pb is None or pb["seat"] != target:
                return False
            if pb["type"] == "ctl/hb":
                return self._holds_vote(proof, target, voter, vote)
            return wire.is_int(pb["seq"]) and pb["seq"] >= vb["have"]
        return False

    def answers_owed(self, skip: Container[int]) -> dict[tuple, Owed]:
        """Every remaining seat owes a yes or a no to each open attempt (waits.py)."""
        out: dict[tuple, Owed] = {}
        if self.handed or self.table.status != PLAYING:
            return out
        for t, votes in sorted(self.votes.items()):
            if not votes:
                continue
            k = self.attempt.get(t, 0)
            for s in self._remaining(t):
                if s not in votes and s not in skip:
                    out[("answer", t, k, s)] = Owed(
                        s, Msg(UNANSWERED, who=self.names.seat(s), target=self.names[t], k=k),
                        STOP)
        return out

    def object(self, target: int, vote: bytes, proof: bytes, now: float) -> Out:
        """Our ``hand/no`` with its evidence (a local decision: logged, replayed on
        rejoin): the attempt is called off here at once, as it will be everywhere."""
        self.log.record("handoff-no", [target, vote, proof])
        env = self.signer.sign("hand/no", {"target": target, "k": self.attempt.get(target, 0),
                                           "vote": vote, "proof": proof})
        out = Out(send=[env])
        out.alert("info", Msg(N_("{name} is playing again: the handoff of the seat is called "
                                 "off"), name=self.names[target]), target)
        return out.add(self._call_off(target, now))

    def _call_off(self, target: int, now: float | None = None) -> Out:
        """The open attempt on ``target`` ends with no handoff; the next one opens, with
        the messages of it that came early.  ``now`` None: an objection of ours adopted
        on catch-up (the time is not ours to know)."""
        out = Out()
        out.need_sync = True        # the target's messages we dropped meanwhile come back
        self.attempt[target] = self.attempt.get(target, 0) + 1
        self.votes[target], self.vote_envs[target] = {}, {}
        self.cites.pop(target, None)
        self.opened.pop(target, None)
        if now is not None:
            self.called_off[target] = now
        for body, data in self._later.pop((target, self.attempt[target]), []):
            out.add(self._on_attempt(body, data, 0.0 if now is None else now))
        return out

    def on_message(self, body: dict, now: float) -> Out:
        seat, target, name = body["seat"], body.get("target"), self.names.seat
        if self.n < MIN_SEATS:
            raise Refused("cheat", seat, Msg(N_("{who} proposed a handoff: {why}"), who=name(seat),
                                             why=TWO_PLAYERS))
        if not (wire.is_int(target) and 0 <= target < self.n) or target == seat \
                or self.handed or (body["type"] == "hand/share" and target not in self.votes):
            raise Refused("cheat", seat, Msg(N_("{who} sent a handoff message for seat {seat}, "
                                                "which cannot be handed over"),
                                             who=name(seat), seat=repr(target)))
        if body["type"] in ("hand/vote", "hand/no"):
            k, now_k = body.get("k", 0), self.attempt.get(target, 0)
            env = self.log.envelopes(seat)
            data = env[body["seq"]] if 0 <= body["seq"] < len(env) else None
            if k < now_k:
                return Out()          # an attempt already called off: void
            if body["type"] == "hand/no" and not self._valid_no(body):
                raise Refused("cheat", seat, Msg(NO_EVIDENCE, who=name(seat),
                                                 target=self.names[target]))
            if k > now_k:
                later = self._later.setdefault((target, k), [])
                if len(later) < self.n and len(self._later) <= 4 * self.n:
                    later.append((body, data))
                return Out()
            return self._on_attempt(body, data, now)
        return self._on_share(body)

    def _on_attempt(self, body: dict, data: bytes | None, now: float) -> Out:
        """A yes or no of the attempt now open on its target."""
        seat, target, name = body["seat"], body["target"], self.names.seat
        votes = self.votes.setdefault(target, {})
        if body["type"] == "hand/no":
            if seat in votes:
                raise Refused("cheat", seat, Msg(N_("{who} objected to the handoff of {target} "
                                                    "after voting for it"),
                                                 who=name(seat), target=name(target)))
            out = Out().alert("info", Msg(N_("{name} sees {target} playing: the handoff of "
                                             "the seat is called off"),
                                          name=self.names[seat], target=self.names[target]),
                              target)
            return out.add(self._call_off(target, now))
        if body["type"] == "hand/vote":
            have = body.get("have")
            if not (wire.is_int(have) and 0 <= have < 1 << 32):
                raise Refused("cheat", seat, Msg(N_("{who} sent a malformed handoff vote"),
                                                 who=name(seat)))
            if seat in votes:
                raise Refused("cheat", seat, Msg(N_("{who} voted twice on {target}"),
                                                 who=name(seat), target=name(target)))
            votes[seat] = have
            self.opened.setdefault(target, now)
            if body.get("why"):
                self.cites.setdefault(target, set()).add(seat)
            if data is not None:
                self.vote_envs.setdefault(target, {})[seat] = data
            if self.seat != target and self.seat not in votes:
                return Out().alert("info", Msg(N_("{name} proposes to hand {target}'s seat to "
                                                  "a bot (agree: handoff {seat})"),
                                               name=self.names[seat],
                                               target=self.names[target], seat=target), target)
            return Out()
        raise Refused("cheat", seat, Msg(N_("{who} sent a malformed handoff message"),
                                         who=name(seat)))

    def _on_share(self, body: dict) -> Out:
        seat, target, name = body["seat"], body["target"], self.names.seat
        share = body.get("share")
        if not (isinstance(share, bytes) and len(share) == 32):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed escrow share"),
                                             who=name(seat)))
        got = self.shares_in.setdefault(target, {})
        if seat in got:
            raise Refused("cheat", seat, Msg(N_("{who} sent its share of {target} twice"),
                                             who=name(seat), target=name(target)))
        got[seat] = share
        return Out()

    def _share_out(self, target: int, share: bytes) -> bytes:
        """The share we publish (a test can make a cheater by overriding this)."""
        return share

    def _remaining(self, target: int) -> list[int]:
        return [s for s in range(self.n) if s != target and s not in self.handed]

    def step(self) -> Out | None:
        """Our share once every vote and the target's envelopes up to the cut are in;
        the handoff itself once every share is in (None, the usual answer: no vote)."""
        if not self.votes:
            return None
        out = Out()
        for target in sorted(self.votes):
            if target in self.handed or self.table.status == STOPPED or out.stop:
                continue
            votes, remaining = self.votes[target], self._remaining(target)
            if not all(s in votes for s in remaining):
                continue
            cut = max(votes.values())
            if self.intake.expected_seq(target) < cut:
                continue          # the envelopes up to the cut are on their way (resync)
            if self.seat != target and target not in self._share_sent:
                share = self.escrow.my_shares.get(target)
                if share is None:
                    return out.halt(Msg(N_("{who}'s seat cannot be handed to a bot: its escrow "
                                           "share for us never arrived or was wrong"),
                                        who=self.names.seat(target)))
                self._share_sent.add(target)
                self.shares_in.setdefault(target, {})[self.seat] = share
                out.send.append(self.signer.sign("hand/share", {
                    "target": target, "share": self._share_out(target, share)}))
            got = self.shares_in.get(target, {})
            if all(s in got for s in remaining):
                out.add(self._finish(target, cut, remaining))
        return out

    def _finish(self, target: int, cut: int, remaining: list[int]) -> Out:
        out, gid, name = Out(), self.cfg.game_id, self.names.seat(target)
        esc = self.escrow.escrow.get(target)
        if self.intake.expected_seq(target) != cut:
            return out.halt(Msg(N_("the handoff of {who} failed: we hold more of its messages "
                                   "than the cut"), who=name))
        if esc is None:
            return out.halt(Msg(N_("{who}'s seat cannot be handed to a bot: its escrow never "
                                   "arrived"), who=name))
        shares = self.shares_in[target]
        bad = [s for s in remaining
               if share_commitment(shares[s], gid, target, s) != esc["share_commits"][s]]
        if bad:
            for s in bad:
                out.alert("cheat", Msg(N_("{who} published a wrong escrow share of {target}'s "
                                          "seat (it does not match the commitment)"),
                                       who=self.names.seat(s), target=name), s)
            return out.halt(Msg(N_("the handoff of {who} failed: {seats} published a wrong "
                                   "escrow share (cheating)"),
                                who=name, seats=self.names.seats(bad)))
        master = combine(shares[s] for s in remaining)
        problem = "" if master_commitment(master, gid, target) == esc["commit"] else \
            Msg(N_("its master secret does not match its commitment"))
        problem = problem or deck_check(master, gid, target, self.table.decks)
        if problem:
            out.alert("cheat", Msg(N_("{who}'s escrow is wrong: {problem}"), who=name,
                                   problem=problem), target)
            return out.halt(Msg(N_("the handoff of {who} failed: {problem}"), who=name,
                                problem=problem))
        host = min(remaining)
        g = self.table.game
        h = self.handed[target] = {"host": host, "cut": cut, "round": g.round if g else 0,
                                   "version": g.version if g else 0}
        self.intake.rekey(target, self.cfg.keys[host])
        if target == self.seat:
            self.ours_handed = True
            text = Msg(YOURS_HANDED, round=h["round"], version=h["version"],
                       host=self.names[host])
            return out.alert("info", text, target).halt(text)
        out.alert("info", Msg(N_("{name}'s seat is now played by a bot hosted by {host} (its "
                                 "hand is known to everyone)"),
                              name=self.names[target], host=self.names[host]), target)
        out.events.append(("handoff", target, host))
        if host == self.seat:
            self.bot = BotSeat(self.identity, target, master, cut, table=self.table,
                               rounds=self.rounds, commands=self.commands, hashes=self.hashes,
                               intake=self.intake, names=self.names, level=self.level,
                               think=self.think)
        return out

    # ------------------------------------------------------------ the owner coming back
    def answer_owner(self, seat: int, body: dict, now: float) -> Out:
        """A control message of a handed seat: its owner is back, but the seat is a bot's
        now: tell it (at most once a second)."""
        if body["type"] != "ctl/hb" or now - self._told.get(seat, -9.0) < 1.0 or self.log.replaying:
            return Out()
        self._told[seat] = now
        h = self.handed[seat]
        votes = self.vote_envs.get(seat, {})
        told = {"type": "ctl/handed", "game": self.cfg.game_id, "seat": self.seat, "seq": 0,
                "target": seat, "host": h["host"], "round": h["round"], "v": h["version"],
                "votes": [votes[s] for s in sorted(votes)]}
        return Out(frames=[(seat, encode_envelope(self.identity.sign_message(told)))])

    def on_notice(self, seat: int, body: dict, now: float) -> Out:
        """``ctl/handed``: our own seat was handed to a bot while we were away.  Believed
        only with every other seat's signed vote to hand *us* over."""
        target, host, r, v = body.get("target"), body.get("host"), body.get("round"), body.get("v")
        votes = body.get("votes")
        if not (wire.is_int(target) and wire.is_int(host) and 0 <= host < self.n
                and wire.is_int(r) and wire.is_int(v) and isinstance(votes, list)
                and len(votes) <= self.n):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed handoff notice"),
                                             who=self.names.seat(seat)))
        if target != self.seat or self.table.status == STOPPED or self.ours_handed:
            return Out()
        missing = self._unvouched(votes)
        if missing:
            raise Refused("cheat", seat, Msg(N_("{who} told us our seat was handed to a bot, "
                                                "without the votes of {seats}: ignored"),
                                             who=self.names.seat(seat),
                                             seats=self.names.seats(missing)))
        self.ours_handed = True
        bodies = []
        for data in votes:
            for s in range(self.n):
                b = signed_body(data, self.cfg.keys[s], self.cfg.game_id) if s != self.seat \
                    else None
                if b is not None and b["seat"] == s and b["type"] == "hand/vote":
                    bodies.append(b)
        text = self._handed_text(r, v, bodies)
        return Out().alert("info", text, seat).halt(text)

    def handed_away(self, votes: list[tuple[dict, bytes]]) -> Out:
        """``votes``: the signed votes naming our seat we took (Intake.votes_on_us).  With
        every other seat's yes in one attempt, our seat is a bot's: nobody can call that
        attempt off any more (a seat that voted yes cannot object, and the shares follow).
        That is the notice when no peer is left to send ``ctl/handed`` — the others
        finished and left while we were suspended — and it is recognised before the
        messages they played on with the bot, which no longer fit our game, are."""
        if self.ours_handed or self.n < MIN_SEATS or not votes:
            return Out()
        others = [s for s in range(self.n) if s != self.seat]
        voters: dict[int, set[int]] = {}
        for body, _data in votes:
            voters.setdefault(body.get("k", 0), set()).add(body["seat"])
        yes = [k for k, seats in sorted(voters.items()) if all(s in seats for s in others)]
        if not yes:
            return Out()
        self.ours_handed = True
        g = self.table.game
        text = self._handed_text(g.round if g else 0, g.version if g else 0,
                          [b for b, _data in votes if b.get("k", 0) == yes[0]])
        return Out().alert("info", text, self.seat).halt(text)

    def _handed_text(self, round_: int, version: int, bodies: list[dict]) -> str:
        """What the owner of a handed seat is told: when, by whose votes, the bot's level
        (from the hosting seat's vote) and its host."""
        others = [s for s in range(self.n) if s != self.seat]
        host = min(others)
        level = next((b.get("level") for b in bodies if b["seat"] == host), None)
        return Msg(HANDED_BY, round=round_, version=version, voters=self.names.seats(others),
                   level=level if isinstance(level, str) and level.isalnum() else "?",
                   host=self.names[host])

    def _unvouched(self, votes: list) -> list[int]:
        """The other seats whose signed vote to hand our seat over is not among ``votes``."""
        voters = set()
        for data in votes:
            for s in range(self.n):
                if s == self.seat:
                    continue
                b = signed_body(data, self.cfg.keys[s], self.cfg.game_id)
                if b is not None and b["seat"] == s and b["type"] == "hand/vote" \
                        and b.get("target") == self.seat:
                    voters.add(s)
                    break
        if self.n < MIN_SEATS:
            return [s for s in range(self.n) if s != self.seat]
        return [s for s in range(self.n) if s != self.seat and s not in voters]
