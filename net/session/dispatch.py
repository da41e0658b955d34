"""The table of message types: which part handles each, and when a message is ready.

Parts register themselves when the session is built (``SessionParts.__init__``)::

    table.on("sess/cmd", commands.on_cmd, ready=commands.ready)
    table.on("deck/", ...)                 # a prefix: every deck/* type
    table.on_control("ctl/hb", liveness.on_heartbeat)   # several parts may share one

A sequenced handler is ``handler(body, now) -> Out`` (it may raise ``Refused``); its
``ready(body) -> bool`` says whether the message can be processed yet (else it waits at
the head of its seat's queue); ``after_stop=True`` keeps it processed once the game has
stopped (the desync report).  A control handler is ``handler(seat, body, now) -> Out``.
Adding a message type is one ``on`` call in the part that owns it: nobody else's file
changes.
"""

from __future__ import annotations

from collections.abc import Callable


def _always(body: dict) -> bool:
    return True


class Dispatcher:
    def __init__(self) -> None:
        self._exact: dict[str, tuple[Callable, Callable]] = {}
        self._prefix: list[tuple[str, tuple[Callable, Callable]]] = []
        self._control: dict[str, list[Callable]] = {}
        self._after_stop: set[str] = set()

    def on(self, type_: str, handler: Callable, ready: Callable | None = None,
           after_stop: bool = False) -> None:
        """Route a sequenced type (or every type starting with ``type_`` if it ends in '/')."""
        entry = (handler, ready or _always)
        if after_stop:
            self._after_stop.add(type_)
        if type_.endswith("/"):
            if any(p == type_ for p, _ in self._prefix):
                raise ValueError(f"{type_!r} is already routed")
            self._prefix.append((type_, entry))
        else:
            if type_ in self._exact:
                raise ValueError(f"{type_!r} is already routed")
            self._exact[type_] = entry

    def on_control(self, type_: str, handler: Callable) -> None:
        """Add a handler of an unsequenced control type (called in registration order)."""
        self._control.setdefault(type_, []).append(handler)

    def route(self, type_: str) -> tuple[Callable, Callable] | None:
        entry = self._exact.get(type_)
        if entry is not None:
            return entry
        for prefix, entry in self._prefix:
            if type_.startswith(prefix):
                return entry
        return None

    def ready(self, body: dict) -> bool:
        entry = self.route(body["type"])
        return True if entry is None else entry[1](body)

    def after_stop(self, type_: str) -> bool:
        return type_ in self._after_stop

    def control(self, type_: str) -> list[Callable]:
        return self._control.get(type_, [])
