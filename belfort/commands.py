"""Commands: plain tuples `(verb, *args)` and their short text form.

Every command has one canonical text (`command_text`) that `parse_command` reads back to
the same tuple. The text names things as a player does: worker kinds, guild names, card ids
as `#17`, board symbols as `tower@3` (district 3's Tower symbol), `keep@1`, `wall@2a`,
`gate4@0` (gatehouse 4's symbol in district 0), resources by name, seats by number.

    keep #0 #1 #2 drop #3:pub #4:inn     np-dwarf merchants
    place elf desk | camp | miners | #17  pass
    spread elf forest=2 mine=1 gold=0    crest 2
    build #17 tower@3    wall wall@2a    guild spies
    activate miners      activate #17    activate #17 gnome #20 gate1@2
    activate architects tower@2 discount=ws
    activate recruiters elf | dwarf | gnome #20
    activate thieves from 2 | each 1 3   activate bandits from 2 wood stone | each 1:wood 3:stone
    activate wizards tower@1 tower@3     activate wizards gate1 gate3 gate1@2
    buy wood   sell metal   exchange stone   hire #20   bank #21   smith #22
    buy-card #30 | top    end    discard #3:pub    show #3:pub    take #3
    np-take #30 | top     np-mark tower@2 | none    np-skip
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, NoReturn, TypeVar

from typing import NamedTuple

from .data import (CAMP, CARD_PLANK, CARD_TYPE_ID, CARD_TYPES, DESK, GATE_BASE,
                   GUILD_ID, GUILD_PLANK, GUILDS, KIND_ID, KINDS, NOBODY, RESOURCES,
                   SITE_ID, SITE_NAME, SPREAD_AREAS, AREAS)
from .errors import CommandSyntaxError
from .reasons import N_, Reason as R, Word

# A command is a verb and its arguments; an event, what happened and to whom. The type of each
# argument depends on the verb (ints, words, tuples of them), so the tuple's items are not
# typed one by one: `normalize` checks a command's shape where it enters the engine, and
# legality checks its meaning.
Command = tuple[Any, ...]
Event = tuple[Any, ...]

_T = TypeVar("_T")


class _Names(tuple[_T, ...], Generic[_T]):
    """A name table that refuses negative indexes (which Python would wrap around)."""

    def __getitem__(self, i: object) -> _T:  # type: ignore[override]
        if not isinstance(i, int) or i < 0:
            raise IndexError(i)
        return tuple.__getitem__(self, i)
VERBS = ("keep", "np-dwarf", "place", "pass", "spread", "crest", "build", "wall", "guild",
         "activate", "buy", "sell", "exchange", "hire", "bank", "smith", "buy-card", "end",
         "discard", "show", "take", "np-take", "np-mark", "np-skip")
_CARD_TYPES, _GUILDS, _KINDS, _RESOURCES, _SITE_NAME, _AREAS = (
    _Names(t) for t in (CARD_TYPES, GUILDS, KINDS, RESOURCES, SITE_NAME, AREAS))


# --- named forms, for readers ---------------------------------------------------------------
# A command stays a plain tuple for the engine, the wire, logs and hashes; code that reads
# one takes `named(cmd)`: the same tuple with its fields named (a tuple subclass, equal to the
# plain tuple and hashing like it).

class Keep(NamedTuple):
    """§3: the kept cards; `dropped` is flat: (card, type, card, type, ...)."""
    verb: str
    kept: tuple[int, ...]
    dropped: tuple[int, ...]


class NpDwarf(NamedTuple):
    """§12 setup: a guild id."""
    verb: str
    guild: int


class Place(NamedTuple):
    """§6: worker kind (0 elf, 1 master-elf, 2 dwarf, 3 master-dwarf) and plank code."""
    verb: str
    kind: int
    plank: int


class Pass(NamedTuple):
    verb: str


class Spread(NamedTuple):
    """§6: counts for the kind's three areas, in SPREAD_AREAS order."""
    verb: str
    kind: int
    a: int
    b: int
    c: int


