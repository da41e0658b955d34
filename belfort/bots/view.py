"""The one place a bot looks at a game: `own_view(state, seat)`.

It is `belfort.redact(state, seat)`, plus one repair: once the Spies' shown cards have been
revealed together (step spies-take), which card each seat showed is public, but `redact`
drops `spies_shown` in every step, leaving the spy with no legal `take`. We copy it back
only in that step, where every shown card is already public (apply.py `_show`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..hidden import redact
from ..state import STEP_SPIES_TAKE

if TYPE_CHECKING:
    from ..state import GameState


def own_view(state: GameState, seat: int) -> GameState:
    view = redact(state, seat)
    if state.step == STEP_SPIES_TAKE:
        view.spies_shown = dict(state.spies_shown)
        view.changed()
    return view
