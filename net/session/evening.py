"""Another game at the same table, and the evening's results.

When a game ends, the same table may play again without a new lobby.  Each seat says so
with ``ctl/again {next, yes}`` — a control frame of the game just finished, signed with
its identity key and checked at the door like every control frame (this game, that seat's
signature, that seat's own connection: intake.py).  ``next`` is the number of the game
asked for (2 for the second of the evening); ``yes`` false says the seat leaves the
evening.  A control frame may be lost, so an answer is sent again every second until the
next game starts; a yes cannot be taken back (a ``yes: false`` after it is the seat
leaving the evening, which only its own peer says when it closes).

The next game is played by the seats that said yes, once every seat still at the table
has answered: a person answers (``again``), a bot peer follows the people (it agrees once
one of them has), a seat that left this game for good (departure.py) or whose seat a bot
played is not asked, and a seat silent since it finished is taken as gone.  Its config
is derived on every peer alike from this game's (``next_config``): the same keys and
Curve keys (each checked in the lobby), the same mesh addresses, the seats that said yes
in their order, the starting order rotated by one (the turn-order crests of this game's
start, the leavers taken out), the same options and ruleset, and a game id that hashes
this one's with the number.  The new game's seed is drawn jointly as the first one's was
(each seat's commitment to a share from a new master secret, then the reveals: core.py's
``start``), so no peer chooses it, and every game is audited as any.

The results (``Evening``) are kept by each peer from its own finished games: games played,
wins and points per player, keyed by identity key (the names may repeat across evenings,
the keys are what the lobby checked).  A game that ended because a player left (2
players) counts the points as the table stood; the player who left gets no win.  A seat
a bot took over after its player left for good counts its points under that player,
without a win.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from net.crypto import encode_envelope, wire

from .config import GameConfig, game_id_for
from .effects import Names, Out, Refused
from .msgs import N_, Joined, Msg

if TYPE_CHECKING:
    import belfort
    from net.crypto import Identity

    from .dispatch import Dispatcher

RESEND = 1.0         # seconds between copies of our answer (a control frame may be lost)


class Again:
    """The ``ctl/again`` answers of one finished game's seats (a part of its session)."""

    def __init__(self, identity: Identity, game_id: str, seat: int, names: Names,
                 number: int) -> None:
        """``number``: this game's number in the evening (1: the first)."""
        self.identity, self.game_id, self.seat, self.names = identity, game_id, seat, names
        self.number = number
        self.answers: dict[int, bool] = {}       # seat -> its answer (ours included)
        self._next_send = 0.0

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/again", self.on_again)

    def _frame(self, yes: bool) -> Out:
        body = {"type": "ctl/again", "game": self.game_id, "seat": self.seat, "seq": 0,
                "next": self.number + 1, "yes": yes}
        return Out(frames=[(None, encode_envelope(self.identity.sign_message(body)))])

    def answer(self, yes: bool, now: float) -> Out:
        """Our answer: another game (yes), or we leave the evening (no).  A yes stands."""
        if self.answers.get(self.seat) is True and yes:
            return Out()
        self.answers[self.seat] = yes
        self._next_send = now + RESEND
        return self._frame(yes)

    def tick(self, now: float) -> Out:
        """Our yes again, every second, until the next game starts."""
        if self.answers.get(self.seat) is not True or now < self._next_send:
            return Out()
        self._next_send = now + RESEND
        return self._frame(True)

    def on_again(self, seat: int, body: dict, now: float) -> Out:
        nxt, yes = body.get("next"), body.get("yes")
        if not (wire.is_int(nxt) and isinstance(yes, bool)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed answer about another "
                                                "game"), who=self.names.seat(seat)))
        if nxt != self.number + 1:
            return Out()            # (a copy about another game of the evening: stale)
        was = self.answers.get(seat)
        if was is True and yes:
            return Out()
        self.answers[seat] = yes
        if yes:
            return Out().alert("info", Msg(N_("{name} wants another game at this table "
                                              "(again)"), name=self.names[seat]), seat)
        if self.answers.get(self.seat) is not True:
            return Out()          # (nobody here waits for another game: nothing to say)
        return Out().alert("info", Msg(N_("{name} leaves the table: not in the next game"),
                                       name=self.names[seat]), seat)


def next_players(n: int, answers: dict[int, bool], asked: Iterable[int],
                 gone: Callable[[int], bool]) -> list[int] | None:
    """The seats of the next game, once every seat ``asked`` has answered (or is ``gone``:
    silent since the game ended), else None.  May be fewer than 2: no next game."""
    players = []
    for s in asked:
        a = answers.get(s)
        if a is None and not gone(s):
            return None
        if a is True:
            players.append(s)
    return players


