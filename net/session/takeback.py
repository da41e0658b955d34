"""Take-backs in a networked game: `sess/undo`, checked and applied the same on every peer.

Every command a peer applies is sent to the others as it is taken (`sess/cmd`), so the
others see each action of an Actions-phase turn at once. A player may take back their own
last action under belfort.undo's rule (until something new is known: a card drawn or
revealed, a simultaneous choice revealed, another seat's decision, a phase's end). In a
networked game that is a signed message from the taker's seat:

    sess/undo {v: game version, n: steps so far, step: the step taken back}

Every peer keeps the same `UndoLog` (the table records every command and reveal it
applies, in the order the lockstep applied them), checks the message against it and
restores the state before that step (belfort.undo.restore): the state hash is the same on
every peer. A take-back that does not fit is refused and names its sender, like an illegal
command.

One rule more than a local game's: a take-back is accepted only while the game waits for
the taker's decision alone (`undo/turn-passed` otherwise). Once the turn has passed,
another player may be deciding already, and a take-back racing their command could not be
ordered the same way on every peer. Within a turn nobody else can send a command, so there
is no race.

Versions are not unique once a take-back restores an earlier state, so `sess/cmd` and
`sess/undo` also carry `n`, the number of steps (commands and take-backs) applied before
them, which only grows: a message waits until its peer has applied that many steps, and a
stale one is refused (commands.Commands.ready / on_cmd).

A take-back never un-reveals a card: a step that drew or revealed a card is final, and a
card opened through the deck for a build stays opened in the deck (the others saw it); the
take-back only puts it back in its owner's hand in the engine, as in a local game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Self

from belfort.state import GameState
from belfort.undo import Refusal, Step, UndoRefused, UndoStack

from net.crypto import wire

from .effects import Names, Out, Refused
from .msgs import N_, Msg

if TYPE_CHECKING:
    from net.crypto.identity import Signer

    from .dispatch import Dispatcher

TURN_PASSED = "undo/turn-passed"     # the game waits for another seat now
NOT_PLAYING = "undo/not-playing"     # before the deal, after the end, or the game stopped
CATCHING_UP = "undo/catching-up"     # rejoined: the others may still hold actions of ours


@dataclass(frozen=True)
class SessionRefusal(Refusal):
    """The refusals only a networked game has."""

    def text(self, name: Callable[[int], str] | None = None) -> str:
        if self.code == TURN_PASSED:
            who = name(self.seat) if name is not None and self.seat is not None \
                else (f"seat {self.seat}" if self.seat is not None else "the next player")
            return f"your turn has passed: the game waits for {who} now"
        if self.code == NOT_PLAYING:
            return "the game is not being played now"
        if self.code == CATCHING_UP:
            return "this game is still catching up with the others after a rejoin"
        return super().text(name)


class RefusalText(str):
    """A take-back refusal in English (``refusal.text(name)``) that keeps the refusal and
    the seat names, so the client can word it in the player's language."""

    refusal: Refusal
    names: list[str]

    def __new__(cls, refusal: Refusal, names: Iterable[str]) -> Self:
        names = list(names)
        text = super().__new__(cls, refusal.text(
            lambda s: names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"))
        text.refusal, text.names = refusal, names
        return text


class UndoLog:
    """Every step this peer applied, in order: the commands and take-backs (the complete
    log's steps, `("cmd", seat, command)` / `("undo", seat, n)`), and the undo stack that
    decides what may still be taken back. The same on every peer."""

    def __init__(self) -> None:
        self.stack = UndoStack()
        self.steps: list[tuple] = []

    def command(self, before: GameState, game: GameState, seat: int, cmd: tuple) -> None:
        self.stack.record(before, game, seat, cmd, tag=len(self.steps))
        self.steps.append(("cmd", seat, cmd))

    def reveal(self, before: GameState) -> None:
        self.stack.record_reveal(before)

    def take_back(self, game: GameState, seat: int) -> Step:
        """Restore `game` to before `seat`'s last step; the Step. Raises UndoRefused."""
        step = self.stack.take_back(game, seat)
        self.steps.append(("undo", seat, step.tag))
        return step


class UndoTable(Protocol):
    """What a take-back reads of the session's table (table.GameTable, which keeps the
    UndoLog)."""

    game: GameState | None
    undo: UndoLog

    @property
    def playing(self) -> bool: ...


class TakeBack:
    """The `sess/undo` part of a session (see the module docstring)."""

    def __init__(self, table: UndoTable, names: Names) -> None:
        self.table, self.names = table, names

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("sess/undo", self.on_undo, ready=self.ready)

    @property
    def log(self) -> UndoLog:
        return self.table.undo

    def steps_applied(self) -> int:
        return len(self.table.undo.steps)

    def refusal(self, seat: int) -> Refusal | None:
        """None when `seat` may take back its last action now, else why not."""
        g = self.table.game
        if g is None or not self.table.playing:
            return SessionRefusal(NOT_PLAYING)
        why = self.log.stack.refusal(seat)
        if why is not None:
            return why
        waiting = g.waiting_for()
        if waiting != [seat]:
            return SessionRefusal(TURN_PASSED, seat=waiting[0] if len(waiting) == 1 else None)
        return None

    def message(self, signer: Signer) -> dict:
        """Our signed take-back of our last step (check `refusal` first)."""
        g = self.table.game
        assert g is not None, "refusal() allows a take-back only in a dealt game"
        return signer.sign("sess/undo", {"v": g.version,
                                         "n": self.steps_applied(),
                                         "step": self.log.stack.last_tag()})

    def apply(self, seat: int) -> tuple[list, tuple]:
        """Take back `seat`'s last step: (the engine events, the command taken back)."""
        g = self.table.game
        assert g is not None, "refusal() allows a take-back only in a dealt game"
        step = self.log.take_back(g, seat)
        # a seat's last step is a command: a reveal after it closes it to take-backs
        assert step.command is not None, "a reveal taken back"
        return [("undo", seat, step.command)], step.command

    def ready(self, body: dict) -> bool:
        """A take-back waits until we applied every step its sender had."""
        n = body.get("n")
        return self.table.game is not None and not (
            wire.is_int(n) and self.steps_applied() < n < 1 << 40)

    def on_undo(self, body: dict, now: float) -> Out:
        seat, g = body["seat"], self.table.game
        assert g is not None, "ready() holds a take-back until the game is dealt"
        v, n, tag = body.get("v"), body.get("n"), body.get("step")
        if not (wire.is_int(v) and wire.is_int(n) and wire.is_int(tag)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed take-back"),
                                             who=self.names.seat(seat)))
        if n != self.steps_applied() or v != g.version:
            self._illegal(seat, Msg(N_("it was made at step {step} (game version {version}), "
                                       "but the game is at step {current} (version {now})"),
                                    step=n, version=v, current=self.steps_applied(),
                                    now=g.version))
        why = self.refusal(seat)
        if why is not None:
            self._illegal(seat, RefusalText(why, self.names.names))
        last = self.log.stack.last_tag()
        if last != tag:
            self._illegal(seat, Msg(N_("it names step {step}, but the last step is {last}"),
                                    step=tag, last=last))
        try:
            events, _cmd = self.apply(seat)
        except UndoRefused as exc:           # cannot happen after refusal(): kept safe
            self._illegal(seat, RefusalText(exc.refusal, self.names.names))
        return Out(changes=[events])

    # --- inside -------------------------------------------------------------------------
    def _illegal(self, seat: int, why: str) -> None:
        raise Refused("cheat", seat, Msg(N_("{who} sent a take-back that is not allowed: {why}. "
                                            "It was refused."), who=self.names.seat(seat),
                                         why=why))


__all__ = ["UndoLog", "TakeBack", "SessionRefusal", "TURN_PASSED", "NOT_PLAYING", "CATCHING_UP"]
