"""§10 Scoring phase (after rounds 3, 5 and 7 only; districts then workers; points added to
the score track) and §11 End of game (most VP; tie-break wood + stone + gold + 2 × metal;
still tied: shared victory)."""

import pytest

from belfort import IllegalCommandError, apply, legal_commands
from belfort.scoring import final_result
from scenario import mark, set_res, set_workers, start, to_round


def test_s10_scoring_only_after_rounds_3_5_and_7():
    """§10 / Data: a scoring phase follows rounds 3, 5 and 7 and no others."""
    g = start(3)
    mark(g, 0, "pub@0")
    seen = []
    for r in range(2, 8):
        to_round(g, r)
        seen.append((r - 1, [rec["round"] for rec in g.score_log]))
    assert seen == [(1, []), (2, []), (3, [3]), (4, [3]), (5, [3, 5]), (6, [3, 5])]
    to_round(g, 99)
    assert [rec["round"] for rec in g.score_log] == [3, 5, 7]
    assert g.is_over()


def test_s10_each_scoring_adds_districts_and_workers_to_the_score():
    """§10: each scoring phase scores §9.1 for all five districts then §9.2 for elves,
    dwarves and gnomes, and the points move the score markers."""
    g = start(3)
    mark(g, 0, "pub@0", "pub@1")
    set_workers(g, 1, 4, 3)
    to_round(g, 4)
    rec = g.score_log[0]
    assert len(rec["districts"]) == 5
    # two districts (5 + 5); elves 3 vs 4 vs 3: seat 1 first, seats 0 and 2 tie for
    # second and drop to third (0); dwarves 3/3/3: all tied for first, each 1
    assert rec["total"] == [5 + 5 + 0 + 1, 3 + 1, 0 + 1]
    assert [p.score for p in g.players] == rec["total"]
    to_round(g, 6)
    assert [p.score for p in g.players] == [a + b for a, b in zip(
        g.score_log[0]["total"], g.score_log[1]["total"])]


def test_s10_the_game_ends_after_round_7_with_no_further_decisions():
    """§10 / §11: after round 7's scoring the game is over; nobody may act."""
    g = start(3)
    to_round(g, 99)
    assert g.is_over() and g.round == 7 and g.waiting_for() == []
    assert all(legal_commands(g, seat) == [] for seat in range(3))
    with pytest.raises(IllegalCommandError) as err:
        apply(g, "pass", 0)
    assert err.value.rule == "§11"


def last_round(scores, resources):
    """A 3-player game at round 7 where nothing more will be scored or collected: no
    markers, no workers, no cards; scores below the first tax level."""
    g = start(3)
    to_round(g, 7)
    for seat in range(3):
        set_workers(g, seat, 0, 0)
        g.players[seat].score = scores[seat]
        set_res(g, seat, *resources[seat])
    to_round(g, 99)
    assert g.is_over()
    assert [p.score for p in g.players] == list(scores)
    return g


def test_s11_most_vp_wins():
    """§11: most VP wins, whatever the resources."""
    g = last_round((5, 4, 3), ((0, 0, 0, 0), (9, 9, 9, 9), (0, 0, 0, 0)))
    assert g.result == {"winners": [0], "tie_break": False}


def test_s11_tie_break_counts_metal_twice():
    """§11: among the tied, most wood + stone + gold + 2 × metal wins: 2 metal (4) beats
    3 wood (3)."""
    g = last_round((4, 4, 5 - 5), ((0, 0, 2, 0), (3, 0, 0, 0), (9, 9, 9, 9)))
    assert g.result == {"winners": [0], "tie_break": True}


def test_s11_tie_break_counts_gold_and_stone():
    """§11: gold and stone count once each."""
    g = last_round((3, 3, 3), ((1, 1, 0, 1), (0, 0, 0, 2), (0, 2, 0, 0)))
    assert g.result == {"winners": [0], "tie_break": True}


def test_s11_still_tied_share_the_victory():
    """§11: still tied after the tie-break: they share the victory."""
    g = last_round((5, 5, 1), ((2, 0, 0, 0), (0, 0, 1, 0), (9, 9, 9, 9)))
    assert g.result == {"winners": [0, 1], "tie_break": True}


def test_s11_non_players_never_win():
    """§11 / §12: NPs never win, even with more district markers than anyone."""
    g = start(2)
    mark(g, 2, "pub@0", "pub@1", "pub@2", "pub@3", "pub@4")
    to_round(g, 99)
    assert set(g.result["winners"]) <= {0, 1}
    assert len(g.players) == 2


def test_s11_final_result_function():
    """§11 on the result function itself."""
    g = start(3)
    for seat, (score, r) in enumerate(((7, (0, 0, 0, 5)), (7, (1, 1, 1, 1)), (6, (9, 9, 9, 9)))):
        g.players[seat].score = score
        g.players[seat].res = list(r)
    assert final_result(g) == {"winners": [0, 1], "tie_break": True}   # 5 and 1+1+2+1
