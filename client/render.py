"""Drawing the table from a seat view: pure functions from (view, context, size) to lines of
prompt_toolkit style fragments. Nothing here changes the game; the same lines are used by the
full-screen window, the tests, and (as plain text) by `--plain` and `replay`.

Two layouts: compact (fits 80×24) and wide (from 120 columns and 34 rows: the log moves to a
column of its own and the players' built cards are shown in full).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from belfort.data import CARD_TYPES, GUILDS

from .i18n import Lp_, N_, _, cell_width, fit, ngettext, pad, pgettext, truncate
from .i18n import wrap as wrap_cells
from .words import (GUILD_BRIEF, SHORT, TITLE, Namer, cost_text, next_scoring,
                    season_of)

if TYPE_CHECKING:
    from belfort.ruleset import Ruleset
    from net.alerts import Alert

    from .recent import Recent

SINGLE = ("pub", "gardens", "tower", "inn", "blacksmith", "bank", "market", "library")
# The wide layout's column of each card type: its width is fixed (the English heading's);
# translators choose a heading of at most that many cells (it is cut to fit otherwise).
# i18n: wide board headings: at most as many cells as the English word
WIDE_HEAD = {"pub": Lp_("board heading", "Pub"), "gardens": Lp_("board heading", "Gardens"),
             "tower": Lp_("board heading", "Tower"), "inn": Lp_("board heading", "Inn"),
             "blacksmith": Lp_("board heading", "Smith"),
             "bank": Lp_("board heading", "Bank"), "market": Lp_("board heading", "Market"),
             "library": Lp_("board heading", "Library")}


def wide_cell(t: str) -> int:
    """The wide layout's column of card type `t`: the English heading's width, or the active
    language's heading where it is longer (German Schmiede), so no heading is cut."""
    return max(len(WIDE_HEAD[t].message), cell_width(str(WIDE_HEAD[t])))
HEAD_SHORT = SHORT          # the compact layout's headings: the glossary's short forms
KINDS_SHOWN = ("elf", "master-elf", "dwarf", "master-dwarf")


def kind_letter(worker: str) -> str:
    """A worker on a plank, as the glossary's short form of its kind in the active language
    (French e/n, E/N; German e/z, E/Z; Korean 엘/드, 엘⁺/드⁺)."""
    from .i18n import term
    return term(f"kind:{worker}", "short") if worker in KINDS_SHOWN else "?"


def gnome_letter() -> str:
    """A gnome on a lock ('Twr[g]'): the glossary's short form of the gnome."""
    from .i18n import term
    return term("kind:gnome", "short")
AREA_HEAD = {"forest": N_("Forest"), "quarry": N_("Quarry"), "mine": N_("Mine"),
             "gold": N_("Gold")}
PEER_STATE = {"thinking": N_("thinking"), "disconnected": N_("disconnected"),
              "left": N_("left"), "connected": N_("connected"),
              "paused": N_("left for now")}     # (said it left; `belfort rejoin` brings it back)
ALERT_LABEL = {"desync": N_("DESYNC"), "cheat": N_("CHEAT CAUGHT"),
               "disconnect": N_("DISCONNECTED"), "reconnect": N_("BACK"), "error": N_("ERROR"),
               "info": N_("NOTE")}


def term_keep(form: str) -> str:
    from .i18n import term
    return term("card:keep", form)


def localize_plank(word: str) -> str:
    """A plank as the player types it ('miners', '#17', 'desk') in the active language."""
    from .i18n import active_language, localize_token
    return localize_token(word, active_language())


def alert_text(alert: Alert) -> str:
    """An alert's text in the active language: alerts with a code and values (from the
    networked session) are translated; others are shown as they are."""
    from .netmessages import alert_message
    return alert_message(alert)


class Line:
    """A line of (style, text) fragments with its width."""

    __slots__ = ("frags",)

    def __init__(self, *frags: str | tuple[str, str]) -> None:
        self.frags: list[tuple[str, str]] = []
        for f in frags:
            self.add(*f) if isinstance(f, tuple) else self.add(f)

    def add(self, text: str, style: str = "") -> Line:
        if text:
            self.frags.append((style, text))
        return self

    def extend(self, other: Line) -> Line:
        self.frags.extend(other.frags)
        return self

    def width(self) -> int:
        """Terminal cells (Korean syllables take two)."""
        return sum(cell_width(t) for _s, t in self.frags)

    def text(self) -> str:
        return "".join(t for _, t in self.frags)

    def fit(self, width: int) -> Line:
        """Cut or pad to exactly `width` columns."""
        out, used = [], 0
        for style, text in self.frags:
            w = cell_width(text)
            if used + w > width:
                text = truncate(text, max(0, width - used), "")
                if text:
                    out.append((style, text))
                used += cell_width(text)
                break
            out.append((style, text))
            used += w
        if used < width:
            out.append(("", " " * (width - used)))
        line = Line()
        line.frags = out
        return line