class Crest(NamedTuple):
    verb: str
    crest: int


class Build(NamedTuple):
    verb: str
    card: int
    site: int


class Wall(NamedTuple):
    verb: str
    site: int


class Guild(NamedTuple):
    verb: str
    guild: int


class Buy(NamedTuple):
    verb: str
    resource: int


class Sell(NamedTuple):
    verb: str
    resource: int


class Exchange(NamedTuple):
    verb: str
    resource: int


class Hire(NamedTuple):
    """§8: the gnome's card and the Gatehouse's second symbol (NOBODY: none)."""
    verb: str
    card: int
    gate_site: int


class Bank(NamedTuple):
    verb: str
    card: int


class Smith(NamedTuple):
    verb: str
    card: int


class BuyCard(NamedTuple):
    """§8: a pool card, or NOBODY for the top of the draw pile."""
    verb: str
    card: int


class End(NamedTuple):
    verb: str


class Discard(NamedTuple):
    verb: str
    card: int
    type: int


class Show(NamedTuple):
    verb: str
    card: int
    type: int


class Take(NamedTuple):
    verb: str
    card: int


class NpTake(NamedTuple):
    """§12: a pool card, or NOBODY for the top of the draw pile."""
    verb: str
    card: int


class NpMark(NamedTuple):
    """§12: the symbol marked, or NOBODY."""
    verb: str
    site: int


class NpSkip(NamedTuple):
    verb: str


class Activate(tuple[Any, ...]):
    """`("activate", plank, *args)`: the one verb whose length varies with what is
    activated (docs/engine.md), so not a NamedTuple but a tuple with the same kind of named
    fields: `verb`, `plank`, `args` (everything after the plank)."""

    __slots__ = ()
    _fields = ("verb", "plank", "args")

    def __new__(cls, *values: Any) -> Activate:
        if len(values) < 2:
            raise TypeError(f"activate needs a plank: {values!r}")
        return tuple.__new__(cls, values)

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)              # copy and pickle call __new__(*values)

    def __repr__(self) -> str:
        return f"Activate(verb={self[0]!r}, plank={self[1]!r}, args={tuple(self[2:])!r})"

    @property
    def verb(self) -> str:
        verb: str = self[0]
        return verb

    @property
    def plank(self) -> int:
        plank: int = self[1]
        return plank

    @property
    def args(self) -> tuple[Any, ...]:
        return tuple(self[2:])


NAMED: dict[str, type[tuple[Any, ...]]] = {
    "keep": Keep, "np-dwarf": NpDwarf, "place": Place, "pass": Pass, "spread": Spread,
    "crest": Crest, "build": Build, "wall": Wall, "guild": Guild, "activate": Activate,
    "buy": Buy, "sell": Sell, "exchange": Exchange, "hire": Hire, "bank": Bank,
    "smith": Smith, "buy-card": BuyCard, "end": End, "discard": Discard, "show": Show,
    "take": Take, "np-take": NpTake, "np-mark": NpMark, "np-skip": NpSkip,
}


# Any: which class depends on the verb, and readers pick their fields after reading it, which
# no static type can follow.
def named(cmd: Sequence[Any]) -> Any:
    """A normalized command as its named form (see above). Raises ValueError for a verb or
    a shape the engine does not use."""
    if isinstance(cmd, tuple) and type(cmd) is not tuple:
        return cmd                      # already named
    try:
        cls = NAMED[cmd[0]]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"not a command: {cmd!r}") from None
    try:
        return cls(*cmd)
    except TypeError:
        fields = getattr(cls, "_fields", ())     # every class there has them
        raise ValueError(f"a {cmd[0]!r} command has the fields {fields}: {cmd!r}") from None



# --- values from the wire ----------------------------------------------------------------------

