"""What every peer of one game agrees on after the lobby, and shared constants."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

from collections.abc import Iterable
from typing import TYPE_CHECKING

from net.crypto import wire

if TYPE_CHECKING:
    from belfort.ruleset import Ruleset

# A peer with another value is refused in the lobby (3: handoff objections carry evidence;
# 4: leaving for good, sess/leave and sess/end).
PROTOCOL = "belfort-lan/session/4"
COLOURS = ("red", "blue", "green", "yellow", "purple")


@dataclass
class Timing:
    heartbeat: float = 0.4         # seconds between heartbeats
    disconnected: float = 2.0      # no message for this long: shown as disconnected
    # silent this long: the seat stalls the game no longer — it may be handed to a bot
    # (3-5 players), or the game pauses (2 players, or every other seat away)
    timeout: float = 180.0
    catch_up: float = 3.0          # after a rejoin: wait this long for every peer's heartbeat
    # an automatic protocol step owed this long: withheld (waits.py)
    step_deadline: float = 15.0
    # present this long without a gap after a silence: the seat's stall clock is cleared
    # (a heartbeat now and then does not clear it: liveness.py)
    steady: float = 10.0


@dataclass
class GameConfig:
    """The final roster and options, identical on every peer (the lobby's `start`)."""
    game_id: str
    names: list
    keys: list               # Ed25519 public keys (32 bytes), seat order
    curve: list              # CurveZMQ public keys (z85 text), seat order
    endpoints: list          # each peer's mesh address, e.g. "tcp://127.0.0.1:40123"
    kinds: list              # "human" | "bot"
    colours: list
    options: dict            # new_game options: {"guilds": ...}
    ruleset_text: str | None  # None: the standard ruleset
    ruleset_sha: str
    lobby: str = ""          # the host's lobby address (rejoin may use it to find the game)
    protocol: str = PROTOCOL

    @property
    def n(self) -> int:
        return len(self.names)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> GameConfig:
        names = {f for f in cls.__dataclass_fields__}
        missing = [k for k in ("game_id", "names", "keys", "curve", "endpoints", "kinds",
                               "colours", "options", "ruleset_text", "ruleset_sha") if k not in d]
        if missing:
            raise ValueError(f"game config lacks {', '.join(missing)}")
        return cls(**{k: v for k, v in d.items() if k in names})

    def ruleset(self) -> Ruleset:
        import belfort
        if self.ruleset_text is None:
            return belfort.standard_ruleset()
        return belfort.parse_ruleset(self.ruleset_text)


def game_id_for(keys: Iterable[bytes], names: Iterable[str], options: dict, ruleset_sha: str,
                nonce: bytes) -> str:
    """The game id: a hash of the final roster, the options, the ruleset and a lobby nonce."""
    data = wire.pack(["belfort-lan/game/v1", list(keys), list(names), options, ruleset_sha, nonce])
    return hashlib.sha256(data).hexdigest()[:32]


def card_type(physical: int, cards_per_type: int) -> int:
    """The fixed public mapping of physical cards to types: card c is of type c // per.

    Physical cards are 0 .. per*10-1; the crypto deck of epoch 0 holds them in that
    order, so decrypting a position gives a physical card and so its type."""
    return physical // cards_per_type