def start_order(cfg: GameConfig, seed: bytes) -> list[int]:
    """The seats in this game's starting turn order (crest 1 first), as dealt at its start."""
    from belfort.game import deal_crests
    crests = deal_crests(cfg.n, cfg.options.get("crests"), seed)
    return sorted(range(cfg.n), key=lambda s: crests[s])


def next_config(cfg: GameConfig, seed: bytes, number: int,
                players: list[int]) -> GameConfig:
    """The config of game ``number`` of the evening, for ``players`` (seats of ``cfg``, in
    seat order): the same on every peer (see the module docstring)."""
    order = [s for s in start_order(cfg, seed) if s in players]
    order = order[1:] + order[:1]                # the next player in turn starts
    crests = [order.index(s) + 1 for s in players]
    options = {**{k: v for k, v in cfg.options.items() if k != "crests"}, "crests": crests}
    keys = [cfg.keys[s] for s in players]
    names = [cfg.names[s] for s in players]
    nonce = hashlib.sha256(wire.pack(["belfort-lan/again/v1", cfg.game_id, number])).digest()
    return GameConfig(game_id=game_id_for(keys, names, options, cfg.ruleset_sha, nonce[:16]),
                      names=names, keys=keys, curve=[cfg.curve[s] for s in players],
                      endpoints=[cfg.endpoints[s] for s in players],
                      kinds=[cfg.kinds[s] for s in players],
                      colours=[cfg.colours[s] for s in players], options=options,
                      ruleset_text=cfg.ruleset_text, ruleset_sha=cfg.ruleset_sha,
                      lobby=cfg.lobby)


def game_of(data: bytes) -> str | None:
    """The game id a frame claims (None: not a frame we can read), to route it to the
    game of the evening it belongs to; its full check is the session's."""
    from .intake import peek_decoded
    try:
        body, _decoded = peek_decoded(data)
    except Exception:
        return None
    game = body.get("game")
    return game if isinstance(game, str) else None


@dataclass(frozen=True)
class Standing:
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0


@dataclass
class Evening:
    """The evening's results as this peer saw its games end (see the module docstring)."""
    number: int = 1                               # the game being played now
    players: dict[bytes, Standing] = field(default_factory=dict)
    games: list[dict] = field(default_factory=list)
    recorded: set[str] = field(default_factory=set)

    def record(self, cfg: GameConfig, game: belfort.GameState, left: Iterable[int]) -> None:
        """A finished (audited) game: its points and winners.  ``left``: seats whose
        player left it for good (no win)."""
        if cfg.game_id in self.recorded:
            return
        self.recorded.add(cfg.game_id)
        import belfort
        scores = [p["score"] for p in belfort.public_view(game)["players"]]
        gone = set(left)
        if game.result is not None:
            winners = [s for s in game.result.get("winners", []) if s not in gone]
        else:
            winners = []
        if not winners:
            stayed = [s for s in range(cfg.n) if s not in gone]
            top = max((scores[s] for s in stayed), default=None)
            winners = [s for s in stayed if scores[s] == top]
        for s in range(cfg.n):
            st = self.players.get(cfg.keys[s], Standing(cfg.names[s]))
            self.players[cfg.keys[s]] = Standing(st.name, st.games + 1, st.wins + (s in winners),
                                                 st.points + scores[s])
        self.games.append({"game": cfg.game_id, "names": list(cfg.names), "scores": scores,
                           "winners": winners, "left": sorted(gone)})

    def next(self) -> int:
        """The next game of the evening begins: its number."""
        self.number += 1
        return self.number

    def rows(self) -> list[dict]:
        """Per player, most wins first, then most points: name, games, wins, points."""
        table = sorted(self.players.values(), key=lambda st: (-st.wins, -st.points, st.name))
        return [{"name": st.name, "games": st.games, "wins": st.wins, "points": st.points}
                for st in table]

    def text(self) -> str:
        """The evening's table, one line a player."""
        if not self.games:
            return Msg(N_("No game of this evening has ended yet."))
        # (the catalogs' languages all say one game apart from several)
        head = Msg(N_("This evening, after one game:")) if len(self.games) == 1 else \
            Msg(N_("This evening, after {n} games:"), n=len(self.games))
        lines = [head] + [
            Msg(N_("  {name}: {wins} of {games} won, {points} points"), **row)
            for row in self.rows()]
        return Joined("\n", lines)
