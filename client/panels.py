"""Panels drawn over the board on request or when something happens: the scoring breakdown
(`score`, and at each scoring phase) and the players' tableaux (`tableau [PLAYER]`).

Pure functions from a seat view to render.Lines. The points of a scoring phase that happened
come from the engine's record in the view; only a scoring that has not happened yet (what
`score` shows as "if the scoring were now") is counted here, with the engine's own
`rank_points` and the ruleset's tables.
"""

from __future__ import annotations

from belfort.data import CARD_TYPE_ID, HAS_PLANK, PLANK_BEHIND_LOCK, SITE_DISTRICT, SITE_ID, \
    SITE_WEIGHT
from belfort.scoring import rank_points

from .render import Line
from .words import GUILD_TITLE, TITLE, Namer, kind_words, plural, season_of

CELL = 12          # one competitor's column: "12 =1st  7"
LABEL = 12


def ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def rank_labels(counts):
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


def competitors(view):
    return len(view["players"]) + len(view.get("non_players") or [])


def counts_now(view, rs):
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


def district_table(rs, n):
    table = rs.district_points
    if not (n >= rs.district_third_from or n == 2):
        table = table[:2]
    return table


def projected(view, rs):
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


def taxes_since_last(view):
    log = view.get("score_log") or []
    n = len(view["players"])
    before = [sum(r.get("taxes_lost", [0] * n)[s] for r in log) for s in range(n)]
    return [p["taxes_lost"] - b for p, b in zip(view["players"], before)]


def _cell(count, label, points, style=""):
    if not count:
        return (f"{'·':>3}".ljust(CELL), style)
    return (f"{count:>3} {label:<4} {points:>2} ".ljust(CELL), style)


def breakdown(view, namer, rs, record=None):
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
        head.add(namer.name(s)[:CELL - 1].ljust(CELL),
                 namer.style(s) + (" class:me" if s == namer.you else ""))
    out.append(head)
    if exact:
        out.append(Line(("".ljust(LABEL), "class:dim"),
                        (f"{'n':>3} {'rank':<4} {'VP':>2} ".ljust(CELL) * comp, "class:dim")))

    def row(label, counts, points, style=""):
        labels = rank_labels(counts)
        line = Line((label[:LABEL - 1].ljust(LABEL), "class:th"))
        for s in range(comp):
            pts = points[s] if s < n else "–"
            if not exact:
                line.add(f"{pts:>10}  ", namer.style(s))
                continue
            line.add(*_cell(counts[s], labels[s] or "", pts if counts[s] else "",
                            namer.style(s) if counts[s] else "class:free"))
        return line

    for d in range(5):
        guild = GUILD_TITLE[view["guilds"][d]["guild"]]
        out.append(row(f"{d} {guild}", markers[d], rec["districts"][d]))
    out.append(row("Elves", elves, rec["elves"]))
    out.append(row("Dwarves", dwarves, rec["dwarves"]))
    out.append(row("Gnomes", gnomes + [0] * (comp - n), list(rec["gnomes"]) + ["–"] * (comp - n)))
    taxes = rec.get("taxes_lost") if record is not None else taxes_since_last(view)
    line = Line(("Taxes lost".ljust(LABEL), "class:th"))
    for s in range(comp):
        k = taxes[s] if s < n and taxes else 0
        text = (f"-{k} VP" if k else "none") if s < n else ""
        line.add(text.rjust(CELL - 2).ljust(CELL), "class:warn" if k else "class:dim")
    out.append(line)
    line = Line(("Scored" if record is not None else "Would score", "class:title"))
    line = Line((line.text().ljust(LABEL), "class:title"))
    for s in range(comp):
        line.add((f"+{rec['total'][s]} VP" if s < n else "–").rjust(CELL - 2).ljust(CELL),
                 namer.style(s))
    out.append(line)
    if record is None:
        line = Line(("VP now".ljust(LABEL), "class:th"))
        for s in range(comp):
            line.add((str(view["players"][s]["score"]) if s < n else "").rjust(CELL - 2)
                     .ljust(CELL))
        out.append(line)
    table = district_table(rs, n)
    out.append(Line((points_rule(rs, table, comp > n), "class:dim")))
    return out


def points_rule(rs, table, with_np):
    districts = ", ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(table))
    workers = ", ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(rs.worker_points))
    if with_np:
        return ("VP: each district (markers, a keep counts 2) {districts}; most elves, "
                "dwarves, gnomes (a master counts 1) {workers}. A tie (=) scores the next "
                "rank's points. Non-players take ranks, score nothing.").format(
                    districts=districts, workers=workers)
    return ("VP: each district (markers, a keep counts 2) {districts}; most elves, dwarves, "
            "gnomes (a master counts 1) {workers}. A tie (=) scores the next rank's points."
            ).format(districts=districts, workers=workers)


