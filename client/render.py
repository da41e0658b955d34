"""Drawing the table from a seat view: pure functions from (view, context, size) to lines of
prompt_toolkit style fragments. Nothing here changes the game; the same lines are used by the
full-screen window, the tests, and (as plain text) by `--plain` and `replay`.

Two layouts: compact (fits 80×24) and wide (from 120 columns and 34 rows: the log moves to a
column of its own and the players' built cards are shown in full).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from belfort.data import CARD_TYPES, GUILDS

from .words import GUILD_TITLE, SHORT, TITLE, Namer, cost_text, next_scoring, season_of

SINGLE = ("pub", "gardens", "tower", "inn", "blacksmith", "bank", "market", "library")
HEAD_SHORT = {"pub": "Pub", "gardens": "Gdn", "tower": "Twr", "inn": "Inn",
              "blacksmith": "Smt", "bank": "Bnk", "market": "Mkt", "library": "Lib"}
WIDE_HEAD = {"pub": "Pub", "gardens": "Gardens", "tower": "Tower", "inn": "Inn",
             "blacksmith": "Smith", "bank": "Bank", "market": "Market", "library": "Library"}
KIND_LETTER = {"elf": "e", "master-elf": "E", "dwarf": "d", "master-dwarf": "D"}


class Line:
    """A line of (style, text) fragments with its width."""

    __slots__ = ("frags",)

    def __init__(self, *frags):
        self.frags = []
        for f in frags:
            self.add(*f) if isinstance(f, tuple) else self.add(f)

    def add(self, text, style=""):
        if text:
            self.frags.append((style, text))
        return self

    def extend(self, other):
        self.frags.extend(other.frags)
        return self

    def width(self):
        return sum(len(t) for _, t in self.frags)

    def text(self):
        return "".join(t for _, t in self.frags)

    def fit(self, width):
        """Cut or pad to exactly `width` columns."""
        out, used = [], 0
        for style, text in self.frags:
            if used + len(text) > width:
                text = text[:max(0, width - used)]
                if text:
                    out.append((style, text))
                used = width
                break
            out.append((style, text))
            used += len(text)
        if used < width:
            out.append(("", " " * (width - used)))
        line = Line()
        line.frags = out
        return line


def wrap(text, width, style="", indent=""):
    """Word-wrap plain text into Lines, keeping explicit newlines and the spacing inside a
    line; a wrapped line hangs under the description column of a two-column line."""
    lines = []
    width = max(width, 10)
    for para in text.split("\n"):
        if not para.strip():
            lines.append(Line((indent, style)) if indent else Line())
            continue
        if len(indent) + len(para) <= width:
            lines.append(Line((indent + para, style)))
            continue
        lead = para[:len(para) - len(para.lstrip())]
        m = re.match(r"^(\s*\S.*?\s{2,})\S", para)
        hang = len(m.group(1)) if m and len(m.group(1)) <= width // 2 else len(lead) + 2
        for ln in textwrap.wrap(para, width, initial_indent=indent,
                                subsequent_indent=indent + " " * hang,
                                break_on_hyphens=False, drop_whitespace=True):
            lines.append(Line((ln, style)))
    return lines


@dataclass
class Context:
    """What the renderer needs besides the view."""
    namer: Namer
    ruleset: object
    log: list = field(default_factory=list)        # [(style, text)] oldest first
    log_scroll: int = 0                            # lines scrolled back from the newest
    peers: list = field(default_factory=list)
    alerts: list = field(default_factory=list)     # unseen Alert objects
    panel: tuple | None = None                     # (title, [Line]) shown instead of the board
    panel_scroll: int = 0
    turn_hint: str = ""
    choices: str = ""                              # 'place (12), pass' when it is our decision
    recent: object = None                          # recent.Recent: what others just changed

    def fresh(self, what, key):
        """Is `key` among the recent changes of kind `what` ('sites', 'cards', …)?"""
        return self.recent is not None and key in getattr(self.recent, what)


RECENT = " class:recent"


# --- helpers -------------------------------------------------------------------------------

def holder(line, ctx, seat, cell=1, free="·", fresh=False):
    nm = ctx.namer
    if seat is None or seat < 0:
        line.add(free.ljust(cell), "class:free")
    else:
        line.add(nm.letter(seat), nm.style(seat) + (RECENT if fresh else ""))
        line.add(" " * (cell - 1))
    return line


def occupant_text(ctx, occ):
    if not occ:
        return None
    return ctx.namer.letter(occ["seat"]) + KIND_LETTER.get(occ["worker"], "?")


def phase_title(view, rs):
    phase, step = view["phase"], view["step"]
    return {"keep": f"Setup: keep {rs.keep} cards", "np-setup": "Setup: non-player dwarves",
            "placement": "Placement", "camp": "King's camp", "actions": "Actions",
            "np-turn": "Non-player turns", "over": "Game over"}.get(phase, phase) + \
        ({"spread": " (spread)", "discard": " (discard)", "spies-show": " (Spies)",
          "spies-take": " (Spies)", "np-take": "", "np-mark": ""}.get(step, ""))


def markers_by_district(view, competitors):
    """Markers per district per competitor, read off the view's board (keep counts 2)."""
    counts = [[0] * competitors for _ in range(5)]
    for name, seat in view["board"].items():
        if seat < 0 or seat >= competitors:
            continue
        d = int(name.rsplit("@", 1)[1][0])
        counts[d][seat] += 2 if name.startswith("keep@") else 1
    return counts


