"""Serialize a state to JSON text and back (the full state this engine holds)."""

import json

from .state import GameState


def to_json(state):
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))


def from_json(text, ruleset=None):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a saved Belfort state: {exc}") from None
    return GameState.from_dict(data, ruleset)