def wrap(text: str, width: int, style: str = "", indent: str = "") -> list[Line]:
    """Word-wrap plain text into Lines, keeping explicit newlines and the spacing inside a
    line; a wrapped line hangs under the description column of a two-column line."""
    lines: list[Line] = []
    width = max(width, 10)
    for para in text.split("\n"):
        if not para.strip():
            lines.append(Line((indent, style)) if indent else Line())
            continue
        if len(indent) + cell_width(para) <= width:
            lines.append(Line((indent + para, style)))
            continue
        if not para.isascii():
            # textwrap counts characters; wide (Korean) text is wrapped by cells
            for ln in wrap_cells(para, width - len(indent)):
                lines.append(Line((indent + ln, style)))
            continue
        lead = para[:len(para) - len(para.lstrip())]
        m = re.match(r"^(\s*\S.*?\s{2,})\S", para)
        hang = len(m.group(1)) if m and len(m.group(1)) <= width // 2 else len(lead) + 2
        for ln in textwrap.wrap(para, width, initial_indent=indent,
                                subsequent_indent=indent + " " * hang,
                                break_on_hyphens=False, drop_whitespace=True):
            lines.append(Line((ln, style)))
    return lines


def unbroken(text: str, width: int, style: str = "") -> list[Line]:
    """Text that must be read whole (a file's path to copy): split only where the line
    ends, after a '/' or a space when one is near, never cut off or indented."""
    width = max(width, 10)
    lines: list[Line] = []
    while cell_width(text) > width:
        cut = 0
        while cut < len(text) and cell_width(text[:cut + 1]) <= width:
            cut += 1
        soft = max(text.rfind("/", 0, cut), text.rfind(" ", 0, cut)) + 1
        if soft > cut // 2:
            cut = soft
        lines.append(Line((text[:cut], style)))
        text = text[cut:]
    return lines + [Line((text, style))]


@dataclass
class Context:
    """What the renderer needs besides the view."""
    namer: Namer
    ruleset: Ruleset
    log: list[tuple[str, str]] = field(default_factory=list)   # [(style, text)] oldest first
    log_scroll: int = 0                            # lines scrolled back from the newest
    peers: list[dict[str, Any]] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)     # unseen Alert objects
    panel: tuple[str, list[Any]] | None = None    # (title, lines) shown instead of the board
    panel_scroll: int = 0
    turn_hint: str = ""
    choices: str = ""                              # 'place (12), pass' when it is our decision
    recent: Recent | None = None                   # what others just changed

    def fresh(self, what: str, key: object) -> bool:
        """Is `key` among the recent changes of kind `what` ('sites', 'cards', …)?"""
        return self.recent is not None and key in getattr(self.recent, what)


RECENT = " class:recent"


# --- helpers -------------------------------------------------------------------------------

def holder(line: Line, ctx: Context, seat: int | None, cell: int = 1, free: str = "·",
           fresh: bool = False) -> Line:
    nm = ctx.namer
    if seat is None or seat < 0:
        line.add(free.ljust(cell), "class:free")
    else:
        line.add(nm.letter(seat), nm.style(seat) + (RECENT if fresh else ""))
        line.add(" " * (cell - 1))
    return line


def occupant_text(ctx: Context, occ: dict[str, Any] | None) -> str | None:
    if not occ:
        return None
    return ctx.namer.letter(occ["seat"]) + kind_letter(occ["worker"])


def phase_title(view: dict[str, Any], rs: Ruleset) -> str:
    phase, step = view["phase"], view["step"]
    if phase == "keep":
        title = ngettext("Setup: keep {n} card", "Setup: keep {n} cards", rs.keep).format(
            n=rs.keep)
    else:
        title = _(PHASE_TITLE[phase]) if phase in PHASE_TITLE else phase
    step_title = STEP_TITLE.get(step)
    return title + (_(step_title) if step_title else "")