# --- sections ------------------------------------------------------------------------------

def header(view, ctx, width):
    r = view["round"]
    sr = view["scoring_rounds"]
    line = Line((" BELFORT ", "class:brand"))
    if r:
        nxt = next_scoring(r, sr)
        line.add(f" Month {r}/{view['rounds']} {season_of(r, sr)}", "class:title")
        if nxt and view["phase"] != "over":
            line.add(f" (scoring after {nxt})" if width >= 100 else f" (scores {nxt})",
                     "class:dim")
    line.add(" │ ", "class:dim").add(phase_title(view, ctx.ruleset), "class:title")
    waiting = view["waiting_for"]
    if view["phase"] not in ("over", "keep") and waiting:
        cur = view["current"]
        you = ctx.namer.you
        if you in waiting:
            line.add(" · ", "class:dim").add("your decision", ctx.namer.style(you))
        elif view["phase"] == "np-turn":
            np = view["players"][cur]["name"] if cur is not None and cur >= 0 else "?"
            line.add(f" · {np} plays a non-player", "class:dim")
        else:
            who = waiting if len(waiting) > 1 else [cur]
            line.add(" · ", "class:dim")
            for i, s in enumerate(who):
                line.add(("," if i else "") + ctx.namer.name(s), ctx.namer.style(s))
            line.add(" to play", "class:dim")
    return [line.fit(width)]


def districts(view, ctx, width, wide):
    nm = ctx.namer
    board = view["board"]
    comp = nm.n + len(view.get("non_players", []))
    counts = markers_by_district(view, comp)
    cell = 4
    gw = 17 if wide else 16
    head = Line((" D ", "class:th"), ("Guild".ljust(gw), "class:th"))
    for t in SINGLE:
        head.add(WIDE_HEAD[t] + " " if wide else HEAD_SHORT[t].ljust(cell), "class:th")
    head.add(("Keep".ljust(5) if wide else "Kp".ljust(3)), "class:th")
    head.add("Walls ".ljust(7) if wide else "Wl ", "class:th")
    head.add("Gates".ljust(7) if wide else "Gt  ", "class:th")
    head.add("Markers", "class:th")
    lines = [head.fit(width)]
    for d in range(5):
        g = view["guilds"][d]
        line = Line((f" {d} ", "class:th"))
        name = GUILD_TITLE[g["guild"]]
        gl = Line((name[:10].ljust(10), "class:guild"), " ")
        holder(gl, ctx, g["owner"], fresh=ctx.fresh("sites", f"guild@{d}"))
        occ = occupant_text(ctx, g["plank"])
        if g.get("np_dwarf") is not None:
            gl.add(" " + nm.letter(g["np_dwarf"]) + "d", "class:np")
        elif occ:
            fresh = ctx.fresh("guilds", GUILDS.index(g["guild"]))
            gl.add(" ").add(occ, nm.style(g["plank"]["seat"]) + (RECENT if fresh else ""))
        line.extend(gl.fit(gw))
        def mark(site, cell=1):
            holder(line, ctx, board.get(site), cell, fresh=ctx.fresh("sites", site))
        for t in SINGLE:
            mark(f"{t}@{d}", len(WIDE_HEAD[t]) + 1 if wide else cell)
        mark(f"keep@{d}", 5 if wide else 3)
        mark(f"wall@{d}a")
        mark(f"wall@{d}b", 6 if wide else 2)
        # the district's two gatehouse symbols: gatehouse d-1 (shared with the district
        # before) and gatehouse d (shared with the next)
        mark(f"gate{(d - 1) % 5}@{d}")
        mark(f"gate{d}@{d}", 6 if wide else 3)
        first = True
        for seat, k in enumerate(counts[d]):
            if k:
                if not first:
                    line.add(" ")
                line.add(f"{nm.letter(seat)}{k}", nm.style(seat))
                first = False
        lines.append(line.fit(width))
    return lines