def normalize(command: object) -> Command:
    """A command as the engine's tuple: text is parsed, lists (msgpack) become tuples, and
    anything that is not strings, ints and nested sequences is refused."""
    if isinstance(command, str):
        return parse_command(command)
    if not isinstance(command, (tuple, list)) or not command:
        raise CommandSyntaxError(repr(command), "a command is a non-empty tuple or text")
    out = _shape(command, command, 0)
    if out[0] not in VERBS:
        raise CommandSyntaxError(repr(command), f"unknown verb {out[0]!r}")
    return canonical(out)


def canonical(cmd: Command) -> Command:
    """Put the parts of a command whose order does not matter in the engine's order, so
    `keep #2 #0 #1` means the same as `keep #0 #1 #2`."""
    try:
        verb = cmd[0]
        if verb == "keep" and len(cmd) == 3:
            d = cmd[2]
            pairs = sorted((d[i], d[i + 1]) for i in range(0, len(d) - 1, 2))
            return ("keep", tuple(sorted(cmd[1])), tuple(x for pair in pairs for x in pair)
                    + tuple(d[len(d) - len(d) % 2:]))
        if verb == "activate" and len(cmd) > 3 and cmd[2] == "each":
            if len(cmd) % 2 == 1 and all(isinstance(x, int) for x in cmd[3:]) and \
                    cmd[1] == GUILD_PLANK + GUILD_ID["bandits"]:
                rest = cmd[3:]
                pairs = sorted((rest[i], rest[i + 1]) for i in range(0, len(rest), 2))
                return cmd[:3] + tuple(x for pair in pairs for x in pair)
            if cmd[1] == GUILD_PLANK + GUILD_ID["thieves"]:
                return cmd[:3] + tuple(sorted(cmd[3:]))
        if verb == "activate" and len(cmd) == 6 and cmd[1] == GUILD_PLANK + GUILD_ID["wizards"] \
                and isinstance(cmd[2], int) and isinstance(cmd[3], int) and cmd[2] > cmd[3]:
            return (verb, cmd[1], cmd[3], cmd[2], cmd[5], cmd[4])
        if verb == "activate" and len(cmd) == 4 and \
                cmd[1] == GUILD_PLANK + GUILD_ID["architects"] and discount_code_ok(cmd[3]):
            return cmd[:3] + (discount_code(cmd[3]),)
    except TypeError:
        pass
    return cmd


def discount_code_ok(code: str) -> bool:
    """§14 Architects: a discount is written with letters: m (metal), or w and s (wood and
    stone, in any mix). Which ones a ruleset offers is for legality to say."""
    return isinstance(code, str) and 0 < len(code) <= 9 and \
        (set(code) == {"m"} or set(code) <= {"w", "s"})


def discount_code(code: str) -> str:
    """The canonical spelling: wood before stone (sw → ws)."""
    return "w" * code.count("w") + "s" * code.count("s") if "m" not in code else code


def _shape(value: Sequence[Any], whole: Sequence[Any], depth: int) -> tuple[Any, ...]:
    if depth > 2 or len(value) > 24:
        raise CommandSyntaxError(repr(whole)[:200], "command too deep or too long")
    out = []
    for x in value:
        if isinstance(x, bool):
            raise CommandSyntaxError(repr(whole)[:200], "booleans are not command arguments")
        if isinstance(x, int):
            if not -10**6 < x < 10**6:
                raise CommandSyntaxError(repr(whole)[:200], "number out of range")
        elif isinstance(x, str):
            if len(x) > 40:
                raise CommandSyntaxError(repr(whole)[:200], "word too long")
        elif isinstance(x, (tuple, list)):
            x = _shape(x, whole, depth + 1)
        else:
            raise CommandSyntaxError(repr(whole)[:200],
                                     f"unexpected {type(x).__name__} in a command")
        out.append(x)
    if depth == 0 and not isinstance(out[0], str):
        raise CommandSyntaxError(repr(whole)[:200], "a command starts with its verb")
    return tuple(out)


# --- tuple → text ---------------------------------------------------------------------------------

def card_ref(c: int) -> str:
    return "top" if c == NOBODY else f"#{c}"


def plank_text(plank: int) -> str:
    if plank == DESK:
        return "desk"
    if plank == CAMP:
        return "camp"
    if plank >= CARD_PLANK:
        return f"#{plank - CARD_PLANK}"
    return _GUILDS[plank - GUILD_PLANK]


