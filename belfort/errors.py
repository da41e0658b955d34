"""The engine's errors. Every one leaves the game state exactly as it was."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


class BelfortError(Exception):
    """Base class of every error the engine raises on purpose."""


class CommandSyntaxError(BelfortError, ValueError):
    """Command text (or a wire value) that does not parse as any command."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read command {text!r}: {reason}")


class IllegalCommandError(BelfortError, ValueError):
    """A well-formed command that the rules do not allow now; names the rule it breaks."""

    def __init__(self, command_text: str, seat: int | None, rule: str, reason: str,
                 where: str = "") -> None:
        self.command = command_text
        self.seat = seat
        self.rule = rule
        self.reason = reason
        self.where = where
        who = f"seat {seat}" if seat is not None else "nobody"
        at = f" ({where})" if where else ""
        super().__init__(f"illegal command {command_text!r} by {who}{at}: {rule}: {reason}")


class RulesetError(BelfortError, ValueError):
    """A ruleset file that cannot be used; names the field at fault."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"ruleset field {field!r}: {reason}")
