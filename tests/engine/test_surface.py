"""The engine's documented surface: the field tables of docs/engine.md are exactly
the fields the views produce, the events table is exactly the events `apply` and `reveal`
return, and the decisions table is the one legality, explanations and views read."""

import re
from collections import defaultdict
from pathlib import Path

import pytest

import belfort
from belfort import (apply, command_text, learn, legal_commands, new_game, public_view,
                     reveal, seat_view, set_up)
from belfort.commands import VERBS
from belfort.data import CARD_TYPES, SITE_NAME, SITE_TYPE
from belfort.phases import BY_KEY, DECISIONS, decision
from belfort.prng import Prng

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text("utf-8")


def doc_tables():
    """{schema name: [first-cell backticked names per row]} from the marked tables."""
    out = {}
    for m in re.finditer(r"<!-- schema: ([\w ]+) -->\n((?:\|.*\n)+)", DOC):
        rows = [r for r in m.group(2).splitlines()[2:]]
        out[m.group(1)] = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    return out


TABLES = doc_tables()
OBJECTS = ("public_view", "seat_view", "player", "built", "guild", "occupant", "card", "turn",
           "spies", "decision", "score record", "result")


def documented_fields(name):
    return {f for row in TABLES[name] for f in re.findall(r"`([^`]+)`", row[0])}


# --- views ---------------------------------------------------------------------------------

def shapes_of(view, out, viewer=None):
    public = set(view) - {"seat", "hand", "my_keep", "my_shown"}
    out["public_view"] |= public
    if viewer is not None:
        out["seat_view"] |= set(view) - public
        for c in view["hand"]:
            out["card"] |= set(c)

    def occupant(o):
        if o is not None:
            out["occupant"] |= set(o)

    for p in view["players"]:
        out["player"] |= set(p)
        for b in p["built"]:
            out["built"] |= set(b)
            occupant(b["plank"])
    for g in view["guilds"]:
        out["guild"] |= set(g)
        occupant(g["plank"])
    for o in view["recruiters_desk"] + view["kings_camp"]:
        occupant(o)
    for c in view["pool"] + view["discard"] + ([view["np_card"]] if view["np_card"] else []):
        out["card"] |= set(c)
    for key, name in (("turn", "turn"), ("spies", "spies"), ("decision", "decision"),
                      ("result", "result")):
        if view[key] is not None:
            out[name] |= set(view[key])
    for rec in view["score_log"]:
        out["score record"] |= set(rec)


@pytest.fixture(scope="module")
def produced():
    """Fields and events seen over whole random games (2–5 players, every guild mode), every
    seat's view at every few decisions, plus the rare events made on purpose."""
    fields = defaultdict(set)
    events = set()
    for n in (2, 3, 4, 5):
        for mode in ("beginner", "normal", "advanced"):
            seed = f"surface-{n}-{mode}"
            game = new_game(n, {"guilds": mode}, seed=seed)
            rng = Prng(seed)
            k = 0
            while not game.is_over():
                k += 1
                if k % 3 == 0 or game.phase == "keep" or game.step == "spies-show":
                    shapes_of(public_view(game), fields)
                    for seat in range(n):
                        shapes_of(seat_view(game, seat), fields, seat)
                seat = game.waiting_for()[0]
                cmds = legal_commands(game, seat)
                for e in apply(game, cmds[rng.below(len(cmds))], seat):
                    events.add((e[0], len(e)))
            shapes_of(public_view(game), fields)
    events |= {(e[0], len(e)) for e in np_skip_events() + reveal_events()}
    return fields, events


def np_skip_events():
    """§12: a non-player with nothing left to take skips — every card is built here."""
    built = [[], []]
    for t in CARD_TYPES:
        sites = [x for x in range(len(SITE_NAME)) if SITE_TYPE[x] == CARD_TYPES.index(t)]
        if t == "gatehouse":
            sites = sites[::2]
        for i, x in enumerate(sites):
            built[i % 2].append({"type": t, "site": SITE_NAME[x]})
    g = set_up({"players": [{"built": built[0]}, {"built": built[1]}],
                "guilds": ["merchants", "miners", "architects", "sawyers", "wizards"],
                "np_dwarves": ["miners", "sawyers"], "phase": "actions", "pool": []})
    out = []
    while g.phase != "np-turn" or g.step != "np-take":
        out += apply(g, "end", g.current)
    assert legal_commands(g, g.current) == [("np-skip",)]
    return out + apply(g, "np-skip", g.current)


