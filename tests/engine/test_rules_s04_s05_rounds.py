"""§4 Round structure (7 rounds: Calendar, Placement, Collection, Actions, [NP turns in
2-player games], Scoring after rounds 3, 5, 7) and §5 Calendar (one month per round)."""

import pytest

from belfort import apply
from scenario import neutral, start


def phases_of_the_game(n):
    """(round, phase) each time either changes, over a whole neutral game."""
    g = start(n)
    seen = [(g.round, g.phase)]
    scorings = []
    while not g.is_over():
        seat = g.waiting_for()[0]
        events = apply(g, neutral(g, seat), seat)
        scorings += [(e[1], seen[-1][1]) for e in events if e[0] == "scoring"]
        if (g.round, g.phase) != seen[-1]:
            seen.append((g.round, g.phase))
    return seen, scorings


@pytest.mark.parametrize("n", [2, 3])
def test_s4_seven_rounds_each_placement_collection_actions(n):
    """§4: 7 rounds, each Placement → (Collection, King's camp) → Actions → [NP turns
    in a 2-player game] → Scoring after rounds 3, 5 and 7; §5: the calendar moves one
    month per round."""
    seen, scorings = phases_of_the_game(n)
    rounds = [r for r, _ in seen]
    assert rounds == sorted(rounds) and rounds[-1] == 7
    for r in range(1, 8):
        phases = [p for rr, p in seen if rr == r]
        want = ["placement", "actions"] + (["np-turn"] if n == 2 else [])
        assert phases[:len(want)] == want, (r, phases)
    assert seen[-1] == (7, "over")
    # the scoring phase follows the last phase of rounds 3, 5, 7 (NP turns in 2p)
    last = "np-turn" if n == 2 else "actions"
    assert scorings == [(3, last), (5, last), (7, last)]


def test_s5_calendar_advances_one_month_per_round():
    """§5: each round starts by advancing the calendar one month: 1, 2, … 7."""
    g = start(3)
    months = [g.round]
    while not g.is_over():
        seat = g.waiting_for()[0]
        before = g.round
        apply(g, neutral(g, seat), seat)
        if g.round != before:
            months.append(g.round)
    assert months == [1, 2, 3, 4, 5, 6, 7]
