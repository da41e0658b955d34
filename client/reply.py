"""What the Controller answers to typed input (`Reply`), and its kinds: shared by the
window, plain mode and the LAN commands (lancmds), which the Controller imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ReplyKind(StrEnum):
    """What an answer to typed input is, so the window and plain mode know how to show it.
    A StrEnum: the lancmds answers and the tests may still name a kind by its string."""
    OK = "ok"             # a command was given: its text says what was done
    ERROR = "error"       # refused or not understood: why
    INFO = "info"         # a message (the prompt, said to the table, …)
    PANEL = "panel"       # `title` and `lines` to show in a panel
    QUIT = "quit"         # the person wants to leave
    UNDO = "undo"         # our last action was taken back
    NONE = "none"         # nothing to show (an empty line)
    LOG = "log"           # show the whole log


@dataclass
class Reply:
    kind: ReplyKind
    text: str = ""
    title: str = ""
    lines: list[Any] = field(default_factory=list)   # for panels: plain text lines

    def __post_init__(self) -> None:
        self.kind = ReplyKind(self.kind)   # a kind given as its string; unknown: ValueError
