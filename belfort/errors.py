"""The engine's errors. Every one leaves the game state exactly as it was."""


class BelfortError(Exception):
    """Base class of every error the engine raises on purpose."""


class CommandSyntaxError(BelfortError, ValueError):
    """Command text (or a wire value) that does not parse as any command."""

    def __init__(self, text, reason):
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read command {text!r}: {reason}")


class IllegalCommandError(BelfortError, ValueError):
    """A well-formed command that the rules do not allow now; names the rule it breaks."""

    def __init__(self, command_text, seat, rule, reason, where=""):
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

    def __init__(self, field, reason):
        self.field = field
        self.reason = reason
        super().__init__(f"ruleset field {field!r}: {reason}")
