"""How the peer carries out a part's ``Steps`` (effects.py): each step's Out before the
part takes the next, whether it held anything sent back, and what carrying it out raised
raised in the part at that step."""

from __future__ import annotations

import pytest

from net.session.effects import Out
from net.session.memnet import MemoryNetwork


def test_each_step_is_carried_out_before_the_next_and_its_failure_is_the_parts():
    peer = MemoryNetwork.create(2, seed="steps").peers[0]
    seen = []

    def steps():
        seen.append((yield Out().alert("info", "first")))
        seen.append(peer.alerts[-1].text)          # carried out before we go on
        seen.append((yield None))
        seen.append((yield Out()))
        try:
            yield Out(departs=[("not", "a departure")])     # carrying it out raises
        except ValueError:
            seen.append("raised here")
        return "done"

    assert peer._run(steps()) == "done"
    assert seen == [True, "first", False, False, "raised here"]


def test_what_a_part_does_not_catch_leaves_the_run():
    peer = MemoryNetwork.create(2, seed="steps2").peers[0]

    def steps():
        yield Out(departs=[("not", "a departure")])
        raise AssertionError("never reached")

    with pytest.raises(ValueError):
        peer._run(steps())