def collection(view, ctx, width, wide):
    nm = ctx.namer
    line = Line(("Desk ", "class:th"))
    for occ in view["recruiters_desk"]:
        t = occupant_text(ctx, occ)
        fresh = RECENT if occ and ctx.fresh("desk", occ["seat"]) else ""
        line.add(t or "··", (nm.style(occ["seat"]) + fresh) if occ else "class:free").add(" ")
    line.add("Camp ", "class:th")
    for i, occ in enumerate(view["kings_camp"], start=1):
        t = occupant_text(ctx, occ)
        fresh = RECENT if occ and ctx.fresh("camp", occ["seat"]) else ""
        line.add(f"{i}:", "class:dim").add(t or "··", (nm.style(occ["seat"]) + fresh) if occ
                                           else "class:free").add(" ")
    down = view.get("crests_face_down") or []
    if down:
        line.add(f"(crest{'s' if len(down) > 1 else ''} {','.join(map(str, down))} down) ",
                 "class:dim")
    areas = Line()
    for area in ("forest", "quarry", "mine", "gold"):
        areas.add("│ ", "class:dim").add(("Gold" if area == "gold" else area.capitalize())
                                          + " ", "class:th")
        any_here = False
        for p in view["players"]:
            here = p["areas"].get(area) or {}
            pieces = sum(here.values())
            if pieces:
                masters = here.get("master-elf", 0) + here.get("master-dwarf", 0)
                fresh = RECENT if ctx.fresh("areas", (p["seat"], area)) else ""
                areas.add(f"{nm.letter(p['seat'])}{pieces}" +
                          (f"({masters}M)" if masters else ""), nm.style(p["seat"]) + fresh)
                areas.add(" ")
                any_here = True
        if not any_here:
            areas.add("· ", "class:free")
    if not any(sum((p["areas"].get(a) or {}).values()) for p in view["players"]
               for a in ("forest", "quarry", "mine", "gold")):
        areas = Line(("│ ", "class:dim"), ("Resource areas ", "class:th"), ("empty", "class:free"))
    if line.width() + areas.width() <= width:
        line.extend(areas)
        lines = [line]
    else:
        areas.frags[0] = ("class:dim", "Areas ")
        lines = [line, areas]
    if wide:
        lines.append(Line(("Gnome supply ", "class:th"), (str(view["gnome_supply"]) + "  ", ""),
                          ("Crests: ", "class:th"),
                          (" ".join(f"{p['crest']}={nm.letter(p['seat'])}" for p in
                                    sorted(view["players"], key=lambda p: p["crest"])), "")))
    return [ln.fit(width) for ln in lines]


def built_text(b, wide):
    t = b["type"]
    locks = b["locks"]          # the ruleset's locks for this card (public_view)
    name = TITLE[t] if wide else SHORT[t]
    lock = "g" * b["gnomes"] + "·" * (locks - b["gnomes"])
    occ = b.get("plank")
    on = (":" + KIND_LETTER.get(occ["worker"], "?")) if occ else ""
    return name + (f"[{lock}]" if locks else "") + on


def worker_text(n, masters):
    return f"{n}({masters})" if masters else str(n)