def _typed(c: int, t: int) -> str:
    return f"#{c}:{_CARD_TYPES[t]}"


def command_text(cmd: Command) -> str:
    verb: str = cmd[0]
    try:
        if verb == "keep":
            kept = " ".join(f"#{c}" for c in cmd[1])
            d = cmd[2]
            dropped = " ".join(_typed(d[i], d[i + 1]) for i in range(0, len(d), 2))
            return f"keep {kept}" + (f" drop {dropped}" if dropped else "")
        if verb == "np-dwarf" or verb == "guild":
            return f"{verb} {_GUILDS[cmd[1]]}"
        if verb == "place":
            return f"place {_KINDS[cmd[1]]} {plank_text(cmd[2])}"
        if verb == "spread":
            areas = _Names(SPREAD_AREAS)[cmd[1]]
            parts = " ".join(f"{_AREAS[a]}={k}" for a, k in zip(areas, cmd[2:5]))
            return f"spread {_KINDS[cmd[1]]} {parts}"
        if verb == "crest":
            return f"crest {cmd[1]}"
        if verb == "build":
            return f"build #{cmd[1]} {_SITE_NAME[cmd[2]]}"
        if verb == "wall":
            return f"wall {_SITE_NAME[cmd[1]]}"
        if verb in ("buy", "sell", "exchange"):
            return f"{verb} {_RESOURCES[cmd[1]]}"
        if verb == "hire":
            return f"hire #{cmd[1]}" + (f" {_SITE_NAME[cmd[2]]}" if cmd[2] != NOBODY else "")
        if verb in ("bank", "smith", "take"):
            return f"{verb} #{cmd[1]}"
        if verb in ("buy-card", "np-take"):
            return f"{verb} {card_ref(cmd[1])}"
        if verb in ("discard", "show"):
            return f"{verb} {_typed(cmd[1], cmd[2])}"
        if verb == "np-mark":
            return "np-mark " + (_SITE_NAME[cmd[1]] if cmd[1] != NOBODY else "none")
        if verb == "activate":
            return _activate_text(cmd)
        if len(cmd) == 1:
            return verb
    except (IndexError, TypeError, KeyError, ValueError):
        pass
    return repr(tuple(cmd))


def _activate_text(cmd: Command) -> str:
    plank = cmd[1]
    head = f"activate {plank_text(plank)}"
    args = cmd[2:]
    if not args:
        return head
    first = args[0]
    if first == "gnome":
        return f"{head} gnome #{args[1]}" + (f" {_SITE_NAME[args[2]]}" if args[2] != NOBODY else "")
    if first in ("elf", "dwarf"):
        return f"{head} {first}"
    if first == "from":
        if plank == GUILD_PLANK + GUILD_ID["bandits"]:
            return f"{head} from {args[1]} " + " ".join(_RESOURCES[r] for r in args[2:])
        return f"{head} from {args[1]}"
    if first == "each":
        if plank == GUILD_PLANK + GUILD_ID["bandits"]:
            rest = args[1:]
            return f"{head} each " + " ".join(
                f"{rest[i]}:{_RESOURCES[rest[i + 1]]}" for i in range(0, len(rest), 2))
        return f"{head} each " + " ".join(str(q) for q in args[1:])
    if len(args) == 2:  # architects
        return f"{head} {_SITE_NAME[args[0]]} discount={args[1]}"
    a, b, ra, rb = args  # wizards
    if a >= GATE_BASE:
        text = f"{head} gate{(a - GATE_BASE) // 2} gate{(b - GATE_BASE) // 2}"
        for x in (ra, rb):
            if x != NOBODY:
                text += f" {_SITE_NAME[x]}"
        return text
    return f"{head} {_SITE_NAME[a]} {_SITE_NAME[b]}"


# --- text → tuple ---------------------------------------------------------------------------------

