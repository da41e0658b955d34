"""Taking back your own actions: the rule, and the stack of states it restores.

The rule players know from online board game sites: you may take back your own actions,
the latest first, until something new has become known. Something new is

- a card drawn or turned up (a draw to a hand, a pool refill, an NP's card from the top of
  the pile, a reshuffle, a public reveal in a networked game),
- a simultaneous choice revealed (the keep-3 choices, the cards shown to the Spies),
- another seat's decision (even one that seat took back afterwards: you saw it),
- the end of a phase (the collection, the income, a month's end and its scoring, the end of
  the game). Phase boundaries are also where networked peers compare state hashes, so no
  take-back ever crosses one.

Decision (the rule's reading here): a card you reveal yourself by playing it (a build, a
discard for the hand limit) does not stop you: you learned nothing, and the take-back puts
the card back in your hand. "I meant the other district" is the slip this is for.

Whether a step may be taken back is decided from the states before and after it
(`learned`), never from the event list, so it holds whatever events the engine emits.
Everything here is deterministic: peers that record the same steps and apply the same
take-backs hold identical stacks and restore identical states (identical state hashes).

    stack = UndoStack()
    events = stack.apply(game, command, seat)      # belfort.apply, recorded
    refusal = stack.refusal(seat)                  # None, or why seat may not take back
    step = stack.take_back(game, seat)             # restores game in place; the step undone
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .apply import apply as _apply
from .errors import BelfortError
from .state import KEEP, OVER, GameState

if TYPE_CHECKING:
    from .commands import Command, Event

# Namespaced refusal codes (the network layer may send them instead of text).
NOTHING = "undo/nothing"            # nothing has been played yet
OTHER_SEAT = "undo/other-seat"      # another seat has decided since
DRAWN = "undo/drawn"                # a card left the draw pile
TURNED_UP = "undo/turned-up"        # a card from the draw pile went face up to the pool
RESHUFFLED = "undo/reshuffled"      # the discards became a new draw pile
REVEALED = "undo/revealed"          # a card another seat held, or a hidden one, became public
KEPT = "undo/kept"                  # the keep-3 choices were revealed
PHASE = "undo/phase"                # the phase ended (collection, income, month, scoring)
GAME_OVER = "undo/game-over"


class UndoRefused(BelfortError):
    """A take-back the rule does not allow; `.refusal` says why. The state is unchanged."""

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(refusal.text())


@dataclass(frozen=True)
class Refusal:
    """Why a seat may not take back its last action: a code and what it means."""
    code: str
    seat: int | None = None      # OTHER_SEAT: who decided since
    round: int = 0               # PHASE: the month that ended

    def text(self, name: Callable[[int], str] | None = None) -> str:
        """The reason in words: 'Bo has played since'. `name(seat)` names a seat."""
        who = name(self.seat) if name is not None and self.seat is not None \
            else f"seat {self.seat}"
        return {
            NOTHING: "there is nothing of yours to take back",
            OTHER_SEAT: f"{who} has played since",
            DRAWN: "a card was drawn since",
            TURNED_UP: "a new card was turned up for the pool since",
            RESHUFFLED: "the discard pile was reshuffled since",
            REVEALED: "a card was revealed since",
            KEPT: "the kept cards were revealed since",
            PHASE: (f"month {self.round} is over" if self.round else "the phase is over"),
            GAME_OVER: "the game is over",
        }.get(self.code, self.code)


@dataclass(frozen=True)
class Step:
    """One recorded change. `before` is the state before it (never mutated); `final` is why
    it can never be taken back (None: its seat may take it back while it is the last step);
    `tag` is the caller's own reference (a game log's step number, for instance)."""
    seat: int | None             # None: a public reveal, nobody's decision
    command: Command | None
    before: GameState
    final: Refusal | None
    tag: object = None


def learned(before: GameState, after: GameState, seat: int) -> Refusal | None:
    """What became known between two states through `seat`'s own step, as a Refusal, or
    None when nothing did. Pure: reads the two states only."""
    if after.phase == OVER:
        return Refusal(GAME_OVER)
    if after.epoch != before.epoch:
        return Refusal(RESHUFFLED)
    if after.round != before.round or after.phase != before.phase:
        if before.phase == KEEP:
            return Refusal(KEPT)
        # A month's end (with its scoring), the collection, the income: a new phase.
        return Refusal(PHASE, round=before.round if after.round != before.round else 0)
    # (equal lists are the common case, a placement: the set arithmetic only when not)
    gone = set(before.draw) - set(after.draw) if before.draw != after.draw else ()
    if gone:
        return Refusal(TURNED_UP if gone & set(after.pool) else DRAWN)
    if after.reveal_queue:
        return Refusal(REVEALED)
    was_public = before.public
    if after.public == was_public:
        return None
    own = set(before.players[seat].hand) if seat is not None and 0 <= seat < before.n else ()
    for c, public in enumerate(after.public):
        if public and not (c < len(was_public) and was_public[c]) and c not in own:
            return Refusal(REVEALED)
    return None


class UndoStack:
    """The steps that may still be taken back, latest last.

    Only what a take-back can still reach is kept: a step that can never be taken back
    closes off everything before it, and so does another seat's decision.
    """

    def __init__(self) -> None:
        self.steps: list[Step] = []
        # seat -> why its steps no longer on the stack are out of reach
        self._closed: dict[int, Refusal | None] = {}

    def copy(self) -> UndoStack:
        other = UndoStack()
        other.steps = list(self.steps)          # Steps and their states are never mutated
        other._closed = dict(self._closed)
        return other

    def record(self, before: GameState, after: GameState, seat: int, command: Command,
               tag: int | None = None) -> Step:
        """Note a command `seat` gave: `before` is a copy of the state taken before it was
        applied (kept as it is), `after` the state now. Returns the Step."""
        step = Step(seat, command, before, learned(before, after, seat), tag)
        self._push(step)
        return step

    def record_reveal(self, before: GameState, tag: None = None) -> Step:
        """A public reveal (networked games: `belfort.reveal`) happened: nobody's decision,
        and nothing before it can be taken back."""
        step = Step(None, None, before, Refusal(REVEALED), tag)
        self._push(step)
        return step

    def apply(self, game: GameState, command: Command | str, seat: int | None = None,
              tag: int | None = None) -> list[Event]:
        """`belfort.apply` and record it; returns the events."""
        before = game.copy()
        events = _apply(game, command, seat)
        self.record(before, game, events[0][1], events[0][2], tag)
        return events

    def refusal(self, seat: int) -> Refusal | None:
        """None when `seat` may take back its last action now, else the Refusal: what
        happened first after that action."""
        if self.steps and self.steps[-1].seat == seat:
            return self.steps[-1].final
        return self._closed.get(seat, Refusal(NOTHING))

    def take_back(self, game: GameState, seat: int) -> Step:
        """Restore `game` (in place) to the state before `seat`'s last action; returns the
        Step taken back. Raises UndoRefused, changing nothing, when the rule forbids it."""
        why = self.refusal(seat)
        if why is not None:
            raise UndoRefused(why)
        step = self.steps.pop()
        restore(game, step.before)
        return step

    def last_tag(self) -> object:
        return self.steps[-1].tag if self.steps else None

    # --- inside -------------------------------------------------------------------------
    def _push(self, step: Step) -> None:
        """The stack only ever holds one seat's steps, back to its last final one. When
        another seat acts (or a card is revealed), the steps there are out of reach for
        good; their seat keeps the reason (the first thing that happened after them)."""
        if self.steps and self.steps[-1].seat != step.seat:
            top = self.steps[-1]
            if top.seat is not None:
                self._closed[top.seat] = top.final or (
                    step.final if step.seat is None else Refusal(OTHER_SEAT, seat=step.seat))
            self.steps = []
        if step.final is not None:
            self.steps = [step]          # what came before it is behind it
        else:
            self.steps.append(step)


def restore(game: GameState, snapshot: GameState) -> None:
    """Make `game` equal to `snapshot` in place (a copy of it: the snapshot stays intact),
    so everything holding `game` sees the restored state."""
    fresh = snapshot.copy()
    for name in GameState.__slots__:
        setattr(game, name, getattr(fresh, name))
    game.changed()


__all__ = ["UndoStack", "Step", "Refusal", "UndoRefused", "learned", "restore",
           "NOTHING", "OTHER_SEAT", "DRAWN", "TURNED_UP", "RESHUFFLED", "REVEALED", "KEPT", "PHASE",
           "GAME_OVER"]