def players(view, ctx, width, wide):
    nm = ctx.namer
    peers = {p["seat"]: p for p in ctx.peers}
    nw = 8 if wide else 6
    head = Line(("  ", "class:th"), ("Player".ljust(nw + 2), "class:th"),
                ("Cr VP Tx  Wd St Mt Gd  Elf  Dwf  Gn Hd ", "class:th"),
                ("Built ([g] gnome on a lock, :e worker on its plank)" if wide else "Built",
                 "class:th"))
    lines = [head.fit(width)]
    active = set(view["waiting_for"])
    for p in view["players"]:
        s = p["seat"]
        mark = "▶" if (s in active) else " "
        line = Line((mark, "class:turn"), (nm.letter(s) + " ", nm.style(s)))
        name = p["name"][:nw]
        line.add(name.ljust(nw + 1), nm.style(s) + (" class:me" if s == nm.you else ""))
        line.add(f"{p['crest']:>2} {p['score']:>2} {p['tax']:>2}  "
                 f"{p['wood']:>2} {p['stone']:>2} {p['metal']:>2} {p['gold']:>2}  ")
        line.add(worker_text(p["elves"], p["master_elves"]).ljust(5))
        line.add(worker_text(p["dwarves"], p["master_dwarves"]).ljust(5))
        line.add(f"{p['gnomes']:>2} {p['hand_size']:>2} ")
        status = []
        peer = peers.get(s)
        if peer and peer["state"] in ("thinking", "disconnected", "left", "connected"):
            if peer["state"] != "connected":
                status.append((peer["state"], "class:warn" if peer["state"] != "thinking"
                               else "class:dim"))
        if view["phase"] == "keep":
            status.append(("chosen" if s in (view.get("keep_submitted") or []) else "choosing",
                           "class:dim"))
        for c, t in sorted((p.get("hand_revealed") or {}).items()):
            shows = view["step"] == "spies-take"
            if s == nm.you or not (shows or wide):
                continue
            status.append((f"{'shows' if shows else 'has'} #{c} {TITLE.get(t, t)}",
                           "class:warn" if shows else "class:dim"))
        if view["phase"] == "placement":
            if p["passed"]:
                status.append(("passed", "class:dim"))
            elif p["unplaced"]:
                u = p["unplaced"]
                e = u.get("elf", 0) + u.get("master-elf", 0)
                dw = u.get("dwarf", 0) + u.get("master-dwarf", 0)
                status.append((f"{e}e {dw}d left", "class:dim"))
        if p["waiting"] and view["phase"] == "actions":
            status.append((f"to activate: {' '.join(p['waiting'])}" if wide else
                           f"{len(p['waiting'])} to activate", "class:warn"))
        built = [(built_text(b, wide), RECENT.strip() if ctx.fresh("cards", b["card"]) else "")
                 for b in p["built"]]
        stat = Line()
        for text, style in status:
            stat.add("[" + text + "] ", style)
        rest = Line()
        for text, style in built:
            rest.add(text, style).add(" ")
        rest.extend(stat)
        if not p["built"] and not status:
            rest.add("—", "class:dim")
        avail = width - line.width()
        if rest.width() <= avail:
            lines.append(line.extend(rest).fit(width))
        elif wide:
            # the wide layout never hides a built card: it continues on the next lines
            indent = line.width()
            cur = line
            for text, style in built + [(f"[{t}]", st) for t, st in status]:
                if cur.width() + len(text) > width and cur.width() > indent:
                    lines.append(cur.fit(width))
                    cur = Line(" " * indent)
                cur.add(text, style).add(" ")
            lines.append(cur.fit(width))
        else:
            # keep the status visible; shorten the built list ('tableau' shows them all)
            bl = Line()
            shown = 0
            for text, style in built:
                if bl.width() + len(text) + 1 + stat.width() + 4 > avail:
                    break
                bl.add(text, style).add(" ")
                shown += 1
            if shown < len(built):
                bl.add(f"+{len(built) - shown} ", "class:dim")
            lines.append(line.extend(bl.extend(stat)).fit(width))
    if view.get("non_players"):
        np_line = Line("  ")
        for i, npn in enumerate(view["non_players"]):
            np_line.add(f"{nm.letter(nm.n + i)} {npn}", "class:np").add(
                f": crest {i + 3}, played by crest {i + 1}'s holder   ", "class:dim")
        lines.append(np_line.fit(width))
    return lines


