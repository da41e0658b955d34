"""Commands: a seat's decision checked against the rules and the deck, then applied.

``sess/cmd`` carries an ordinary decision (``v``: the game version it was made at,
``cmd``: the command as a list).  It is accepted only from the seat the engine waits
for, at that version, and only if ``belfort.apply`` accepts it; otherwise it is refused,
the game pauses ("Bo (seat 1) sent an illegal command ...") and goes on when that seat
sends a legal one.  A command naming a hidden card of the actor's hand with its type
(keep, build, discard, show) is checked against the card the deck opened there.

Also the command's wire form (lists, not tuples) used by every part that sends one.
"""

from __future__ import annotations

import belfort
from belfort.reasons import Word

from net.crypto import wire

from .effects import Names, Out, Refused
from .msgs import N_, Msg
from .table import GameTable


def plain(x):
    """Tuples to lists, for the wire."""
    if isinstance(x, (tuple, list)):
        return [plain(v) for v in x]
    return x


def tuples(x):
    if isinstance(x, list):
        return tuple(tuples(v) for v in x)
    return x


def show(raw) -> str:
    try:
        return belfort.command_text(belfort.normalize(tuples(raw)))
    except Exception:
        return repr(raw)[:80]


def int_suffix(purpose: str) -> int | None:
    try:
        return int(purpose.split("/", 1)[1])
    except (ValueError, IndexError):
        return None


class Commands:
    def __init__(self, table: GameTable, names: Names) -> None:
        self.table, self.names = table, names
        self.paused: tuple[int, str] | None = None     # (seat, text) after an illegal command

    def register(self, dispatch) -> None:
        dispatch.on("sess/cmd", self.on_cmd, ready=self.ready)

    def ready(self, body: dict) -> bool:
        """A command made at version v, after n steps, waits until our game is there
        (versions repeat after a take-back; step counts do not)."""
        g, v, n = self.table.game, body.get("v"), body.get("n")
        return not (g is None or (wire.is_int(v) and g.version < v)
                    or (wire.is_int(n) and len(self.table.undo.steps) < n < 1 << 40))

    def on_cmd(self, body: dict, now: float) -> Out:
        seat, g = body["seat"], self.table.game
        name = self.names.seat
        v, raw = body.get("v"), body.get("cmd")
        if not (wire.is_int(v) and isinstance(raw, list) and raw and isinstance(raw[0], str)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed command message"),
                                             who=name(seat)))
        if v != g.version:
            raise Refused("cheat", seat, Msg(N_("{who} sent '{command}' for game version "
                                                "{version}, but the game is at {current}"),
                                             who=name(seat), command=show(raw), version=v,
                                             current=g.version))
        n, steps = body.get("n"), len(self.table.undo.steps)
        if n is not None and n != steps:
            raise Refused("cheat", seat, Msg(N_("{who} sent '{command}' after step {step}, "
                                                "but the game is at step {current}"),
                                             who=name(seat), command=show(raw), step=repr(n),
                                             current=steps))
        waiting = g.waiting_for()
        if seat not in waiting or len(waiting) > 1:
            why = Msg(N_("simultaneous decisions go by commit-reveal")) if seat in waiting else \
                Msg(N_("the game waits for {seats}"), seats=self.names.seats(waiting)) \
                if waiting else Msg(N_("the game waits for a card reveal"))
            self.illegal(seat, show(raw), why)
        return self.check_and_apply(seat, raw, now)

    def check_and_apply(self, seat: int, raw, now: float) -> Out:
        """Apply ``raw`` for ``seat`` (the Out holds the change); Refused if it is not legal."""
        try:
            cmd = belfort.normalize(tuples(raw))
        except (belfort.CommandSyntaxError, TypeError, ValueError) as exc:
            self.illegal(seat, show(raw), Msg(N_("malformed: {error}"), error=exc))
        problem = self.claim_problem(seat, cmd)
        if problem:
            raise Refused("cheat", seat, Msg(N_("{who} sent '{command}' but {problem}"),
                                             who=self.names.seat(seat),
                                             command=belfort.command_text(cmd), problem=problem))
        try:
            # refuses an illegal command, changing nothing
            events = self.table.apply(seat, cmd, now)
        except belfort.BelfortError as exc:
            self.illegal(seat, show(raw), exc)
        out = Out(changes=[events])
        if self.paused and self.paused[0] == seat:
            self.paused = None
            out.alert("info", Msg(N_("{name} sent a legal command: the game goes on"),
                                  name=self.names[seat]), seat)
        return out

    def illegal(self, seat: int, text: str, why) -> None:
        """``why``: a `Msg`, or the engine's error (the client shows its reason translated)."""
        self.paused = (seat, text)
        raise Refused("cheat", seat, Msg(N_("{who} sent an illegal command '{command}': {why}. "
                                            "It was refused; the game waits for a legal one."),
                                         who=self.names.seat(seat), command=text, why=why))

    def claim_problem(self, seat: int, cmd: tuple) -> str:
        """Every hand card the command names with its type must have been shown
        through the deck (deck/open), and be of that type."""
        t_ = self.table
        # The engine's own reading of the claims; a claim about anything but a hidden card
        # of the actor's hand is left to the engine to judge.
        for card, t in belfort.unknown_claims(t_.game, cmd, seat):
            e, pos = t_.locate(card)
            deck = t_.decks[e] if e < len(t_.decks) else None
            if deck is None or not deck.ready or len(deck.released[pos]) < t_.n \
                    or pos not in deck.known:
                return Msg(N_("card #{card} was not shown through the deck"), card=card)
            real = t_.card_type(deck, pos)
            if real != t:
                claimed = Word("card", belfort.CARD_TYPES[t]) if isinstance(t, int) \
                    and 0 <= t < 10 else repr(t)
                return Msg(N_("card #{card} is a {real}, not {claimed}"), card=card,
                           real=Word("card", belfort.CARD_TYPES[real]), claimed=claimed)
        return ""
