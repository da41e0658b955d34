"""What a person should be told about the game's health: one type for the local game
(client/driver.py) and the networked one (net/session), so the window shows both alike.
Standard library only: the local game imports it without loading the session."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Alert:
    kind: str          # "desync" | "cheat" | "disconnect" | "reconnect" | "error" | "info"
    text: str
    seat: int | None = None
    when: float = field(default_factory=time.time)
    seen: bool = False
