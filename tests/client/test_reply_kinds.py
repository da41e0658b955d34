"""Reply kinds are an enum: every answer of the Controller carries a ReplyKind, a kind given
as its string becomes the member, and a kind nobody shows is refused at once."""

import pytest

from client.controller import Controller
from client.reply import Reply, ReplyKind
from client_helpers import random_states, StateDriver


def test_a_kind_given_as_its_string_becomes_the_member():
    assert Reply("error", "x").kind is ReplyKind.ERROR
    assert Reply(ReplyKind.PANEL, title="t").kind is ReplyKind.PANEL
    assert ReplyKind.OK == "ok"          # a StrEnum: still compares with its text


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        Reply("shout", "?")


def test_every_answer_of_the_controller_has_an_enum_kind():
    game, seat = random_states(players=3, seed=4, limit=3)[2]
    ctl = Controller(StateDriver(game, seat, apply_commands=False))
    for text in ("", "?", "help", "score", "log", "tableau", "quit", "undo", "nonsense",
                 "place elf nowhere"):
        assert isinstance(ctl.handle(text).kind, ReplyKind), text