def score_lines(view, namer, rs, width=80, just=None):
    """The `score` panel: what a scoring phase would give now, what the past ones gave and
    the VP now. With `just` = a month: the breakdown of that month's scoring phase, shown
    when it happens."""
    from .render import wrap
    log = view.get("score_log") or []
    n = len(view["players"])
    if just is not None:
        rec = next((r for r in log if r.get("round") == just), None)
        if rec is None:
            return [Line(("No scoring happened after month {m}.".format(m=just), "class:dim"))]
        sr = view.get("scoring_rounds") or rs.scoring_rounds
        body = [Line(("Scoring after month {m} ({season})".format(
            m=just, season=season_of(just, sr)), "class:title"))]
        body += breakdown(view, namer, rs, rec)
    else:
        rnd = view.get("round") or 0
        body = [Line(("If the scoring were now (month {m}); 'help scoring' explains."
                      .format(m=rnd), "class:title"))]
        body += breakdown(view, namer, rs, None)
        before = Line(("Scored before".ljust(LABEL), "class:th"))
        for s in range(competitors(view)):
            if s < n:
                past = [r["total"][s] for r in log]
                text = "+".join(map(str, past)) if past else "0"
            else:
                text = ""
            before.add(text[:CELL - 2].rjust(CELL - 2).ljust(CELL))
        at = next(i for i, ln in enumerate(body) if ln.text().startswith("VP now"))
        body.insert(at, before)
    out = []
    for ln in body:
        if ln.width() > width and len(ln.frags) == 1:
            out += wrap(ln.text(), width, ln.frags[0][0])
        else:
            out.append(ln)
    return out


# --- tableaux ----------------------------------------------------------------------------

def plank_text(b, namer, rs):
    t = b["type"]
    if CARD_TYPE_ID[t] not in HAS_PLANK:
        return "no plank"
    occ = b.get("plank")
    if occ:
        who = "your" if occ["seat"] == namer.you else "{name}'s".format(
            name=namer.name(occ["seat"]))
        return "plank used: {who} {worker}".format(who=who, worker=kind_words(occ["worker"])
                                                   .split(" ", 1)[1])
    if CARD_TYPE_ID[t] in PLANK_BEHIND_LOCK:
        if not b["gnomes"]:
            return "plank behind the gnome lock"
        return "plank free ({fee} gold)".format(fee=rs.fee_property_plank)
    return "plank free"


def lock_text(b):
    locks = b["locks"]          # the ruleset's locks for this card (public_view)
    if not locks:
        return "no lock"
    return "gnomes {filled}/{locks}".format(filled=b["gnomes"], locks=locks)


def tableau_lines(view, namer, rs, seats=None, width=80):
    """Each player's built cards: type, gnome locks filled, whether the plank is used (and
    by whom), the card's income; then the markers on the board."""
    from .render import markers_by_district, wrap
    out = []
    comp = competitors(view)
    markers = markers_by_district(view, comp)
    seats = list(range(len(view["players"]))) if seats is None else seats
    for s in seats:
        p = view["players"][s]
        you = " (you)" if s == namer.you and p["name"].lower() != "you" else ""
        title = Line((f"{namer.letter(s)} {p['name']}{you}", namer.style(s)),
                     (" — {cards}, {gnomes}, {vp} VP".format(
                         cards=plural(len(p["built"]), "built card"),
                         gnomes=plural(p["gnomes"], "gnome"), vp=p["score"]), "class:dim"))
        out.append(title)
        if not p["built"]:
            out.append(Line(("   nothing built yet", "class:dim")))
        for b in p["built"]:
            income = rs.card_income[CARD_TYPE_ID[b["type"]]]
            text = "   #{card:<3} {name:<11}{locks:<13}{plank}".format(
                card=b["card"], name=TITLE[b["type"]], locks=lock_text(b),
                plank=plank_text(b, namer, rs))
            if income:
                text += " · income {n}".format(n=income)
            out += wrap(text, width)
        where = [f"district {d}: {markers[d][s]}" for d in range(5) if markers[d][s]]
        out += wrap("   markers — " + (", ".join(where) if where else "none"), width,
                    "class:dim")
        out.append(Line())
    return out[:-1] if out else out