PHASE_TITLE = {"np-setup": N_("Setup: non-player dwarves"), "placement": N_("Placement"),
               "camp": N_("King's camp"), "actions": N_("Actions"),
               "np-turn": N_("Non-player turns"), "over": N_("Game over")}
STEP_TITLE = {"spread": N_(" (spread)"), "discard": N_(" (discard)"),
              "spies-show": N_(" (Spies)"), "spies-take": N_(" (Spies)")}


def markers_by_district(view: dict[str, Any], competitors: int) -> list[list[int]]:
    """Markers per district per competitor, read off the view's board (keep counts 2)."""
    counts = [[0] * competitors for _ in range(5)]
    for name, seat in view["board"].items():
        if seat < 0 or seat >= competitors:
            continue
        d = int(name.rsplit("@", 1)[1][0])
        counts[d][seat] += 2 if name.startswith("keep@") else 1
    return counts


# --- sections ------------------------------------------------------------------------------

def header(view: dict[str, Any], ctx: Context, width: int) -> list[Line]:
    # a language whose words are longer gives up the next scoring, then the brand and the
    # season, rather than have the end of the line ("your decision") cut
    for brand, season, scores in ((True, True, True), (True, True, False),
                                  (False, True, False), (False, False, False)):
        line = _header(view, ctx, width, brand, season, scores)
        if line.width() <= width:
            break
    return [line.fit(width)]


def _header(view: dict[str, Any], ctx: Context, width: int, brand: bool, season: bool,
            scores: bool) -> Line:
    r = view["round"]
    sr = view["scoring_rounds"]
    line = Line((" BELFORT ", "class:brand")) if brand else Line()
    if r:
        nxt = next_scoring(r, sr)
        month = _("Month {m}/{rounds} {season}").format(
            m=r, rounds=view["rounds"], season=season_of(r, sr)) if season else \
            _("Month {m}/{rounds}").format(m=r, rounds=view["rounds"])
        line.add(" " + month, "class:title")
        if scores and nxt and view["phase"] != "over":
            line.add(" " + (_("(scoring after {m})") if width >= 100 else _("(scores {m})"))
                     .format(m=nxt), "class:dim")
    line.add(" │ ", "class:dim").add(phase_title(view, ctx.ruleset), "class:title")
    waiting = view["waiting_for"]
    if view["phase"] not in ("over", "keep") and waiting:
        cur = view["current"]
        you = ctx.namer.you
        if you is not None and you in waiting:
            line.add(" · ", "class:dim").add(_("your decision"), ctx.namer.style(you))
        elif view["phase"] == "np-turn":
            np = view["players"][cur]["name"] if cur is not None and cur >= 0 else "?"
            line.add(" · " + _("{name} plays a non-player").format(name=np), "class:dim")
        else:
            who = waiting if len(waiting) > 1 else [cur]
            line.add(" · ", "class:dim")
            for i, s in enumerate(who):
                line.add(("," if i else "") + ctx.namer.name(s), ctx.namer.style(s))
            line.add(" " + _("to play"), "class:dim")
    return line


def districts(view: dict[str, Any], ctx: Context, width: int, wide: bool) -> list[Line]:
    nm = ctx.namer
    board = view["board"]
    comp = nm.n + len(view.get("non_players", []))
    counts = markers_by_district(view, comp)
    cell = 4
    gw = 17 if wide else 16
    # i18n: the district column of the board table: at most 2 cells
    # right-aligned over the district's digit, so a two-cell heading (Korean 구) keeps its
    # space before the guild's heading
    head = Line((fit(pgettext("district column", "D"), 2, ">") + " ", "class:th"),
                (fit(_("Guild"), gw), "class:th"))
    for t in SINGLE:
        head.add(fit(str(WIDE_HEAD[t]), wide_cell(t), ellipsis="") + " " if wide else
                 fit(SHORT[t], cell, ellipsis=""), "class:th")
    keep = term_keep("name") if cell_width(term_keep("name")) <= 4 else term_keep("short")
    head.add(fit(keep, 4, ellipsis="") + " " if wide else
             fit(term_keep("short"), 2, ellipsis="") + " ", "class:th")
    # i18n: board table headings; the short ones (Wl, Gt) fit 2 cells
    head.add(fit(_("Walls"), 7, ellipsis="") if wide else
             fit(pgettext("walls column", "Wl"), 3, ellipsis=""), "class:th")
    head.add(fit(_("Gates"), 7, ellipsis="") if wide else
             fit(pgettext("gates column", "Gt"), 4, ellipsis=""), "class:th")
    head.add(_("Markers"), "class:th")
    lines = [head.fit(width)]
    for d in range(5):
        g = view["guilds"][d]
        line = Line((f" {d} ", "class:th"))
        name = GUILD_BRIEF[g["guild"]]
        occ = occupant_text(ctx, g["plank"])
        # a worker wider than two cells (Korean 엘⁺) takes its room from the name's padding
        room = 10 - max(0, cell_width(occ or "") - 2)
        gl = Line((fit(name, room, ellipsis=""), "class:guild"), " ")
        holder(gl, ctx, g["owner"], fresh=ctx.fresh("sites", f"guild@{d}"))
        if g.get("np_dwarf") is not None:
            gl.add(" " + nm.letter(g["np_dwarf"]) + "d", "class:np")
        elif occ:
            fresh = ctx.fresh("guilds", GUILDS.index(g["guild"]))
            gl.add(" ").add(occ, nm.style(g["plank"]["seat"]) + (RECENT if fresh else ""))
        line.extend(gl.fit(gw))
        def mark(site, cell=1):
            holder(line, ctx, board.get(site), cell, fresh=ctx.fresh("sites", site))
        for t in SINGLE:
            mark(f"{t}@{d}", wide_cell(t) + 1 if wide else cell)
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