def hand_and_piles(view, ctx, width, wide):
    rs = ctx.ruleset
    out = []
    hand = view.get("hand", [])
    line = Line(("Your hand ", "class:th"))
    if not hand:
        line.add("(empty)", "class:dim")
    for h in hand:
        t = h["type"]
        piece = Line((f"#{h['card']} ", "class:dim"))
        if t:
            piece.add(TITLE[t], "class:card")
            piece.add(f" {cost_text(rs.card_cost[CARD_TYPES.index(t)], short=True)}",
                      "class:dim")
        else:
            piece.add("?", "class:dim")
        piece.add("  ")
        if line.width() + piece.width() > width:
            out.append(line.fit(width))
            line = Line("          ")
        line.extend(piece)
    mine = view.get("my_keep")
    if mine:
        line.add(f"(kept {' '.join('#%d' % c for c in mine[0])})", "class:dim")
    out.append(line.fit(width))
    line = Line(("Pool ", "class:th"))
    for c in view["pool"]:
        line.add(f"#{c['card']} ", "class:dim").add(TITLE.get(c["type"], "?") + "  ", "class:card")
    if not view["pool"]:
        line.add("(empty)  ", "class:dim")
    disc = view["discard"]
    line.add("│ ", "class:dim").add("Discards ", "class:th").add(str(len(disc)))
    if disc and disc[-1].get("type"):
        line.add(f" (top {TITLE[disc[-1]['type']]})", "class:dim")
    line.add(" │ ", "class:dim").add("Draw ", "class:th").add(str(view["draw_size"]))
    if not wide:
        line.add(" │ ", "class:dim").add("Gnomes ", "class:th").add(str(view["gnome_supply"]))
    npc = view.get("np_card")
    npl = Line()
    if npc:
        npl.add(" │ ", "class:dim").add("NP card ", "class:th").add(
            f"#{npc['card']} {TITLE.get(npc['type'], '?')}")
    line.extend(npl)
    if line.width() > width:
        line = Line(("Pool ", "class:th"))
        for c in view["pool"]:
            line.add(f"#{c['card']} ", "class:dim").add(SHORT.get(c["type"], "?") + " ",
                                                         "class:card")
        line.add("│ ", "class:dim").add("Disc ", "class:th").add(str(len(disc)))
        line.add(" │ ", "class:dim").add("Draw ", "class:th").add(str(view["draw_size"]))
        line.add(" │ ", "class:dim").add("Gnomes ", "class:th").add(str(view["gnome_supply"]))
        line.extend(npl)
    out.append(line.fit(width))
    if ctx.turn_hint:
        out.append(Line((ctx.turn_hint, "class:dim")).fit(width))
    return out


def log_lines(ctx, width, height):
    """The last `height` wrapped log lines (scrolled back by ctx.log_scroll)."""
    wrapped = []
    for style, text in ctx.log:
        wrapped += wrap(text, width, style)
    if not wrapped:
        wrapped = [Line(("The log of what happens appears here.", "class:dim"))]
    end = max(0, len(wrapped) - ctx.log_scroll)
    start = max(0, end - height)
    shown = wrapped[start:end]
    if ctx.log_scroll and shown:
        shown[-1] = Line((f"… {ctx.log_scroll} newer lines below (PgDn) …", "class:dim"))
    return [ln.fit(width) for ln in shown] + [Line().fit(width)] * (height - len(shown))


def alert_lines(ctx, width):
    out = []
    for a in ctx.alerts:
        label = {"desync": "DESYNC", "cheat": "CHEAT CAUGHT", "disconnect": "DISCONNECTED",
                 "reconnect": "BACK", "error": "ERROR", "info": "NOTE"}.get(a.kind, a.kind.upper())
        for i, ln in enumerate(wrap(f"⚠ {label}: {a.text}  (Esc to dismiss)", width)):
            out.append(Line((ln.text(), "class:alert")).fit(width))
    return out


def panel_lines(ctx, width, height):
    title, body = ctx.panel
    out = [Line((f" {title} ", "class:paneltitle"),
                ("  Esc: back to the board · PgUp/PgDn: scroll", "class:dim")).fit(width)]
    room = height - 1
    start = min(ctx.panel_scroll, max(0, len(body) - room))
    shown = body[start:start + room]
    out += [ln.fit(width) for ln in shown]
    if start + room < len(body) and out:
        out[-1] = Line((f"… {len(body) - start - room} more lines (PgDn) …", "class:dim")).fit(width)
    return out + [Line().fit(width)] * (height - len(out))


