"""Panels drawn over the board on request or when something happens: the scoring breakdown
(`score`, and at each scoring phase) and the players' tableaux (`tableau [PLAYER]`).

Pure functions from a seat view to render.Lines. The points of a scoring phase that happened
come from the engine's record in the view; only a scoring that has not happened yet (what
`score` shows as "if the scoring were now") is counted here, with the engine's own
`rank_points` and the ruleset's tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from belfort.data import CARD_TYPE_ID, HAS_PLANK, PLANK_BEHIND_LOCK, SITE_DISTRICT, SITE_ID, \
    SITE_WEIGHT
from belfort.scoring import rank_points

from .render import Line
from .i18n import _, fit, ngettext, pad, pgettext, term, truncate
from .words import GUILD_BRIEF, TITLE, Namer, season_of

if TYPE_CHECKING:
    from belfort.ruleset import Ruleset

CELL = 12          # one competitor's column: "12 =1st  7"
LABEL = 13         # "0 " and a guild's brief name (10 cells), then a space


def ordinal(n: int) -> str:
    # i18n: ranks in the scoring table, at most 4 cells with the "=" of a tie
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(n) or _("{n}th").format(n=n)


def rank_labels(counts: Sequence[int]) -> list[str]:
    """'1st', '=2nd' (tied), '' (a count of 0 takes no rank), in the engine's order of ranks:
    a lone competitor takes one rank, a tied group two (§9.3)."""
    labels = [""] * len(counts)
    r = 1
    for value in sorted({c for c in counts if c > 0}, reverse=True):
        members = [i for i, c in enumerate(counts) if c == value]
        for i in members:
            labels[i] = ("=" if len(members) > 1 else "") + ordinal(r)
        r += 1 if len(members) == 1 else 2
    return labels


def competitors(view: dict[str, Any]) -> int:
    return len(view["players"]) + len(view.get("non_players") or [])


def counts_now(view: dict[str, Any], rs: Ruleset
               ) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    """What a scoring phase counts, read off the view: markers per district per competitor,
    and elves, dwarves (NPs: the ruleset's numbers) and gnomes (players only) per seat."""
    n = len(view["players"])
    comp = competitors(view)
    markers = [[0] * comp for _ in range(5)]
    for name, seat in view["board"].items():
        if 0 <= seat < comp:
            site = SITE_ID[name]
            markers[SITE_DISTRICT[site]][seat] += SITE_WEIGHT[site]
    nps = comp - n
    elves = [p["elves"] for p in view["players"]] + [rs.np_elves] * nps
    dwarves = [p["dwarves"] for p in view["players"]] + [rs.np_dwarves] * nps
    gnomes = [p["gnomes"] for p in view["players"]]
    return markers, elves, dwarves, gnomes


def district_table(rs: Ruleset, n: int) -> tuple[int, ...]:
    table = rs.district_points
    if not (n >= rs.district_third_from or n == 2):
        table = table[:2]
    return table


def projected(view: dict[str, Any], rs: Ruleset) -> dict[str, list[Any]]:
    """The record a scoring phase would write now: {"districts", "elves", "dwarves",
    "gnomes", "total"} (points per player), like the engine's score_log records."""
    n = len(view["players"])
    markers, elves, dwarves, gnomes = counts_now(view, rs)
    table = district_table(rs, n)
    districts = [rank_points(m, table)[:n] for m in markers]
    e = rank_points(elves, rs.worker_points)[:n]
    d = rank_points(dwarves, rs.worker_points)[:n]
    g = rank_points(gnomes, rs.worker_points)
    total = [sum(x[s] for x in districts) + e[s] + d[s] + g[s] for s in range(n)]
    return {"districts": districts, "elves": e, "dwarves": d, "gnomes": g, "total": total}


def taxes_since_last(view: dict[str, Any]) -> list[int]:
    log = view.get("score_log") or []
    n = len(view["players"])
    before = [sum(r.get("taxes_lost", [0] * n)[s] for r in log) for s in range(n)]
    return [p["taxes_lost"] - b for p, b in zip(view["players"], before)]


def _cell(count, label, points, style=""):
    if not count:
        return (pad(f"{'·':>3}", CELL), style)
    return (fit(f"{count:>3} {pad(label, 4)} {points:>2} ", CELL), style)


def breakdown(view: dict[str, Any], namer: Namer, rs: Ruleset,
              record: Mapping[str, Any] | None = None) -> list[Line]:
    """Lines of one scoring phase: per district and for elves, dwarves and gnomes each
    competitor's count, rank and points; taxes lost since the previous phase; the totals.
    `record` is the engine's record of a phase that happened (its points are shown), None
    for what a scoring would give now."""
    n = len(view["players"])
    comp = competitors(view)
    now = projected(view, rs)
    rec = record if record is not None else now
    markers, elves, dwarves, gnomes = counts_now(view, rs)
    # The counts are read off the view; if it has moved on since that scoring, they would
    # not explain its points: then only the points are shown.
    exact = all(now[k] == rec[k] for k in ("districts", "elves", "dwarves", "gnomes"))
    out = []
    head = Line(("".ljust(LABEL), "class:th"))
    for s in range(comp):
        head.add(pad(truncate(namer.name(s), CELL - 1, ""), CELL),
                 namer.style(s) + (" class:me" if s == namer.you else ""))
    out.append(head)
    if exact:
        out.append(Line(("".ljust(LABEL), "class:dim"),
                        (fit("{n} {rank} {vp} ".format(
                            n=fit(pgettext("count", "n"), 3, ">", ""), rank=fit(_("rank"), 4),
                            vp=fit(_("VP"), 2, ">", "")), CELL) * comp, "class:dim")))

    def row(label, counts, points, style=""):
        labels = rank_labels(counts)
        line = Line((pad(truncate(label, LABEL - 1, ""), LABEL), "class:th"))
        for s in range(comp):
            pts = points[s] if s < n else "–"
            if not exact:
                line.add(f"{pts:>10}  ", namer.style(s))
                continue
            line.add(*_cell(counts[s], labels[s] or "", pts if counts[s] else "",
                            namer.style(s) if counts[s] else "class:free"))
        return line

    for d in range(5):
        guild = GUILD_BRIEF[view["guilds"][d]["guild"]]
        out.append(row(f"{d} {guild}", markers[d], rec["districts"][d]))
    out.append(row(_("Elves"), elves, rec["elves"]))
    out.append(row(_("Dwarves"), dwarves, rec["dwarves"]))
    out.append(row(_("Gnomes"), gnomes + [0] * (comp - n),
                   list(rec["gnomes"]) + ["–"] * (comp - n)))
    taxes = rec.get("taxes_lost") if record is not None else taxes_since_last(view)
    line = Line((fit(_("Taxes lost"), LABEL), "class:th"))
    for s in range(comp):
        k = taxes[s] if s < n and taxes else 0
        text = (_("-{n} VP").format(n=k) if k else _("none")) if s < n else ""
        line.add(pad(pad(text, CELL - 2, ">"), CELL), "class:warn" if k else "class:dim")
    out.append(line)
    label = _("Scored") if record is not None else _("Would score")
    line = Line((fit(label, LABEL), "class:title"))
    for s in range(comp):
        text = _("+{n} VP").format(n=rec["total"][s]) if s < n else "–"
        line.add(pad(pad(text, CELL - 2, ">"), CELL), namer.style(s))
    out.append(line)
    if record is None:
        line = Line((fit(_("VP now"), LABEL), "class:th"))
        for s in range(comp):
            line.add(pad(pad(str(view["players"][s]["score"]) if s < n else "", CELL - 2, ">"),
                         CELL))
        out.append(line)
    table = district_table(rs, n)
    out.append(Line((points_rule(rs, table, comp > n), "class:dim")))
    return out


def points_rule(rs: Ruleset, table: Sequence[int], with_np: bool) -> str:
    districts = ", ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(table))
    workers = ", ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(rs.worker_points))
    if with_np:
        return _("VP: each district (markers, a keep counts 2) {districts}; most elves, "
                 "dwarves, gnomes (a master counts 1) {workers}. A tie (=) scores the next "
                 "rank's points. Non-players take ranks, score nothing.").format(
                    districts=districts, workers=workers)
    return _("VP: each district (markers, a keep counts 2) {districts}; most elves, dwarves, "
             "gnomes (a master counts 1) {workers}. A tie (=) scores the next rank's points."
             ).format(districts=districts, workers=workers)


def score_lines(view: dict[str, Any], namer: Namer, rs: Ruleset, width: int = 80,
                just: int | None = None) -> list[Line]:
    """The `score` panel: what a scoring phase would give now, what the past ones gave and
    the VP now. With `just` = a month: the breakdown of that month's scoring phase, shown
    when it happens."""
    from .render import wrap
    log = view.get("score_log") or []
    n = len(view["players"])
    if just is not None:
        rec = next((r for r in log if r.get("round") == just), None)
        if rec is None:
            return [Line((_("No scoring happened after month {m}.").format(m=just), "class:dim"))]
        sr = view.get("scoring_rounds") or rs.scoring_rounds
        body = [Line((_("Scoring after month {m} ({season})").format(
            m=just, season=season_of(just, sr)), "class:title"))]
        body += breakdown(view, namer, rs, rec)
    else:
        rnd = view.get("round") or 0
        body = [Line((_("If the scoring were now (month {m}); 'help scoring' explains.")
                      .format(m=rnd), "class:title"))]
        body += breakdown(view, namer, rs, None)
        before = Line((fit(_("Scored before"), LABEL), "class:th"))
        for s in range(competitors(view)):
            if s < n:
                past = [r["total"][s] for r in log]
                text = "+".join(map(str, past)) if past else "0"
            else:
                text = ""
            before.add(pad(pad(truncate(text, CELL - 2, ""), CELL - 2, ">"), CELL))
        at = next(i for i, ln in enumerate(body) if ln.text().startswith(fit(_("VP now"),
                                                                               LABEL)))
        body.insert(at, before)
    out = []
    for ln in body:
        if ln.width() > width and len(ln.frags) == 1:
            out += wrap(ln.text(), width, ln.frags[0][0])
        else:
            out.append(ln)
    return out


# --- tableaux ----------------------------------------------------------------------------

def plank_text(b: dict[str, Any], namer: Namer, rs: Ruleset) -> str:
    t = b["type"]
    if CARD_TYPE_ID[t] not in HAS_PLANK:
        return _("no plank")
    occ = b.get("plank")
    if occ:
        worker = term("kind:" + occ["worker"].replace(" ", "-"))
        if occ["seat"] == namer.you:
            return _("plank used: your {worker}").format(worker=worker)
        return _("plank used: {name}'s {worker}").format(name=namer.name(occ["seat"]),
                                                         worker=worker)
    if CARD_TYPE_ID[t] in PLANK_BEHIND_LOCK:
        if not b["gnomes"]:
            return _("plank behind the gnome lock")
        return _("plank free ({fee} gold)").format(fee=rs.fee_property_plank)
    return _("plank free")


def lock_text(b: dict[str, Any]) -> str:
    locks = b["locks"]          # the ruleset's locks for this card (public_view)
    if not locks:
        return _("no lock")
    return _("gnomes {filled}/{locks}").format(filled=b["gnomes"], locks=locks)


def tableau_lines(view: dict[str, Any], namer: Namer, rs: Ruleset,
                  seats: Sequence[int] | None = None, width: int = 80) -> list[Line]:
    """Each player's built cards: type, gnome locks filled, whether the plank is used (and
    by whom), the card's income; then the markers on the board."""
    from .render import markers_by_district, wrap
    out = []
    comp = competitors(view)
    markers = markers_by_district(view, comp)
    seats = list(range(len(view["players"]))) if seats is None else seats
    for s in seats:
        p = view["players"][s]
        mine = s == namer.you and p["name"].lower() not in ("you", _("You").lower())
        you = _(" (you)") if mine else ""
        title = Line((f"{namer.letter(s)} {p['name']}{you}", namer.style(s)),
                     (" — " + _("{cards}, {gnomes}, {vp} VP").format(
                         cards=ngettext("{n} built card", "{n} built cards",
                                        len(p["built"])).format(n=len(p["built"])),
                         gnomes=ngettext("{n} gnome", "{n} gnomes",
                                         p["gnomes"]).format(n=p["gnomes"]),
                         vp=p["score"]), "class:dim"))
        out.append(title)
        if not p["built"]:
            out.append(Line(("   " + _("nothing built yet"), "class:dim")))
        for b in p["built"]:
            income = rs.card_income[CARD_TYPE_ID[b["type"]]]
            text = "   #{card:<3} {name}{locks}{plank}".format(
                card=b["card"], name=pad(TITLE[b["type"]], 11),
                locks=pad(lock_text(b), 13), plank=plank_text(b, namer, rs))
            if income:
                text += " · " + _("income {n}").format(n=income)
            out += wrap(text, width)
        where = [_("district {d}: {n}").format(d=d, n=markers[d][s])
                 for d in range(5) if markers[d][s]]
        out += wrap("   " + _("markers — {where}").format(
            where=", ".join(where) if where else _("none")), width, "class:dim")
        out.append(Line())
    return out[:-1] if out else out