def is_number(word: str) -> bool:
    """Only ASCII digits make a number ('３' and '❾' are digits to str.isdigit)."""
    return word.isascii() and word.isdigit()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.words = text.strip().split()
        self.i = 0
        for w in self.words:
            if not w.isascii():
                bad = next(ch for ch in w if not ch.isascii())
                self.fail(R(N_("{char!r} (U+{code}) in {word!r}: commands are written in "
                               "plain ASCII letters and digits"),
                            char=bad, code=f"{ord(bad):04X}", word=w))
        self.words = [w.lower() for w in self.words]

    def fail(self, reason: str) -> NoReturn:
        raise CommandSyntaxError(self.text, reason)

    def more(self) -> bool:
        return self.i < len(self.words)

    def next(self, what: str) -> str:
        if self.i >= len(self.words):
            self.fail(R(N_("expected {what} after {words}"), what=what,
                        words=Word("line", " ".join(self.words)) if self.words
                        else R(N_("nothing"))))
        w = self.words[self.i]
        self.i += 1
        return w

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def done(self) -> None:
        if self.more():
            self.fail(R(N_("unexpected {word!r} at the end"),
                        word=Word("args", " ".join(self.words[self.i:]))))

    def card(self, allow_top: bool = False) -> int:
        w = self.next(R(N_("a card like #17 or {top}"), top=Word("token", "top")) if allow_top
                      else R(N_("a card like #17")))
        if allow_top and w == "top":
            return NOBODY
        return self._card_id(w)

    def _card_id(self, w: str) -> int:
        digits = w[1:] if w.startswith("#") else w
        if not is_number(digits) or len(digits) > 6:
            self.fail(R(N_("{word!r} is not a card; cards are written #17"),
                        word=Word("token", w)))
        return int(digits)

    def typed_card(self) -> tuple[int, int]:
        w = self.next(R(N_("a card with its type, like {example}"),
                        example=Word("token", "#17:tower")))
        if ":" not in w:
            self.fail(R(N_("{word!r} needs its type, like {example}"), word=Word("token", w),
                        example=Word("token", "#17:tower")))
        c, t = w.split(":", 1)
        if t not in CARD_TYPE_ID:
            self.fail(R(N_("unknown card type {word!r}; types are {types}"),
                        word=Word("token", t), types=Word("tokens", ", ".join(CARD_TYPES))))
        return self._card_id(c), CARD_TYPE_ID[t]

    def number(self, what: str) -> int:
        w = self.next(what)
        if not is_number(w) or len(w) > 3:
            self.fail(R(N_("{word!r} is not {what}"), word=Word("token", w), what=what))
        return int(w)

    def site(self) -> int:
        w = self.next(R(N_("a board symbol like {examples}"),
                        examples=Word("tokens", "tower@3, keep@1, wall@2a, gate4@0")))
        if w in SITE_ID:
            return SITE_ID[w]
        if w in GUILD_ID:  # a guild's symbol may be named by the guild
            self.fail(R(N_("name the guild's symbol as {example} (district), not {word!r}"),
                        example=Word("token", "guild@D"), word=Word("token", w)))
        self.fail(R(N_("unknown board symbol {word!r}; symbols look like {examples}"),
                    word=Word("token", w),
                    examples=Word("tokens", "tower@3, keep@1, wall@2a, guild@4, gate4@0")))

    def guild(self) -> int:
        w = self.next(R(N_("a guild name")))
        if w not in GUILD_ID:
            self.fail(R(N_("unknown guild {word!r}; guilds are {guilds}"), word=Word("token", w),
                        guilds=Word("tokens", ", ".join(GUILDS))))
        return GUILD_ID[w]

    def resource(self, allowed: tuple[str, ...] = ("wood", "stone", "metal")) -> int:
        w = self.next(R(N_("a resource")))
        if w not in allowed:
            self.fail(R(N_("{word!r} is not one of {allowed}"), word=Word("token", w),
                        allowed=Word("tokens", ", ".join(allowed))))
        return RESOURCES.index(w)

    def kind(self) -> int:
        w = self.next(R(N_("a worker: elf, dwarf, master-elf or master-dwarf")))
        if w not in KIND_ID:
            self.fail(R(N_("{word!r} is not a worker; use elf, dwarf, master-elf or "
                           "master-dwarf"), word=Word("token", w)))
        return KIND_ID[w]


