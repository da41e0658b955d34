"""Scoring (§9, §10, §11)."""
from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from .data import DISTRICTS, N_SITES, NOBODY, SITE_DISTRICT, SITE_WEIGHT

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .state import GameState, Player, ScoreRecord


def rank_points(counts: list[int], table: tuple[int, ...]) -> list[int]:
    """§9.3: points per competitor for one category.

    Competitors with a count of at least 1 are grouped by equal count, highest first; a lone
    player takes the points of rank r (then r += 1), a tied group each takes the points of
    rank r+1 (then r += 2). Ranks past the table, and counts of 0, score nothing."""
    points = [0] * len(counts)
    r = 1
    for value in sorted(set(counts), reverse=True):
        if value <= 0:
            break   # (and every value after it)
        if counts.count(value) == 1:   # the usual case: searched for in C, not in a loop
            points[counts.index(value)] = table[r - 1] if r - 1 < len(table) else 0
            r += 1
        else:
            pts = table[r] if r < len(table) else 0
            for i, c in enumerate(counts):
                if c == value:
                    points[i] = pts
            r += 2
    return points


def district_markers(s: GameState) -> list[list[int]]:
    """Markers per district per competitor (players, then NP3 and NP4 in a 2-player game)."""
    board = s.board
    competitors = range(s.competitors())
    counts = []
    for markers_of, heavy in _DISTRICT_SITES:
        markers = markers_of(board)
        row = [markers.count(q) for q in competitors]   # each symbol once (counted in C)
        for x, extra in heavy:   # a keep section counts for more than one
            if board[x] != NOBODY:
                row[board[x]] += extra
        counts.append(row)
    return counts


# For each district: a getter of the markers on its symbols (gatehouse halves included), and
# (site, weight - 1) of its symbols that count for more than one marker.
_DISTRICT_SITES = tuple(
    (itemgetter(*[x for x in range(N_SITES) if SITE_DISTRICT[x] == d]),
     tuple((x, SITE_WEIGHT[x] - 1) for x in range(N_SITES)
           if SITE_DISTRICT[x] == d and SITE_WEIGHT[x] > 1))
    for d in range(DISTRICTS))


def gnome_count(s: GameState, seat: int) -> int:
    gnomes = s.gnomes
    count = 0
    for c in s.players[seat].built:
        count += gnomes.get(c, 0)
    return count


def score_phase(s: GameState) -> ScoreRecord:
    """§10: districts (§9.1), then elves, dwarves and gnomes (§9.2). NPs take places but
    their points are thrown away (§12)."""
    rs = s.rs
    n = s.n
    table = rs.district_points
    if not (n >= rs.district_third_from or n == 2):
        table = table[:2]
    districts = []
    for counts in district_markers(s):
        districts.append(rank_points(counts, table)[:n])
    np_count = s.competitors() - n
    elves = [p.elves for p in s.players] + [rs.np_elves] * np_count
    dwarves = [p.dwarves for p in s.players] + [rs.np_dwarves] * np_count
    gnomes = [gnome_count(s, seat) for seat in range(n)]
    elf_pts = rank_points(elves, rs.worker_points)[:n]
    dwarf_pts = rank_points(dwarves, rs.worker_points)[:n]
    gnome_pts = rank_points(gnomes, rs.worker_points)
    total = [elf_pts[seat] + dwarf_pts[seat] + gnome_pts[seat] for seat in range(n)]
    for d in districts:
        for seat in range(n):
            total[seat] += d[seat]
    return {"round": s.round, "districts": districts, "elves": elf_pts, "dwarves": dwarf_pts,
            "gnomes": gnome_pts, "total": total}


def tiebreak_value(p: Player, rs: Ruleset | None = None) -> int:
    """§11: the player's resources counted by the ruleset's tie-break weights (standard:
    wood + stone + gold + 2 × metal). `rs` defaults to the standard ruleset."""
    if rs is None:
        from .ruleset import standard_ruleset
        rs = standard_ruleset()
    return sum(n * k for n, k in zip(p.res, rs.tiebreak))


def final_result(s: GameState) -> dict[str, list[int] | bool]:
    best = max(p.score for p in s.players)
    tied = [seat for seat, p in enumerate(s.players) if p.score == best]
    if len(tied) == 1:
        return {"winners": tied, "tie_break": False}
    top = max(tiebreak_value(s.players[seat], s.rs) for seat in tied)
    winners = [seat for seat in tied if tiebreak_value(s.players[seat], s.rs) == top]
    return {"winners": winners, "tie_break": True}