def collection(view: dict[str, Any], ctx: Context, width: int, wide: bool) -> list[Line]:
    nm = ctx.namer
    line = Line((_("Desk") + " ", "class:th"))
    for occ in view["recruiters_desk"]:
        t = occupant_text(ctx, occ)
        fresh = RECENT if occ and ctx.fresh("desk", occ["seat"]) else ""
        line.add(t or "··", (nm.style(occ["seat"]) + fresh) if occ else "class:free").add(" ")
    line.add(_("Camp") + " ", "class:th")
    for i, occ in enumerate(view["kings_camp"], start=1):
        t = occupant_text(ctx, occ)
        fresh = RECENT if occ and ctx.fresh("camp", occ["seat"]) else ""
        line.add(f"{i}:", "class:dim").add(t or "··", (nm.style(occ["seat"]) + fresh) if occ
                                           else "class:free").add(" ")
    down = view.get("crests_face_down") or []
    if down:
        line.add(ngettext("(crest {crests} down)", "(crests {crests} down)", len(down)).format(
            crests=",".join(map(str, down))) + " ", "class:dim")
    areas = _areas(view, ctx, masters_shown=True)
    if cell_width(_("Areas") + " ") - 2 + areas.width() > width:
        areas = _areas(view, ctx, masters_shown=False)   # the long languages: no (1M)
    if not any(sum((p["areas"].get(a) or {}).values()) for p in view["players"]
               for a in ("forest", "quarry", "mine", "gold")):
        areas = Line(("│ ", "class:dim"), (_("Resource areas") + " ", "class:th"),
                     (_("empty"), "class:free"))
    if line.width() + areas.width() <= width:
        line.extend(areas)
        lines = [line]
    else:
        areas.frags[0] = ("class:dim", _("Areas") + " ")
        lines = [line, areas]
    if wide:
        lines.append(Line((_("Gnome supply") + " ", "class:th"),
                          (str(view["gnome_supply"]) + "  ", ""),
                          (_("Crests:") + " ", "class:th"),
                          (" ".join(f"{p['crest']}={nm.letter(p['seat'])}" for p in
                                    sorted(view["players"], key=lambda p: p["crest"])), "")))
    return [ln.fit(width) for ln in lines]



def _areas(view: dict[str, Any], ctx: Context, masters_shown: bool) -> Line:
    """The resource areas' line: who has how many workers in each (A3(1M))."""
    nm = ctx.namer
    areas = Line()
    for area in ("forest", "quarry", "mine", "gold"):
        areas.add("│ ", "class:dim").add(_(AREA_HEAD[area]) + " ", "class:th")
        any_here = False
        for p in view["players"]:
            here = p["areas"].get(area) or {}
            pieces = sum(here.values())
            if pieces:
                masters = here.get("master-elf", 0) + here.get("master-dwarf", 0)
                fresh = RECENT if ctx.fresh("areas", (p["seat"], area)) else ""
                # i18n: "(1M)": how many of the workers there are masters; keep it short
                areas.add(f"{nm.letter(p['seat'])}{pieces}" +
                          (_("({n}M)").format(n=masters) if masters and masters_shown
                           else ""), nm.style(p["seat"]) + fresh)
                areas.add(" ")
                any_here = True
        if not any_here:
            areas.add("· ", "class:free")
    return areas

