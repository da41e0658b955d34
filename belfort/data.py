"""The board's structure and the game's vocabulary (§1, §2, §13, §14).

Numbers that players might correct (costs, prices, tables) live in the ruleset file
(`standard.toml`, §16); this module holds only what is fixed by the board itself: names,
the order of things, and the layout of symbols ("sites") on the five districts.
"""
from __future__ import annotations

# The one "nothing here" value: a free symbol or plank (no owner, no occupant), no current
# seat, no card (the top of the draw pile in `buy-card` / `np-take`, no NP card), no symbol
# (`np-mark none`, a hire without a gatehouse's second marker).
NOBODY = -1

RESOURCES = ("wood", "stone", "metal", "gold")
# Indexes of a resource vector (a player's `res`, a cost, a gain): (wood, stone, metal, gold).
# Plain ints rather than an IntEnum: an enum member as an index is slower on the hot paths.
WOOD, STONE, METAL, GOLD = range(4)
TRADE_RESOURCES = ("wood", "stone", "metal")

# Card types (§13). The index is the type's id everywhere in the engine.
CARD_TYPES = ("pub", "gardens", "tower", "inn", "blacksmith", "bank", "market",
              "gatehouse", "library", "keep")
PUB, GARDENS, TOWER, INN, BLACKSMITH, BANK, MARKET, GATEHOUSE, LIBRARY, KEEP = range(10)
CARD_TYPE_ID = {name: i for i, name in enumerate(CARD_TYPES)}

# Types whose card carries a worker plank (§13), and those whose plank sits behind the lock.
HAS_PLANK = frozenset((TOWER, INN, BLACKSMITH, MARKET, LIBRARY))
PLANK_BEHIND_LOCK = frozenset((TOWER, INN))   # and its plank costs the property plank fee

# Guilds (§14). The index is the guild's id.
GUILDS = ("merchants", "librarians", "architects", "recruiters",
          "sawyers", "miners", "bankers", "masons",
          "thieves", "bandits", "wizards", "spies")
(MERCHANTS, LIBRARIANS, ARCHITECTS, RECRUITERS, SAWYERS, MINERS, BANKERS, MASONS,
 THIEVES, BANDITS, WIZARDS, SPIES) = range(12)
GUILD_ID = {name: i for i, name in enumerate(GUILDS)}
CATEGORIES = ("basic", "resource", "interactive")

# Worker kinds. Masters are a side of the same piece (§1); the engine derives how many a
# player has from their Pubs/Gardens with a gnome (§13 Decision).
KINDS = ("elf", "master-elf", "dwarf", "master-dwarf")
KIND_ID = {name: i for i, name in enumerate(KINDS)}
KIND_IS_ELF = (True, True, False, False)

# Resource areas (§6, §7) and which kinds each accepts (Decision: forest elves only,
# quarry dwarves only).
AREAS = ("forest", "quarry", "mine", "gold")
FOREST, QUARRY, MINE, GOLDMINE = range(4)
# The three areas a worker of each kind may be spread to, in the order of a `spread` command.
SPREAD_AREAS = (
    (FOREST, MINE, GOLDMINE),
    (FOREST, MINE, GOLDMINE),
    (QUARRY, MINE, GOLDMINE),
    (QUARRY, MINE, GOLDMINE),
)

# --- Sites: every place a marker can go (§2) -------------------------------------------
# Per district d, 12 sites at d*12 + k:
#   k 0..7  one symbol each of pub, gardens, tower, inn, blacksmith, bank, market, library
#   k 8     the keep section (two symbols, built and counted together)
#   k 9,10  the two wall symbols
#   k 11    the guild symbol
# Gatehouse g spans districts g and g+1 mod 5: its symbols are sites 60+2g (district g)
# and 61+2g (district g+1).
DISTRICTS = 5
SITES_PER_DISTRICT = 12
_SINGLE_TYPES = (PUB, GARDENS, TOWER, INN, BLACKSMITH, BANK, MARKET, LIBRARY)
KEEP_SLOT, WALL_A, WALL_B, GUILD_SLOT = 8, 9, 10, 11
GATE_BASE = 60
N_SITES = 70

_site_district: list[int] = []
# markers the site counts for in its district (a keep section counts 2)
_site_weight: list[int] = []
_site_type: list[int | str] = []     # card type, or "wall" / "guild"
_site_name: list[str] = []
for _d in range(DISTRICTS):
    for _k in range(SITES_PER_DISTRICT):
        _site_district.append(_d)
        if _k < 8:
            _t = _SINGLE_TYPES[_k]
            _site_type.append(_t)
            _site_weight.append(1)
            _site_name.append(f"{CARD_TYPES[_t]}@{_d}")
        elif _k == KEEP_SLOT:
            _site_type.append(KEEP)
            _site_weight.append(2)
            _site_name.append(f"keep@{_d}")
        elif _k in (WALL_A, WALL_B):
            _site_type.append("wall")
            _site_weight.append(1)
            _site_name.append(f"wall@{_d}{'ab'[_k - WALL_A]}")
        else:
            _site_type.append("guild")
            _site_weight.append(1)
            _site_name.append(f"guild@{_d}")
for _g in range(DISTRICTS):
    for _half in range(2):
        _d = (_g + _half) % DISTRICTS
        _site_district.append(_d)
        _site_type.append(GATEHOUSE)
        _site_weight.append(1)
        _site_name.append(f"gate{_g}@{_d}")
SITE_DISTRICT = tuple(_site_district)
SITE_WEIGHT = tuple(_site_weight)
SITE_TYPE = tuple(_site_type)
SITE_NAME = tuple(_site_name)
SITE_ID = {name: i for i, name in enumerate(SITE_NAME)}


def guild_site(district: int) -> int:
    return district * SITES_PER_DISTRICT + GUILD_SLOT


# Sites a card of each type is built on (gatehouse: every symbol; legality checks its pair).
SITES_OF_TYPE = tuple(
    tuple(s for s in range(N_SITES) if SITE_TYPE[s] == t) for t in range(len(CARD_TYPES))
)
WALL_SITES = tuple(s for s in range(N_SITES) if SITE_TYPE[s] == "wall")
GUILD_SITES = tuple(guild_site(d) for d in range(DISTRICTS))

# Plank codes in commands: the recruiter's desk, the King's camp, a guild's plank
# (GUILD_PLANK + guild id) or a built card's plank (CARD_PLANK + card id).
DESK, CAMP, GUILD_PLANK, CARD_PLANK = 0, 1, 100, 1000

