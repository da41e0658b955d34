"""GameDriver is complete: the window, plain mode and the Controller call every member
plainly (no getattr probing), so every driver — the local one and the test drivers — has
every member, and a local game answers the LAN-only ones as a table nobody else is at."""

import inspect
import pathlib
import re

from client.driver import GameDriver, LocalDriver, NO_STALL
from client_helpers import StateDriver, random_states
from lan_helpers import MemNetDriver

CLIENT = pathlib.Path(__file__).resolve().parents[2] / "client"


def protocol_members():
    # data: the annotated attributes, and the read-only ones (declared as properties, so a
    # driver may compute them)
    data = set(GameDriver.__annotations__) | {
        n for n, v in vars(GameDriver).items() if isinstance(v, property)}
    methods = {n for n, v in vars(GameDriver).items()
               if not n.startswith("_") and callable(v)}
    return data, methods


def assert_is_a_driver(driver):
    data, methods = protocol_members()
    assert isinstance(driver, GameDriver)
    for name in methods:
        mine = getattr(driver, name)
        assert callable(mine), name
        wanted = [p for p in inspect.signature(getattr(GameDriver, name)).parameters
                  if p != "self"]
        have = list(inspect.signature(mine).parameters)
        assert have[:len(wanted)] == wanted, (name, have, wanted)
        assert inspect.iscoroutinefunction(mine) == \
            inspect.iscoroutinefunction(getattr(GameDriver, name)), name
    for name in data:
        assert hasattr(driver, name) and not callable(getattr(driver, name)), name


def test_the_protocol_declares_what_the_client_uses():
    data, methods = protocol_members()
    used = set()
    for path in CLIENT.glob("*.py"):
        used |= set(re.findall(r"\bdriver\.([a-z_]+)\b", path.read_text())) - {"py"}
    # what the networked-only startup in main.py uses of a NetDriver is not the window's
    networked_only = {"start", "staying", "serve_end", "left_for_now", "log"}
    assert used - networked_only <= data | methods, used - networked_only - data - methods
    assert len(methods) >= 20


def test_the_local_driver_has_every_member_and_a_local_table_s_answers():
    driver = LocalDriver(["Ana", "Bo"], seed="proto", bot_level="random", pace=0)
    assert_is_a_driver(driver)
    assert driver.networked is False and driver.seed == "proto"
    assert (driver.waiting(), driver.handoff_candidates(), driver.chat_since(0)) == \
        ("", [], (0, []))
    assert driver.stall() == NO_STALL and driver.text_command("handoff 1") is None
    assert driver.past_events() == [] and driver.game_log is None
    driver.close()


def test_the_test_drivers_are_drivers_too():
    game, seat = random_states(players=3, seed=2, limit=2)[1]
    assert_is_a_driver(StateDriver(game, seat))
    lan = MemNetDriver(players=3, seed="proto")
    assert_is_a_driver(lan)
    assert lan.networked is True and lan.can_keep is False


def test_the_client_never_probes_its_driver():
    for path in CLIENT.glob("*.py"):
        text = path.read_text()
        assert not re.search(r"(getattr|hasattr)\((self\.)?driver\b", text), path.name
