"""Commands: a seat's decision checked against the rules and the deck, then applied.

``sess/cmd`` carries an ordinary decision (``v``: the game version it was made at,
``cmd``: the command as a list).  It is accepted only from the seat the engine waits
for, at that version, and only if the engine lists it among that seat's legal commands;
otherwise it is refused, the game pauses ("Bo (seat 1) sent an illegal command ...") and
goes on when that seat sends a legal one.  A command naming a hidden card of the actor's
hand with its type (keep, build, discard, show) is checked against the card the deck
opened there.

Each received command is checked once: its shape at intake (schemas.py), its version
when it is ready (``ready``, whose verdict the handler reads), then one parse
(``belfort.normalize``), its claims against the deck, and the engine's one legality
check with the claimed types given once (``GameTable.take``).

Also the command's wire form (lists, not tuples) used by every part that sends one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import belfort
from belfort.reasons import Word

from .effects import Names, Out, Refused
from .msgs import N_, Msg
from .table import GameTable

if TYPE_CHECKING:
    from .dispatch import Dispatcher


def plain(x: Any) -> Any:
    """Tuples to lists, for the wire."""
    if isinstance(x, (tuple, list)):
        return [plain(v) for v in x]
    return x


def tuples(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(tuples(v) for v in x)
    return x


def show(raw: object) -> str:
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
        self.paused: tuple[int, str] | None = None     # (seat, text) after an illegal one
        # the verdict of ``ready`` on the command it last found ready: (body, our version
        # and step count then, its version behind ours, its steps behind ours).  The peer
        # handles a message right after its readiness says yes: the handler reads the
        # verdict instead of comparing the command's version a second time (and works it
        # out afresh if our game has moved since).
        self._due: tuple[dict, int, int, int, int] | None = None

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("sess/cmd", self.on_cmd, ready=self.ready)

    def ready(self, body: dict) -> bool:
        """A command made at version v, after n steps, waits until our game is there
        (versions repeat after a take-back; step counts do not)."""
        if self.table.game is None:
            return False
        behind, steps_behind = self._standing(body)
        if behind < 0 or steps_behind < 0:
            return False
        self._due = (body, self.table.game.version, len(self.table.undo.steps), behind,
                     steps_behind)
        return True

    def _standing(self, body: dict) -> tuple[int, int]:
        """(versions, steps) our game is past the command's; its ``v`` and ``n`` are ints
        (schemas.py checked the shape at intake)."""
        n = body.get("n")
        assert self.table.game is not None, "asked by ready() and on_cmd, once dealt"
        return (self.table.game.version - body["v"],
                0 if n is None else len(self.table.undo.steps) - n)

    def on_cmd(self, body: dict, now: float) -> Out:
        seat, raw = body["seat"], body["cmd"]      # a list, a verb first (schemas.py)
        g, due, self._due = self.table.game, self._due, None
        assert g is not None, "ready() holds a command until the game is dealt"
        if due is not None and due[0] is body and due[1] == g.version \
                and due[2] == len(self.table.undo.steps):
            behind, steps_behind = due[3], due[4]
        else:
            behind, steps_behind = self._standing(body)
        name = self.names.seat
        if behind:
            raise Refused("cheat", seat, Msg(N_("{who} sent '{command}' for game version "
                                                "{version}, but the game is at {current}"),
                                             who=name(seat), command=show(raw),
                                             version=g.version - behind, current=g.version))
        if steps_behind:
            steps = len(self.table.undo.steps)
            raise Refused("cheat", seat, Msg(N_("{who} sent '{command}' after step {step}, "
                                                "but the game is at step {current}"),
                                             who=name(seat), command=show(raw),
                                             step=repr(steps - steps_behind), current=steps))
        waiting = g.waiting_for()
        if seat not in waiting or len(waiting) > 1:
            why = Msg(N_("simultaneous decisions go by commit-reveal")) if seat in waiting else \
                Msg(N_("the game waits for {seats}"), seats=self.names.seats(waiting)) \
                if waiting else Msg(N_("the game waits for a card reveal"))
            self.illegal(seat, show(raw), why)
        return self.check_and_apply(seat, raw, now)

    def check_and_apply(self, seat: int, raw: object, now: float) -> Out:
        """Apply ``raw`` for ``seat`` (the Out holds the change); Refused if it is not legal.
        Parsed once here; its claims checked against the deck, then given to the engine
        once, which checks it once and carries it out (GameTable.take)."""
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
            events = self.table.take(seat, cmd, now)  # refuses an illegal one, changing nothing
        except belfort.BelfortError as exc:
            self.illegal(seat, show(raw), exc)
        out = Out(changes=[events])
        if self.paused and self.paused[0] == seat:
            self.paused = None
            out.alert("info", Msg(N_("{name} sent a legal command: the game goes on"),
                                  name=self.names[seat]), seat)
        return out

    def illegal(self, seat: int, text: str, why: str | Exception) -> None:
        """``why``: a `Msg`, or the engine's error (the client shows its reason translated)."""
        self.paused = (seat, text)
        raise Refused("cheat", seat, Msg(N_("{who} sent an illegal command '{command}': {why}. "
                                            "It was refused; the game waits for a legal one."),
                                         who=self.names.seat(seat), command=text, why=why))

    def claim_problem(self, seat: int, cmd: tuple) -> str:
        """Every hand card the command names with its type must have been shown
        through the deck (deck/open), and be of that type."""
        t_ = self.table
        assert t_.game is not None, "a command is checked only in a dealt game"
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