def built_text(b: dict[str, Any], wide: bool) -> str:
    t = b["type"]
    locks = b["locks"]          # the ruleset's locks for this card (public_view)
    name = TITLE[t] if wide else SHORT[t]
    lock = gnome_letter() * b["gnomes"] + "·" * (locks - b["gnomes"])
    occ = b.get("plank")
    on = (":" + kind_letter(occ["worker"])) if occ else ""
    return name + (f"[{lock}]" if locks else "") + on


def worker_text(n: int, masters: int) -> str:
    return f"{n}({masters})" if masters else str(n)


def players(view: dict[str, Any], ctx: Context, width: int, wide: bool) -> list[Line]:
    nm = ctx.namer
    peers = {p["seat"]: p for p in ctx.peers}
    nw = 8 if wide else 6
    def col(heading: str, w: int) -> str:
        return pad(truncate(heading, w, ""), w)
    # i18n: the players table's columns ("Cr", "VP", …) are cut to 2 cells (Elf, Dwf: 4)
    heads = "{cr} {vp} {tx}  {wd} {st} {mt} {gd}  {elf} {dwf} {gn} {hd} ".format(
        cr=col(pgettext("crest column", "Cr"), 2), vp=col(pgettext("VP column", "VP"), 2),
        tx=col(pgettext("tax column", "Tx"), 2), wd=col(pgettext("wood column", "Wd"), 2),
        st=col(pgettext("stone column", "St"), 2), mt=col(pgettext("metal column", "Mt"), 2),
        gd=col(pgettext("gold column", "Gd"), 2), elf=col(pgettext("elves column", "Elf"), 4),
        dwf=col(pgettext("dwarves column", "Dwf"), 4),
        gn=col(pgettext("gnomes column", "Gn"), 2), hd=col(pgettext("hand column", "Hd"), 2))
    head = Line(("  ", "class:th"), (fit(_("Player"), nw + 2), "class:th"),
                (heads, "class:th"))
    built_head = _("Built ([g] gnome on a lock, :e worker on its plank)")
    head.add(built_head if wide and head.width() + cell_width(built_head) <= width else
             _("Built"), "class:th")
    lines = [head.fit(width)]
    active = set(view["waiting_for"])
    for p in view["players"]:
        s = p["seat"]
        mark = "▶" if (s in active) else " "
        line = Line((mark, "class:turn"), (nm.letter(s) + " ", nm.style(s)))
        name = truncate(p["name"], nw, "")
        line.add(pad(name, nw + 1), nm.style(s) + (" class:me" if s == nm.you else ""))
        line.add(f"{p['crest']:>2} {p['score']:>2} {p['tax']:>2}  "
                 f"{p['wood']:>2} {p['stone']:>2} {p['metal']:>2} {p['gold']:>2}  ")
        line.add(worker_text(p["elves"], p["master_elves"]).ljust(5))
        line.add(worker_text(p["dwarves"], p["master_dwarves"]).ljust(5))
        line.add(f"{p['gnomes']:>2} {p['hand_size']:>2} ")
        status = []
        peer = peers.get(s)
        if peer and peer["state"] in ("thinking", "disconnected", "left", "connected", "paused"):
            if peer["state"] != "connected":
                status.append((_(PEER_STATE.get(peer["state"], peer["state"])),
                               "class:warn" if peer["state"] != "thinking" else "class:dim"))
        if view["phase"] == "keep":
            status.append((_("chosen") if s in (view.get("keep_submitted") or [])
                           else _("choosing"), "class:dim"))
        for c, t in sorted((p.get("hand_revealed") or {}).items()):
            shows = view["step"] == "spies-take"
            if s == nm.you or not (shows or wide):
                continue
            card = TITLE[t] if t in TITLE else t
            status.append(((_("shows #{c} {card}") if shows else _("has #{c} {card}")).format(
                c=c, card=card), "class:warn" if shows else "class:dim"))
        if view["phase"] == "placement":
            if p["passed"]:
                status.append((_("passed"), "class:dim"))
            elif p["unplaced"]:
                u = p["unplaced"]
                e = u.get("elf", 0) + u.get("master-elf", 0)
                dw = u.get("dwarf", 0) + u.get("master-dwarf", 0)
                # i18n: unplaced workers: e elves, d dwarves (the worker letters of the board)
                status.append((_("{e}e {d}d left").format(e=e, d=dw), "class:dim"))
        if p["waiting"] and view["phase"] == "actions":
            waiting = " ".join(localize_plank(w) for w in p["waiting"])
            status.append((_("to activate: {planks}").format(planks=waiting) if wide else
                           _("{n} to activate").format(n=len(p["waiting"])), "class:warn"))
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
                if cur.width() + cell_width(text) > width and cur.width() > indent:
                    lines.append(cur.fit(width))
                    cur = Line(" " * indent)
                cur.add(text, style).add(" ")
            lines.append(cur.fit(width))
        else:
            # keep the status visible; shorten the built list ('tableau' shows them all)
            bl = Line()
            shown = 0
            for text, style in built:
                if bl.width() + cell_width(text) + 1 + stat.width() + 4 > avail:
                    break
                bl.add(text, style).add(" ")
                shown += 1
            if shown < len(built):
                bl.add(f"+{len(built) - shown} ", "class:dim")
            lines.append(line.extend(bl.extend(stat)).fit(width))
    if view.get("non_players"):
        np_line = Line("  ")
        for short in (False, True):
            np_line = Line("  ")
            for i, npn in enumerate(view["non_players"]):
                # i18n: the short form, where the long one does not fit the line
                said = (pgettext("short", ": crest {k}, played by crest {by}") if short else
                        _(": crest {k}, played by crest {by}'s holder"))
                np_line.add(f"{nm.letter(nm.n + i)} {npn}", "class:np").add(
                    said.format(k=i + 3, by=i + 1) + "   ", "class:dim")
            if np_line.width() <= width:
                break
        lines.append(np_line.fit(width))
    return lines


