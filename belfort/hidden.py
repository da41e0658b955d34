"""One seat's knowledge of a game, and sampling what it does not know.

`redact(state, seat)` is the game as `seat` knows it: every card type that seat may not
know is erased, and other seats' undisclosed simultaneous choices are dropped. Bots decide
from this only, so they cannot peek. `determinize(state, rng)` fills the unknown types at
random, consistently with everything public (5 of each type), for search bots.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .data import CARD_TYPES, NOBODY
from .state import STEP_SPIES_TAKE

if TYPE_CHECKING:
    from .prng import Prng
    from .state import GameState


def known_to(state: GameState, seat: int) -> list[bool]:
    """Card ids whose type `seat` knows: public ones and its own hand."""
    own = set(state.players[seat].hand)
    return [state.public[c] or c in own for c in range(len(state.types))]


def redact(state: GameState, seat: int) -> GameState:
    r = state.copy()
    mask = known_to(state, seat)
    r.types = [t if mask[c] else None for c, t in enumerate(state.types)]
    r.hidden = True
    r.keep_choice = {q: v for q, v in state.keep_choice.items() if q == seat}
    # Shown cards stay private until all are in; once the spy chooses they are public.
    r.spies_shown = {q: v for q, v in state.spies_shown.items()
                     if q == seat or state.step == STEP_SPIES_TAKE}
    return r


def live_cards(state: GameState) -> list[int]:
    cards = list(state.draw) + list(state.pool) + list(state.discard)
    for p in state.players:
        cards += p.hand
        cards += p.built
    if state.np_card != NOBODY and state.np_card not in cards:
        cards.append(state.np_card)
    return cards


def determinize(state: GameState, rng: Prng) -> GameState:
    """A copy with every unknown live card given a type, drawn uniformly from the types
    still unaccounted for; reshuffles then follow the seeded stream (hidden=False)."""
    d = state.copy()
    cards = live_cards(d)
    per = d.rs.cards_per_type
    remaining = []
    for t in range(len(CARD_TYPES)):
        known = sum(1 for c in cards if d.types[c] == t)
        remaining += [t] * max(0, per - known)
    unknown = [c for c in cards if d.types[c] is None]
    rng.shuffle(remaining)
    types = d.types[:]
    for c, t in zip(unknown, remaining):
        types[c] = t
    d.types = types
    d.hidden = False
    d.reveal_queue = [c for c in d.reveal_queue if types[c] is None]
    d.changed()
    return d


__all__ = ["redact", "determinize", "known_to", "live_cards"]
