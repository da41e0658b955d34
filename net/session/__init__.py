"""The lockstep protocol of a networked game: the session (core.SessionPeer and its parts)
and the in-memory network.  It reads no clock, socket, file or terminal: the node
(net/node/) runs it over ZeroMQ with a log on disk, and the client (client/netdriver.py,
client/peer.py) shows it to a person.  Protocol, usage and the map of the parts:
docs/network.md."""

from net.alerts import Alert

from .config import PROTOCOL, GameConfig, Timing
from .core import SessionPeer

__all__ = ["PROTOCOL", "Alert", "GameConfig", "SessionPeer", "Timing"]
