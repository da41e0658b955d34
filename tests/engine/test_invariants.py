"""The engine's invariants in one place: `GameState.changed()` is the one way to drop what
is derived from a state (the legal-list cache), and resources are indexed by name."""

import pathlib
import re

from belfort import apply, legal_commands, new_game
from belfort.data import DESK, GOLD, METAL, RESOURCES, STONE, WOOD

BELFORT = pathlib.Path(__file__).resolve().parents[2] / "belfort"


def test_the_resource_indexes_name_the_resources():
    assert [RESOURCES[i] for i in (WOOD, STONE, METAL, GOLD)] == list(RESOURCES)


def test_no_resource_is_indexed_by_a_bare_number():
    for path in BELFORT.rglob("*.py"):
        found = re.findall(r"\bres\[[0-3]\]", path.read_text())
        assert not found, (path.name, found)


def test_only_the_state_drops_its_cache_and_only_legal_fills_it():
    for path in BELFORT.rglob("*.py"):
        for line in path.read_text().splitlines():
            if re.search(r"\._legal\s*=", line):
                assert path.name == "state.py" or (
                    path.name == "legal.py" and "(state.version, seat, cmds)" in line), \
                    (path.name, line)


def test_changed_drops_the_cached_list_of_a_state_changed_by_hand():
    g = new_game(3, {"guilds": "normal"}, seed="changed")
    for seat in range(3):                             # the keep: into the first Placement
        apply(g, legal_commands(g, seat)[0], seat)
    seat = g.waiting_for()[0]

    def desk(cmds):
        return [c for c in cmds if c[0] == "place" and c[2] == DESK]
    before = legal_commands(g, seat)
    assert legal_commands(g, seat) is before          # cached for this version and seat
    assert desk(before)
    g.players[seat].res[GOLD] = 0                     # by hand: the desk's fee is now unpaid
    assert legal_commands(g, seat) is before          # (the cache cannot know)
    g.changed()
    after = legal_commands(g, seat)
    assert after is not before and not desk(after)