def screen(view, ctx, width, height):
    """The whole main area: exactly `height` Lines of exactly `width` columns."""
    width = max(width, 20)
    height = max(height, 3)
    wide = width >= 120 and height >= 34
    top = header(view, ctx, width) + alert_lines(ctx, width)
    if ctx.panel is not None:
        return (top + panel_lines(ctx, width, max(1, height - len(top))))[:height]
    if wide:
        log_w = max(36, width - 110)
        left_w = width - log_w - 1
        left = (districts(view, ctx, left_w, left_w >= 106) + [Line().fit(left_w)] +
                collection(view, ctx, left_w, True) + [Line().fit(left_w)] +
                players(view, ctx, left_w, True) + [Line().fit(left_w)] +
                hand_and_piles(view, ctx, left_w, True))
        body_h = height - len(top)
        if ctx.choices:
            left.append(Line().fit(left_w))
            left += [Line((ln.text(), "class:dim")).fit(left_w) for ln in
                     wrap("You can: " + ctx.choices + "  (? lists them, Tab completes)", left_w)]
        left = (left + [Line().fit(left_w)] * body_h)[:body_h]
        right = [Line((" Log ", "class:th")).fit(log_w)] + log_lines(ctx, log_w, body_h - 1)
        body = []
        for a, b in zip(left, right):
            ln = Line()
            ln.frags = a.frags + [("class:dim", "│")] + b.frags
            body.append(ln)
        return (top + body)[:height]
    body = (districts(view, ctx, width, False) + collection(view, ctx, width, False) +
            players(view, ctx, width, False) + hand_and_piles(view, ctx, width, False))
    room = height - len(top) - len(body) - 1
    if room < 2:
        # very small terminal: drop the collection line and player header first
        body = body[:height - len(top) - 3]
        room = height - len(top) - len(body) - 1
    sep = Line(("─ Log " + "─" * (width - 6), "class:dim")).fit(width)
    out = top + body + [sep] + log_lines(ctx, width, max(room, 0))
    return out[:height]


def as_text(lines):
    return "\n".join(ln.text().rstrip() for ln in lines)


def as_fragments(lines):
    out = []
    for i, ln in enumerate(lines):
        out.extend(ln.frags)
        if i < len(lines) - 1:
            out.append(("", "\n"))
    return out


# --- the end of the game -------------------------------------------------------------------

def final_lines(view, ctx, audit=None, width=80):
    """The final scoreboard: each scoring phase's breakdown, taxes lost, tie-break, audit."""
    nm = ctx.namer
    n = nm.n
    res = view.get("result") or {}
    winners = res.get("winners", [])
    out = []
    ranked = sorted(view["players"], key=lambda p: -p["score"])
    top = Line(("Final scores: ", "class:title"))
    for i, p in enumerate(ranked):
        if i:
            top.add(" · ", "class:dim")
        top.add(f"{p['name']} {p['score']}", nm.style(p["seat"]))
        if p["seat"] in winners:
            top.add(" ★ wins", "class:ok")
    out += wrap(top.text(), width) if top.width() > width else [top]
    out.append(Line(("Month  Player    " + "".join(f"{'D' + str(d):>4}" for d in range(5)) +
                     "  Elf  Dwf  Gn  Total  Tax", "class:th")))
    for rec in view.get("score_log", []):
        for s in range(n):
            row = "".join(f"{rec['districts'][d][s]:>4}" for d in range(5))
            out.append(Line((f"{rec['round']:>4}   " if s == 0 else "       ", "class:th"),
                            (nm.name(s)[:9].ljust(10), nm.style(s)), row,
                            f"  {rec['elves'][s]:>3}  {rec['dwarves'][s]:>3} "
                            f"{rec['gnomes'][s]:>3}  {rec['total'][s]:>5}"
                            f"  {-rec.get('taxes_lost', [0] * n)[s]:>3}"))
    taxes = [(p["name"], p["taxes_lost"]) for p in view["players"] if p["taxes_lost"]]
    line = Line(("Taxes lost (VP): ", "class:th"),
                ", ".join(f"{name} {k}" for name, k in taxes) if taxes else "none")
    if res.get("tie_break"):
        out.append(line)
        best = max(p["score"] for p in view["players"])
        tied = [p for p in view["players"] if p["score"] == best]
        vals = ", ".join(f"{p['name']} {p['wood'] + p['stone'] + p['gold'] + 2 * p['metal']}"
                         for p in tied)
        out.append(Line(("Tie-break (wood + stone + gold + 2 × metal): ", "class:th"), vals))
        if len(winners) > 1:
            out.append(Line("Still tied: the victory is shared."))
    else:
        out.append(line.add(" · ").add("Tie-break: ", "class:th").add("not needed"))
    if audit is not None:
        ok, text = audit
        out += [Line((ln.text(), "class:ok" if ok else "class:alert"))
                for ln in wrap(("Audit: PASSED. " if ok else "Audit: FAILED. ") + text, width)]
    return out
