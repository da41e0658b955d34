"""Networked games: the lockstep session (core), the in-memory network, the ZeroMQ
mesh, the lobby, the on-disk log and rejoin, and the client's driver.
Protocol and usage: docs/network.md."""

from .config import PROTOCOL, Alert, GameConfig, Timing
from .core import SessionPeer

__all__ = ["PROTOCOL", "Alert", "GameConfig", "SessionPeer", "Timing"]