def reveal_events():
    """§15: in a networked game a card dealt to the pool waits for `reveal`."""
    full = new_game(3, seed="reveal")
    hidden = new_game(3, seed="reveal", hidden=True)
    for seat in range(3):
        for c in full.players[seat].hand:
            learn(hidden, c, full.types[c])
        cmd = legal_commands(full, seat)[0]
        apply(full, cmd, seat)
        apply(hidden, command_text(cmd), seat)
    card = hidden.reveal_queue[0]
    return reveal(hidden, card, full.types[card])


@pytest.mark.parametrize("name", OBJECTS)
def test_documented_view_fields_are_exactly_those_produced(produced, name):
    fields, _ = produced
    assert fields[name] == documented_fields(name), \
        f"{name}: undocumented {fields[name] - documented_fields(name)}, " \
        f"never produced {documented_fields(name) - fields[name]}"


def test_every_schema_table_is_checked():
    assert set(TABLES) == set(OBJECTS) | {"events", "decisions"}


# --- events ----------------------------------------------------------------------------------

def documented_events():
    out = set()
    for row in TABLES["events"]:
        for tup in re.findall(r"`\((.*?)\)`", row[0]):
            parts = [p.strip() for p in re.split(r",(?![^(]*\))", tup) if p.strip()]
            out.add((parts[0].strip('"'), len(parts)))
    return out


def test_documented_events_are_exactly_those_returned(produced):
    _, events = produced
    doc = documented_events()
    assert events == doc, f"undocumented {events - doc}, never returned {doc - events}"


# --- the decisions table ---------------------------------------------------------------------

def test_the_documented_decisions_table_is_the_engines():
    doc = []
    for phase, step, verbs, rule, who in TABLES["decisions"]:
        doc.append((phase.strip("`"), step.strip("`"),
                    tuple(v.strip() for v in verbs.split(",") if v.strip()), rule,
                    who.split()[0]))
    assert doc == [(d.phase, d.step, d.verbs, d.rule, d.who) for d in DECISIONS]


def test_legality_execution_and_parsing_cover_exactly_the_tables_verbs():
    from belfort.apply import _EXECUTE
    from belfort.legal import _GENERATORS
    verbs = [v for d in DECISIONS for v in d.verbs]
    assert sorted(verbs) == sorted(set(verbs)) == sorted(VERBS) == sorted(_EXECUTE)
    assert set(_GENERATORS) == set(BY_KEY) - {("over", "")}


@pytest.mark.parametrize("n", [2, 3, 5])
def test_every_legal_command_is_of_the_current_decisions_verbs(n):
    game = new_game(n, {"guilds": "advanced"}, seed=f"verbs-{n}")
    rng = Prng(f"verbs-{n}")
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        now = decision(game)
        assert {c[0] for c in cmds} <= set(now.verbs), (now, cmds)
        assert public_view(game)["decision"]["verbs"] == list(now.verbs)
        apply(game, cmds[rng.below(len(cmds))], seat)
    assert public_view(game)["decision"] == {"verbs": [], "rule": "§11", "who": "none",
                                             "what": "nothing: the game is over"}


def test_a_refusal_names_the_decisions_rule_and_instruction():
    """explain.py reads the table: a command of the wrong verb in a step is refused with the
    step's rule and what it waits for."""
    g = set_up({"players": [{"hand": ["pub"] * 5 + ["inn"] * 3}, {}, {}],
                "guilds": ["merchants", "miners", "architects", "thieves", "wizards"],
                "phase": "actions"})
    apply(g, "end", 0)
    assert g.step == "discard"
    with pytest.raises(belfort.IllegalCommandError) as err:
        apply(g, "end", 0)
    assert err.value.rule == "§8" and err.value.reason == BY_KEY["actions", "discard"].what
