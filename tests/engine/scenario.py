"""Scenario helpers for the rules tests (docs/rules.md §1–§16).

Everything is fixed: the guilds (district 0 first), the crests (seat i holds crest i+1
unless told otherwise), the deck order (`deck(...)`: the given types on top, then the rest
of the 5-of-each deck round-robin). Games are driven with real commands; positions that
would take many rounds to reach are set up directly by mutating state fields through the
helpers below (each clears the engine's legal-command cache).

Card ids follow the deal: with n players seat s holds ids 5s … 5s+4, the pool is dealt
ids 5n, 5n+1, 5n+2, and the draw pile continues from 5n+3.
"""

from belfort import CARD_TYPES, apply, legal_commands, new_game, to_json
from belfort.data import CARD_TYPE_ID, SITE_ID, guild_site

GUILDS5 = ("merchants", "miners", "architects", "thieves", "wizards")  # district 0 … 4
GUILDS2P = ("merchants", "miners", "architects", "sawyers", "wizards")
COLOURS = ("Red", "Yellow", "Purple", "Blue", "Green")


def deck(*top):
    """50 type names, top card first: `top`, then the remaining cards round-robin by type."""
    left = {t: 5 for t in CARD_TYPES}
    for t in top:
        left[t] -= 1
        assert left[t] >= 0, f"more than 5 {t} cards"
    rest = []
    for _ in range(5):
        for t in CARD_TYPES:
            if left[t]:
                left[t] -= 1
                rest.append(t)
    return list(top) + rest


def new(n=4, guilds=None, crests=None, top=(), seed="scenario", ruleset=None, names=None):
    """A fixed game in the keep phase."""
    if guilds is None:
        guilds = GUILDS2P if n == 2 else GUILDS5
    if crests is None:
        crests = list(range(1, n + 1))
    players = list(names) if names else list(COLOURS[:n])
    return new_game(players, {"guilds": list(guilds), "crests": list(crests)}, seed=seed,
                    deck=deck(*top), ruleset=ruleset)


def keep_text(g, seat, kept=None):
    hand = sorted(g.players[seat].hand)
    kept = list(kept) if kept is not None else hand[:3]
    dropped = [c for c in hand if c not in kept]
    return ("keep " + " ".join(f"#{c}" for c in kept) + " drop "
            + " ".join(f"#{c}:{CARD_TYPES[g.types[c]]}" for c in dropped))


def keep_all(g, keeps=None):
    """§3.3: every seat keeps its three lowest ids (or keeps[seat])."""
    keeps = keeps or {}
    for seat in range(g.n):
        apply(g, keep_text(g, seat, keeps.get(seat)), seat)


def start(n=4, np_guilds=("merchants", "miners"), **kw):
    """A fixed game at the start of round 1's Placement (keep-3 done; NP dwarves placed on
    `np_guilds` in a 2-player game)."""
    g = new(n, **kw)
    keep_all(g)
    if n == 2:
        apply(g, f"np-dwarf {np_guilds[0]}")
        apply(g, f"np-dwarf {np_guilds[1]}")
    assert g.phase == "placement" and g.round == 1
    return g


def fresh(g):
    """After mutating state by hand: drop the engine's cached legal commands."""
    g.changed()
    return g


def neutral(g, seat):
    """A command that changes as little as possible: pass, end, keep one's own crest, else
    the first legal command (spread: everything to forest/quarry; the first activation
    option; discard the lowest card; the first NP choice)."""
    cmds = legal_commands(g, seat)
    assert cmds, f"seat {seat} has nothing to do"
    for pref in (("pass",), ("end",)):
        if pref in cmds:
            return pref
    if cmds[0][0] == "crest":
        own = ("crest", g.crest[seat])
        return own if own in cmds else cmds[0]
    return cmds[0]


def run(g, until, chooser=neutral, limit=5000):
    """Apply `chooser`'s commands until `until(g)` holds."""
    for _ in range(limit):
        if until(g):
            return g
        seats = g.waiting_for()
        assert seats, "the game waits for nobody"
        seat = seats[0]
        apply(g, chooser(g, seat), seat)
    raise AssertionError("the scenario did not reach the wanted point")


def to_actions(g):
    """From Placement: everyone passes (workers spread to forest/quarry), camp keeps crests,
    until the Actions phase starts."""
    return run(g, lambda s: s.phase == "actions")


def finish_round(g):
    """Play neutrally until the next round's Placement (or the end of the game)."""
    r = g.round
    return run(g, lambda s: s.is_over() or (s.round > r and s.phase == "placement"))


def to_round(g, r):
    return run(g, lambda s: s.is_over() or (s.round == r and s.phase == "placement"))


def end_turns_until(g, seat):
    """In the Actions phase, the others end their turns until it is `seat`'s turn."""
    return run(g, lambda s: s.phase == "actions" and s.current == seat and s.step == "")


# --- direct setup --------------------------------------------------------------------------

def take_card(g, t):
    """Remove the deepest card of type `t` from the draw pile and return its id."""
    tid = CARD_TYPE_ID[t]
    for c in g.draw:               # g.draw[0] is the bottom card
        if g.types[c] == tid:
            g.draw.remove(c)
            return c
    raise AssertionError(f"no {t} left in the draw pile")


def give_hand(g, seat, t):
    c = take_card(g, t)
    g.players[seat].hand.append(c)
    fresh(g)
    return c


def give_built(g, seat, t, site=None, gnomes=0):
    """A built card of type `t` for `seat` (marker on `site` if given, gnomes on its locks)."""
    c = take_card(g, t)
    g.players[seat].built.append(c)
    g.owner[c] = seat
    g.public[c] = True
    if site is not None:
        mark(g, seat, site)
    if gnomes:
        g.gnomes[c] = gnomes
        g.gnome_supply -= gnomes
    fresh(g)
    return c


def mark(g, seat, *sites):
    for site in sites:
        g.board[SITE_ID[site] if isinstance(site, str) else site] = seat
    fresh(g)


def own_guild(g, seat, guild):
    g.board[guild_site(g.guilds.index(_gid(guild)))] = seat
    fresh(g)


def _gid(guild):
    from belfort.data import GUILD_ID
    return GUILD_ID[guild] if isinstance(guild, str) else guild


def set_res(g, seat, wood=0, stone=0, metal=0, gold=0):
    g.players[seat].res = [wood, stone, metal, gold]
    fresh(g)


def res(g, seat):
    return tuple(g.players[seat].res)


def set_workers(g, seat, elves, dwarves, master_elves=0, master_dwarves=0):
    """Workers in play; masters come from Gardens / Pubs with a gnome (§13 Decision)."""
    p = g.players[seat]
    p.elves, p.dwarves = elves, dwarves
    for _ in range(master_elves):
        give_built(g, seat, "gardens", gnomes=1)
    for _ in range(master_dwarves):
        give_built(g, seat, "pub", gnomes=1)
    fresh(g)


def site(name):
    return SITE_ID[name]


def snapshot(g):
    return to_json(g)


def events_of(events, kind):
    return [e for e in events if e[0] == kind]