def hand_and_piles(view: dict[str, Any], ctx: Context, width: int, wide: bool) -> list[Line]:
    rs = ctx.ruleset
    out = []
    hand = view.get("hand", [])
    seat = view.get("seat", ctx.namer.you)
    # a replay seen by another seat ('v') shows that seat's hand: say whose it is
    whose = _("Your hand") if seat == ctx.namer.you else \
        _("{name}'s hand").format(name=ctx.namer.name(seat))  # type: ignore[arg-type]
    line = Line((whose + " ", "class:th"))
    if not hand:
        line.add(_("(empty)"), "class:dim")
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
            line = Line(" " * 10)
        line.extend(piece)
    mine = view.get("my_keep")
    if mine:
        kept = Line((_("(kept {cards})").format(cards=" ".join(f"#{c}" for c in mine[0])),
                     "class:dim"))
        if line.width() + kept.width() > width:
            out.append(line.fit(width))          # on a line of its own, never cut
            line = Line(" " * 10)
        line.extend(kept)
    out.append(line.fit(width))
    line = Line((_("Pool") + " ", "class:th"))
    for c in view["pool"]:
        line.add(f"#{c['card']} ", "class:dim").add(TITLE.get(c["type"], "?") + "  ", "class:card")
    if not view["pool"]:
        line.add(_("(empty)") + "  ", "class:dim")
    disc = view["discard"]
    line.add("│ ", "class:dim").add(_("Discards") + " ", "class:th").add(str(len(disc)))
    if disc and disc[-1].get("type"):
        line.add(" " + _("(top {card})").format(card=TITLE[disc[-1]["type"]]), "class:dim")
    line.add(" │ ", "class:dim").add(_("Draw") + " ", "class:th").add(str(view["draw_size"]))
    if not wide:
        line.add(" │ ", "class:dim").add(_("Gnomes") + " ", "class:th").add(
            str(view["gnome_supply"]))
    npc = view.get("np_card")
    npl = Line()
    if npc:
        npl.add(" │ ", "class:dim").add(_("NP card") + " ", "class:th").add(
            f"#{npc['card']} {TITLE.get(npc['type'], '?')}")
    line.extend(npl)
    if line.width() > width:
        line = Line((_("Pool") + " ", "class:th"))
        for c in view["pool"]:
            line.add(f"#{c['card']} ", "class:dim").add(SHORT.get(c["type"], "?") + " ",
                                                         "class:card")
        # i18n: a short "Discards"
        line.add("│ ", "class:dim").add(_("Disc") + " ", "class:th").add(str(len(disc)))
        # i18n: a short "Draw" (the draw pile), where the pool line is short of room
        line.add(" │ ", "class:dim").add(pgettext("short", "Draw") + " ", "class:th").add(
            str(view["draw_size"]))
        line.add(" │ ", "class:dim").add(_("Gnomes") + " ", "class:th").add(
            str(view["gnome_supply"]))
        if npc:
            line.add(" │ ", "class:dim").add(_("NP card") + " ", "class:th").add(
                f"#{npc['card']} {SHORT.get(npc['type'], '?')}")
    out.append(line.fit(width))
    if ctx.turn_hint:
        # the hint's parts ("trading post … · gnome hire … · ? for choices") are dropped
        # from the end, whole, where a language's words do not fit the line
        bits = ctx.turn_hint.split(" · ")
        while len(bits) > 1 and cell_width(" · ".join(bits)) > width:
            bits.pop()
        out.append(Line((" · ".join(bits), "class:dim")).fit(width))
    return out