def parse_command(text: str) -> Command:
    """The command tuple for `text`; raises CommandSyntaxError quoting the text."""
    if not isinstance(text, str):
        raise CommandSyntaxError(repr(text), R(N_("command text must be a string")))
    r = _Reader(text)
    verb = r.next(R(N_("a command")))
    parser = _PARSERS.get(verb)
    if parser is None:
        r.fail(R(N_("unknown command {word!r}; commands are {verbs}"), word=Word("token", verb),
                 verbs=Word("verbs", ", ".join(VERBS))))
    cmd = parser(r, verb)
    r.done()
    return canonical(cmd)


def _p_keep(r: _Reader, verb: str) -> Command:
    kept = []
    while r.more() and r.peek() != "drop":
        kept.append(r.card())
    dropped: tuple[int, ...] = ()
    if r.more():
        r.next("drop")
        while r.more():
            dropped += r.typed_card()
    return ("keep", tuple(kept), dropped)


def _p_plank(r: _Reader) -> int:
    w = r.next(R(N_("where: desk, camp, a guild name or a card like #17")))
    if w == "desk":
        return DESK
    if w == "camp":
        return CAMP
    if w in GUILD_ID:
        return GUILD_PLANK + GUILD_ID[w]
    return CARD_PLANK + r._card_id(w)


def _p_place(r: _Reader, verb: str) -> Command:
    return ("place", r.kind(), _p_plank(r))


def _p_spread(r: _Reader, verb: str) -> Command:
    kind = r.kind()
    areas = SPREAD_AREAS[kind]
    counts = [0, 0, 0]
    seen = set()
    while r.more():
        w = r.next(R(N_("area=count")))
        name, _, count = w.partition("=")
        if name not in AREAS or not is_number(count):
            r.fail(R(N_("{word!r} should look like forest=2 (areas for a {kind}: {areas})"),
                     word=Word("token", w), kind=Word("kind", KINDS[kind]),
                     areas=Word("tokens", ", ".join(AREAS[a] for a in areas))))
        a = AREAS.index(name)
        if a not in areas:
            r.fail(R(N_("a {kind} cannot go to the {area} (§6)"), kind=Word("kind", KINDS[kind]),
                     area=Word("token", name)))
        if a in seen:
            r.fail(R(N_("{area} is given twice"), area=Word("token", name)))
        seen.add(a)
        counts[areas.index(a)] = int(count)
    return ("spread", kind, *counts)


def _p_int1(r: _Reader, verb: str) -> Command:
    return (verb, r.number(R(N_("a crest number"))))


def _p_build(r: _Reader, verb: str) -> Command:
    c = r.card()
    return ("build", c, r.site())


def _p_wall(r: _Reader, verb: str) -> Command:
    w = r.peek()
    if w is not None and not w.startswith("wall@"):
        r.words[r.i] = "wall@" + w.lstrip("@")
    return ("wall", r.site())


def _p_guild(r: _Reader, verb: str) -> Command:
    return (verb, r.guild())


def _p_res(r: _Reader, verb: str) -> Command:
    allowed = ("wood", "stone") if verb == "exchange" else ("wood", "stone", "metal")
    return (verb, r.resource(allowed))


def _p_hire(r: _Reader, verb: str) -> Command:
    c = r.card()
    return ("hire", c, r.site() if r.more() else NOBODY)


def _p_card(r: _Reader, verb: str) -> Command:
    return (verb, r.card())


def _p_card_or_top(r: _Reader, verb: str) -> Command:
    return (verb, r.card(allow_top=True))


def _p_typed(r: _Reader, verb: str) -> Command:
    return (verb, *r.typed_card())


