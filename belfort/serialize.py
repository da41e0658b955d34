"""Serialize a state to JSON text and back (the full state this engine holds)."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .state import GameState

if TYPE_CHECKING:
    from .state import GameState


def to_json(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))


def from_json(text: str, ruleset: None = None) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a saved Belfort state: {exc}") from None
    return GameState.from_dict(data, ruleset)