def log_lines(ctx: Context, width: int, height: int) -> list[Line]:
    """The last `height` wrapped log lines (scrolled back by ctx.log_scroll)."""
    wrapped = []
    for style, text in ctx.log:
        wrapped += wrap(text, width, style)
    if not wrapped:
        wrapped = [Line((_("The log of what happens appears here."), "class:dim"))]
    end = max(0, len(wrapped) - ctx.log_scroll)
    start = max(0, end - height)
    shown = wrapped[start:end]
    if ctx.log_scroll and shown:
        shown[-1] = Line((ngettext("… {n} newer line below (PgDn) …",
                                   "… {n} newer lines below (PgDn) …",
                                   ctx.log_scroll).format(n=ctx.log_scroll), "class:dim"))
    return [ln.fit(width) for ln in shown] + [Line().fit(width)] * (height - len(shown))


def current_alerts(alerts: Sequence[Any]) -> list[Any]:
    """The alerts not yet dismissed, less a seat's DISCONNECTED that its later BACK
    answers (it would stay on screen, stale, under the BACK)."""
    out = []
    for i, a in enumerate(alerts):
        if a.seen:
            continue
        if a.kind == "disconnect" and any(b.kind == "reconnect" and b.seat == a.seat
                                           for b in alerts[i + 1:]):
            continue
        out.append(a)
    return out


def alert_lines(ctx: Context, width: int) -> list[Line]:
    out = []
    for a in ctx.alerts:
        label = ALERT_LABEL.get(a.kind)
        label = _(label) if label else a.kind.upper()
        text = alert_text(a)
        for ln in wrap("⚠ " + _("{label}: {text}  (Esc to dismiss)").format(
                label=label, text=text), width):
            out.append(Line((ln.text(), "class:alert")).fit(width))
    return out


def panel_lines(ctx: Context, width: int, height: int) -> list[Line]:
    title, body = ctx.panel  # type: ignore[misc]  # drawn only while a panel is up
    out = [Line((f" {title} ", "class:paneltitle"),
                ("  " + _("Esc: back to the board · PgUp/PgDn: scroll"), "class:dim")).fit(width)]
    room = height - 1
    start = min(ctx.panel_scroll, max(0, len(body) - room))
    shown = body[start:start + room]
    out += [ln.fit(width) for ln in shown]
    if start + room < len(body) and out:
        more = len(body) - start - room
        out[-1] = Line((ngettext("… {n} more line (PgDn) …", "… {n} more lines (PgDn) …",
                                 more).format(n=more), "class:dim")).fit(width)
    return out + [Line().fit(width)] * (height - len(out))


def screen(view: dict[str, Any], ctx: Context, width: int, height: int) -> list[Line]:
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
                     wrap(_("You can: {choices}  (? lists them, Tab completes)").format(
                         choices=ctx.choices), left_w)]
        left = (left + [Line().fit(left_w)] * body_h)[:body_h]
        right = [Line((" " + _("Log") + " ", "class:th")).fit(log_w)] + \
            log_lines(ctx, log_w, body_h - 1)
        body = []
        for a, b in zip(left, right):
            ln = Line()
            ln.frags = a.frags + [("class:dim", "│")] + b.frags
            body.append(ln)
        return (top + body)[:height]
    dist, rows = districts(view, ctx, width, False), players(view, ctx, width, False)
    coll, hand = collection(view, ctx, width, False), hand_and_piles(view, ctx, width, False)
    body = dist + coll + rows + hand
    room = height - len(top) - len(body) - 1
    if room < 2 or width < 80:
        # smaller than the layout is made for: say so, and give up the collection line and
        # the players' heading first, then district rows from the top — never the hand
        top = top + [ln.fit(width) for ln in wrap(
            _("Window too small: part of the table is hidden (80×24 shows it all)."), width,
            "class:warn")]
        if room < 2:
            body = dist + rows[1:] + hand
            body = body[max(0, len(body) - max(0, height - len(top) - 3)):]
        room = height - len(top) - len(body) - 1
    head = "─ " + _("Log") + " "
    sep = Line((head + "─" * (width - cell_width(head)), "class:dim")).fit(width)
    out = top + body + [sep] + log_lines(ctx, width, max(room, 0))
    return out[:height]