def _p_np_mark(r: _Reader, verb: str) -> Command:
    if r.peek() == "none":
        r.next("none")
        return ("np-mark", NOBODY)
    return ("np-mark", r.site())


def _p_bare(r: _Reader, verb: str) -> Command:
    return (verb,)


def _p_activate(r: _Reader, verb: str) -> Command:
    plank = _p_plank(r)
    if plank in (DESK, CAMP):
        r.fail(R(N_("workers on the desk or the camp are resolved in Collection, not "
                    "activated")))
    out = ["activate", plank]
    if not r.more():
        return tuple(out)
    w = r.peek() or ""
    if w == "gnome":
        r.next("gnome")
        c = r.card()
        out += ["gnome", c, r.site() if r.more() else NOBODY]
    elif w in ("elf", "dwarf"):
        out.append(r.next(w))
    elif w == "from":
        r.next(w)
        out += ["from", r.number(R(N_("a seat number")))]
        while r.more():
            out.append(r.resource())
    elif w == "each":
        r.next(w)
        out.append("each")
        bandits = plank == GUILD_PLANK + GUILD_ID["bandits"]
        while r.more():
            x = r.next(R(N_("a seat")))
            if bandits:
                seat, _, res = x.partition(":")
                if not is_number(seat) or res not in ("wood", "stone"):
                    r.fail(R(N_("{word!r} should look like {example}"), word=Word("token", x),
                             example=Word("token", "2:wood")))
                out += [int(seat), RESOURCES.index(res)]
            else:
                if not is_number(x):
                    r.fail(R(N_("{word!r} is not {what}"), word=Word("token", x),
                             what=R(N_("a seat number"))))
                out.append(int(x))
    elif w.startswith("gate") and "@" not in w:
        ga = _gate(r, r.next(R(N_("a gatehouse"))))
        gb = _gate(r, r.next(R(N_("a second gatehouse like {example}"),
                               example=Word("token", "gate3"))))
        ra = rb = NOBODY
        while r.more():
            sym = r.site()
            if sym in (ga, ga + 1) and ra == NOBODY:
                ra = sym
            elif sym in (gb, gb + 1) and rb == NOBODY:
                rb = sym
            else:
                r.fail(R(N_("{site} is not a symbol of either gatehouse"),
                         site=Word("token", SITE_NAME[sym])))
        out += [ga, gb, ra, rb]
    else:
        site = r.site()
        if r.more() and (r.peek() or "").startswith("discount="):
            code = r.next("discount").split("=", 1)[1]
            if not discount_code_ok(code):
                r.fail(R(N_("{code!r} is not a discount: {m} for metal, or {w} and {s} for wood "
                            "and stone (like {examples})"), code=Word("code", code),
                         m=Word("code", "m"), w=Word("code", "w"), s=Word("code", "s"),
                         examples=Word("codes", "ww, ws, ss")))
            out += [site, discount_code(code)]
        else:
            out += [site, r.site(), NOBODY, NOBODY]
    return tuple(out)


def _gate(r: _Reader, w: str) -> int:
    g = w[4:]
    if not w.startswith("gate") or not is_number(g) or len(g) > 1 or int(g) > 4:
        r.fail(R(N_("{word!r} is not a gatehouse; gatehouses are {first} … {last}"),
                 word=Word("token", w), first=Word("token", "gate0"),
                 last=Word("token", "gate4")))
    return GATE_BASE + 2 * int(g)


_PARSERS = {
    "keep": _p_keep, "np-dwarf": _p_guild, "place": _p_place, "pass": _p_bare,
    "spread": _p_spread, "crest": _p_int1, "build": _p_build, "wall": _p_wall,
    "guild": _p_guild, "activate": _p_activate, "buy": _p_res, "sell": _p_res,
    "exchange": _p_res, "hire": _p_hire, "bank": _p_card, "smith": _p_card,
    "buy-card": _p_card_or_top, "end": _p_bare, "discard": _p_typed, "show": _p_typed,
    "take": _p_card, "np-take": _p_card_or_top, "np-mark": _p_np_mark, "np-skip": _p_bare,
}
