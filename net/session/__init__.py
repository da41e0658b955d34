"""Networked games: the lockstep session (core.SessionPeer and its parts), the in-memory
network, the ZeroMQ mesh, the lobby, the on-disk log and rejoin, and the client's driver.
Protocol, usage and the map of the parts: docs/network.md."""

from net.alerts import Alert

from .config import PROTOCOL, GameConfig, Timing
from .core import SessionPeer

__all__ = ["PROTOCOL", "Alert", "GameConfig", "SessionPeer", "Timing"]