def as_text(lines: Iterable[Line]) -> str:
    return "\n".join(ln.text().rstrip() for ln in lines)


def as_fragments(lines: Sequence[Line]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i, ln in enumerate(lines):
        out.extend(ln.frags)
        if i < len(lines) - 1:
            out.append(("", "\n"))
    return out


# --- the end of the game -------------------------------------------------------------------

def final_lines(view: dict[str, Any], ctx: Context, audit: tuple[bool, str] | None = None,
                width: int = 80) -> list[Line]:
    """The final scoreboard: each scoring phase's breakdown, taxes lost, tie-break, audit."""
    nm = ctx.namer
    n = nm.n
    res = view.get("result") or {}
    winners = res.get("winners", [])
    out = []
    ranked = sorted(view["players"], key=lambda p: -p["score"])
    top = Line((_("Final scores:") + " ", "class:title"))
    for i, p in enumerate(ranked):
        if i:
            top.add(" · ", "class:dim")
        top.add(f"{p['name']} {p['score']}", nm.style(p["seat"]))
        if p["seat"] in winners:
            top.add(" " + _("★ wins"), "class:ok")
    out += wrap(top.text(), width) if top.width() > width else [top]
    dcol = pgettext("district column", "D")
    # i18n: the final table's headings: Month 6 cells, Player 9, Total 5, Tax 3
    out.append(Line((fit(_("Month"), 6) + " " + fit(_("Player"), 9) + " " +
                     "".join(pad(f"{dcol}{d}", 4, ">") for d in range(5)) + "  " +
                     fit(pgettext("elves column", "Elf"), 4) + " " +
                     fit(pgettext("dwarves column", "Dwf"), 4) + " " +
                     fit(pgettext("gnomes column", "Gn"), 2) + "  " +
                     fit(_("Total"), 5, ">") + "  " + fit(_("Tax"), 3, ">"), "class:th")))
    for rec in view.get("score_log", []):
        for s in range(n):
            row = "".join(f"{rec['districts'][d][s]:>4}" for d in range(5))
            out.append(Line((f"{rec['round']:>4}   " if s == 0 else "       ", "class:th"),
                            (pad(truncate(nm.name(s), 9, ""), 10), nm.style(s)), row,
                            f"  {rec['elves'][s]:>3}  {rec['dwarves'][s]:>3} "
                            f"{rec['gnomes'][s]:>3}  {rec['total'][s]:>5}"
                            f"  {-rec.get('taxes_lost', [0] * n)[s]:>3}"))
    taxes = [(p["name"], p["taxes_lost"]) for p in view["players"] if p["taxes_lost"]]
    line = Line((_("Taxes lost (VP):") + " ", "class:th"),
                ", ".join(f"{name} {k}" for name, k in taxes) if taxes else _("none"))
    if res.get("tie_break"):
        out.append(line)
        best = max(p["score"] for p in view["players"])
        tied = [p for p in view["players"] if p["score"] == best]
        vals = ", ".join(f"{p['name']} {p['wood'] + p['stone'] + p['gold'] + 2 * p['metal']}"
                         for p in tied)
        out.append(Line((_("Tie-break (wood + stone + gold + 2 × metal):") + " ", "class:th"),
                        vals))
        if len(winners) > 1:
            out.append(Line(_("Still tied: the victory is shared.")))
    else:
        out.append(line.add(" · ").add(_("Tie-break:") + " ", "class:th").add(_("not needed")))
    if audit is not None:
        ok, text = audit
        from .netmessages import net_text
        text = net_text(text)            # net's verdict, or its reason to stop
        out += [Line((ln.text(), "class:ok" if ok else "class:alert"))
                for ln in wrap((_("Audit: PASSED.") if ok else _("Audit: FAILED.")) + " " + text,
                               width)]
    return out
