"""Rulesets (§16): the game's numbers, read from a TOML file and checked field by field.

`load_ruleset()` gives the standard ruleset shipped in the package; `load_ruleset(path)` or
`parse_ruleset(text)` another one; `load_ruleset("ten-space-taxes")` a shipped variant. A
file may give only what it changes (`based_on = "standard"`). A malformed file raises
`RulesetError` naming the field.
`Ruleset.sha256` is the hash of the canonical content (not of the file's bytes, so comments
and layout do not change a game's identity).
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from bisect import bisect_right
from importlib import resources
from typing import Any

from .data import CARD_TYPES, CATEGORIES, GUILDS, RESOURCES, TRADE_RESOURCES
from .errors import RulesetError


def _int(value: object, path: str, low: int = 0, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(path, f"expected an integer, got {value!r}")
    if not low <= value <= high:
        raise RulesetError(path, f"expected an integer from {low} to {high}, got {value}")
    return value


def _table(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RulesetError(path, f"expected a table, got {value!r}")
    return value


def _get(table: dict[str, Any], key: str, path: str) -> Any:
    if key not in table:
        raise RulesetError(f"{path}.{key}" if path else key, "missing")
    return table[key]


def _no_extra(table: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in table:
        if key not in allowed:
            where = f"{path}.{key}" if path else key
            raise RulesetError(where, "unknown field")


def _int_list(value: object, path: str, length: int | None = None, low: int = 0,
              high: int = 10**6) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RulesetError(path, f"expected a list of integers, got {value!r}")
    if length is not None and len(value) != length:
        raise RulesetError(path, f"expected {length} entries, got {len(value)}")
    return tuple(_int(v, f"{path}[{i}]", low, high) for i, v in enumerate(value))


def _cost(value: object, path: str, keys: tuple[str, ...] = RESOURCES) -> tuple[int, ...]:
    table = _table(value, path)
    _no_extra(table, keys, path)
    return tuple(_int(table.get(k, 0), f"{path}.{k}", 0, 99) for k in keys)


def architects_discounts(metal: int, wood_stone: int) -> dict[str, tuple[int, int, int]]:
    """§14 Architects: discount code → (wood, stone, metal) off. 'm' repeated `metal` times
    takes that much metal off; a word of `wood_stone` letters w/s (w first) takes that much
    wood and stone in the mix it spells: with the standard 1 and 2, m, ww, ss and ws."""
    out = {}
    if metal:
        out["m" * metal] = (0, 0, metal)
    if wood_stone:
        out["w" * wood_stone] = (wood_stone, 0, 0)
        out["s" * wood_stone] = (0, wood_stone, 0)
        for w in range(wood_stone - 1, 0, -1):
            out["w" * w + "s" * (wood_stone - w)] = (w, wood_stone - w, 0)
    return out


# Fields added when every number moved into the ruleset, with the values the
# engine used before it read them. A ruleset written before (a saved game, a game log, a
# player's copy of the old file) lacks them and plays as it did then, with the same hash.
EARLIER_DEFAULTS: dict[str, dict[str, Any]] = {
    "collection": {"master_collects": 2, "area_bonus": 1},
    "scoring": {"unpaid_tax_vp": 1, "tiebreak": {"wood": 1, "stone": 1, "metal": 2, "gold": 1}},
    "trading_post": {"visits": 1},
    "properties": {t: {"locks": k} for t, k in zip(CARD_TYPES, (1, 1, 1, 1, 1, 1, 2, 1, 1, 0))},
    "locks": {"bank_gold": 1, "blacksmith_gold": 1, "blacksmith_metal": 1,
              "market_visits": 1, "library_draw": 1},
    "activations": {"architects_metal_discount": 1, "architects_wood_stone_discount": 2,
                    "thieves_each": 1, "bandits_metal": 1, "bandits_each": 1},
}


def _with_earlier_defaults(raw: dict[str, Any]) -> dict[str, Any]:
    """`raw` with the fields of EARLIER_DEFAULTS it lacks filled in — only when it lacks all
    of them (a ruleset from before they existed); a newer ruleset must give each one."""
    if any(key in raw for key in ("collection", "locks")):
        return raw
    out = dict(raw)
    for key, values in EARLIER_DEFAULTS.items():
        table = out.get(key)
        if table is None:
            out[key] = values
        elif isinstance(table, dict):
            merged = dict(table)
            for field, value in values.items():
                if field not in merged:
                    merged[field] = value
                elif isinstance(value, dict) and isinstance(merged[field], dict):
                    merged[field] = {**value, **merged[field]}
            out[key] = merged
    return out


class Ruleset:
    """The checked numbers of one ruleset. Attributes are plain ints, tuples and dicts:

    rounds, scoring_rounds, cards_per_type, pool_size, deal, keep, hand_limit;
    workers_per_colour, workers_start, max_masters; start (w, s, m, g);
    fee_recruiter_desk, fee_guild_plank, fee_property_plank, fee_gnome_hire,
    fee_card_purchase; gnomes, desk_planks, camp_planks (by player count);
    master_collects, area_bonus; district_points, district_third_from, worker_points,
    np_elves, np_dwarves, tax_levels (tax_for(score)), unpaid_tax_vp, tiebreak;
    trade_visits, trade_buy, trade_sell; wall_cost; card_cost, card_income, locks (by card
    type); lock_bank_gold, lock_blacksmith_gold, lock_blacksmith_metal, lock_market_visits,
    lock_library_draw; guild_cost, guild_category, guild_yield, resource_guild_yields,
    guild_modes; the [activations] fields by name, and discounts (architects_discounts).
    """

    # The fields set by name from the [fees], [locks] and [activations] tables.
    fee_recruiter_desk: int
    fee_guild_plank: int
    fee_property_plank: int
    fee_gnome_hire: int
    fee_card_purchase: int
    lock_bank_gold: int
    lock_blacksmith_gold: int
    lock_blacksmith_metal: int
    lock_market_visits: int
    lock_library_draw: int
    merchants_exchanges: int
    merchants_extra_visits: int
    librarians_draw: int
    librarians_discard: int
    library_draw: int
    library_discard: int
    market_gold: int
    blacksmith_metal: int
    architects_metal_discount: int
    architects_wood_stone_discount: int
    thieves_one: int
    thieves_each: int
    bandits_one: int
    bandits_metal: int
    bandits_each: int
    max_targets: int
    np_guild_gold: int

    def __init__(self, raw: dict[str, Any]) -> None:
        if not isinstance(raw, dict):
            raise RulesetError("(file)", "a ruleset is a table of fields")
        raw = _resolve(raw)
        self.raw = raw
        self._read(_with_earlier_defaults(raw))
        canonical = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        self.canonical = canonical
        self.sha256 = hashlib.sha256(canonical.encode()).hexdigest()

    def _read(self, raw: dict[str, Any]) -> None:
        top = ("name", "rounds", "scoring_rounds", "cards_per_type", "pool_size", "deal", "keep",
               "hand_limit", "workers", "start", "fees", "table", "collection", "scoring",
               "trading_post", "wall", "properties", "locks", "guilds", "guild_modes",
               "activations")
        _no_extra(raw, top, "")
        name = _get(raw, "name", "")
        if not isinstance(name, str) or not name:
            raise RulesetError("name", "expected a non-empty string")
        self.name = name
        self.rounds = _int(_get(raw, "rounds", ""), "rounds", 1, 20)
        self.scoring_rounds = _int_list(_get(raw, "scoring_rounds", ""), "scoring_rounds",
                                        low=1, high=self.rounds)
        if list(self.scoring_rounds) != sorted(set(self.scoring_rounds)) or \
                self.rounds not in self.scoring_rounds:
            raise RulesetError("scoring_rounds",
                               "expected increasing rounds ending with the last round")
        self.cards_per_type = _int(_get(raw, "cards_per_type", ""), "cards_per_type", 1, 20)
        self.pool_size = _int(_get(raw, "pool_size", ""), "pool_size", 0, 10)
        self.deal = _int(_get(raw, "deal", ""), "deal", 0, 10)
        self.keep = _int(_get(raw, "keep", ""), "keep", 0, self.deal)
        self.hand_limit = _int(_get(raw, "hand_limit", ""), "hand_limit", 0, 50)
        if self.deal * 5 + self.pool_size > self.cards_per_type * len(CARD_TYPES):
            raise RulesetError("deal", "the deck is too small to deal this many cards to 5 players")

        w = _table(_get(raw, "workers", ""), "workers")
        _no_extra(w, ("per_colour", "start_in_play", "max_masters"), "workers")
        self.workers_per_colour = _int(_get(w, "per_colour", "workers"), "workers.per_colour", 1,
                                       30)
        self.workers_start = _int(_get(w, "start_in_play", "workers"), "workers.start_in_play",
                                  0, self.workers_per_colour)
        self.max_masters = _int(_get(w, "max_masters", "workers"), "workers.max_masters",
                                0, self.workers_per_colour)

        self.start = _cost(_get(raw, "start", ""), "start")

        f = _table(_get(raw, "fees", ""), "fees")
        fee_keys = ("recruiter_desk", "guild_plank", "property_plank", "gnome_hire",
                    "card_purchase")
        _no_extra(f, fee_keys, "fees")
        for k in fee_keys:
            setattr(self, "fee_" + k, _int(_get(f, k, "fees"), f"fees.{k}", 0, 99))

        t = _table(_get(raw, "table", ""), "table")
        _no_extra(t, ("gnomes", "recruiter_desk_planks", "kings_camp_planks"), "table")
        self.gnomes = _int_list(_get(t, "gnomes", "table"), "table.gnomes", 6, 0, 200)
        self.desk_planks = _int_list(_get(t, "recruiter_desk_planks", "table"),
                                     "table.recruiter_desk_planks", 6, 0, 10)
        self.camp_planks = _int_list(_get(t, "kings_camp_planks", "table"),
                                     "table.kings_camp_planks", 6, 0, 10)

        c = _table(_get(raw, "collection", ""), "collection")
        _no_extra(c, ("master_collects", "area_bonus"), "collection")
        self.master_collects = _int(_get(c, "master_collects", "collection"),
                                    "collection.master_collects", 0, 9)
        self.area_bonus = _int(_get(c, "area_bonus", "collection"), "collection.area_bonus", 0, 9)

        s = _table(_get(raw, "scoring", ""), "scoring")
        _no_extra(s, ("district", "district_third_from_players", "workers", "non_player_elves",
                      "non_player_dwarves", "taxes", "unpaid_tax_vp", "tiebreak"), "scoring")
        self.district_points = _int_list(_get(s, "district", "scoring"), "scoring.district", 3, 0,
                                         99)
        self.district_third_from = _int(_get(s, "district_third_from_players", "scoring"),
                                        "scoring.district_third_from_players", 2, 6)
        self.worker_points = _int_list(_get(s, "workers", "scoring"), "scoring.workers", 2, 0, 99)
        self.np_elves = _int(_get(s, "non_player_elves", "scoring"), "scoring.non_player_elves", 0,
                             30)
        self.np_dwarves = _int(_get(s, "non_player_dwarves", "scoring"),
                               "scoring.non_player_dwarves", 0, 30)
        taxes = _get(s, "taxes", "scoring")
        if not isinstance(taxes, list) or not taxes:
            raise RulesetError("scoring.taxes", "expected a list of [min_score, tax] pairs")
        levels = []
        for i, pair in enumerate(taxes):
            levels.append(_int_list(pair, f"scoring.taxes[{i}]", 2, 0, 10**4))
        if any(b[0] <= a[0] for a, b in zip(levels, levels[1:])):
            raise RulesetError("scoring.taxes", "the levels' scores must increase (a score "
                                                "below the first level pays nothing)")
        self.tax_levels = tuple(levels)
        # For tax_for: the levels' scores, and the tax below the first level (0) then each's.
        self._tax_lows = tuple(low for low, _ in levels)
        self._tax_amounts = (0,) + tuple(amount for _, amount in levels)
        self.unpaid_tax_vp = _int(_get(s, "unpaid_tax_vp", "scoring"), "scoring.unpaid_tax_vp",
                                  0, 9)
        self.tiebreak = _cost(_get(s, "tiebreak", "scoring"), "scoring.tiebreak")

        tp = _table(_get(raw, "trading_post", ""), "trading_post")
        _no_extra(tp, ("visits", "buy", "sell"), "trading_post")
        self.trade_visits = _int(_get(tp, "visits", "trading_post"), "trading_post.visits", 0, 9)
        self.trade_buy = _cost(_get(tp, "buy", "trading_post"), "trading_post.buy", TRADE_RESOURCES)
        self.trade_sell = _cost(_get(tp, "sell", "trading_post"), "trading_post.sell",
                                TRADE_RESOURCES)

        wall = _table(_get(raw, "wall", ""), "wall")
        _no_extra(wall, ("cost",), "wall")
        self.wall_cost = _cost(_get(wall, "cost", "wall"), "wall.cost")

        props = _table(_get(raw, "properties", ""), "properties")
        _no_extra(props, CARD_TYPES, "properties")
        costs, incomes, locks = [], [], []
        for name in CARD_TYPES:
            path = f"properties.{name}"
            p = _table(_get(props, name, "properties"), path)
            _no_extra(p, ("cost", "income", "locks"), path)
            costs.append(_cost(_get(p, "cost", path), path + ".cost"))
            incomes.append(_int(_get(p, "income", path), path + ".income", 0, 9))
            locks.append(_int(_get(p, "locks", path), path + ".locks", 0, 4))
        self.card_cost = tuple(costs)
        self.card_income = tuple(incomes)
        self.locks = tuple(locks)

        lk = _table(_get(raw, "locks", ""), "locks")
        lock_keys = ("bank_gold", "blacksmith_gold", "blacksmith_metal", "market_visits",
                     "library_draw")
        _no_extra(lk, lock_keys, "locks")
        for k in lock_keys:
            setattr(self, "lock_" + k, _int(_get(lk, k, "locks"), f"locks.{k}", 0, 20))

        guilds = _table(_get(raw, "guilds", ""), "guilds")
        _no_extra(guilds, GUILDS, "guilds")
        gcost, gcat, gyield = [], [], []
        for name in GUILDS:
            path = f"guilds.{name}"
            g = _table(_get(guilds, name, "guilds"), path)
            _no_extra(g, ("category", "cost", "yields"), path)
            cat = _get(g, "category", path)
            if cat not in CATEGORIES:
                raise RulesetError(path + ".category", f"expected one of {', '.join(CATEGORIES)}")
            gcat.append(CATEGORIES.index(cat))
            gcost.append(_cost(_get(g, "cost", path), path + ".cost"))
            if cat == "resource":
                gyield.append(_cost(_get(g, "yields", path), path + ".yields"))
            elif "yields" in g:
                raise RulesetError(path + ".yields", "only resource guilds yield resources")
            else:
                gyield.append((0, 0, 0, 0))
        self.guild_cost = tuple(gcost)
        self.guild_category = tuple(gcat)
        self.guild_yield = tuple(gyield)

        modes = _table(_get(raw, "guild_modes", ""), "guild_modes")
        _no_extra(modes, ("beginner", "normal"), "guild_modes")
        self.guild_modes = {}
        for mode in ("beginner", "normal"):
            path = f"guild_modes.{mode}"
            m = _table(_get(modes, mode, "guild_modes"), path)
            _no_extra(m, CATEGORIES, path)
            counts = tuple(_int(_get(m, c, path), f"{path}.{c}", 0, 5) for c in CATEGORIES)
            if sum(counts) != 5:
                raise RulesetError(path, "the counts must add up to 5 guilds")
            for cat, n in zip(CATEGORIES, counts):
                if n > gcat.count(CATEGORIES.index(cat)):
                    raise RulesetError(f"{path}.{cat}", f"there are not {n} {cat} guilds")
            self.guild_modes[mode] = counts

        a = _table(_get(raw, "activations", ""), "activations")
        akeys = ("merchants_exchanges", "merchants_extra_visits", "librarians_draw",
                 "librarians_discard", "library_draw", "library_discard", "market_gold",
                 "blacksmith_metal", "architects_metal_discount",
                 "architects_wood_stone_discount", "thieves_one", "thieves_each", "bandits_one",
                 "bandits_metal", "bandits_each", "max_targets", "np_guild_gold")
        _no_extra(a, akeys, "activations")
        for k in akeys:
            setattr(self, k, _int(_get(a, k, "activations"), f"activations.{k}", 0, 20))
        if self.max_targets < 2:
            raise RulesetError("activations.max_targets", "expected at least 2")
        for k in ("architects_metal_discount", "architects_wood_stone_discount"):
            if getattr(self, k) > 9:
                raise RulesetError(f"activations.{k}", "expected an integer from 0 to 9")
        for k in ("thieves_one", "thieves_each", "bandits_one", "bandits_metal", "bandits_each"):
            if getattr(self, k) < 1:
                raise RulesetError(f"activations.{k}", "expected at least 1 (§14: the guild "
                                                       "takes something)")
        self.discounts = architects_discounts(self.architects_metal_discount,
                                              self.architects_wood_stone_discount)
        self.resource_guild_yields = {g: self.guild_yield[g] for g in range(len(GUILDS))
                                      if CATEGORIES[self.guild_category[g]] == "resource"}

    def tax_for(self, score: int) -> int:
        """§9.7: the gold a player on `score` pays: that of the highest level whose score it
        reaches (the levels' scores increase), 0 below the first."""
        return self._tax_amounts[bisect_right(self._tax_lows, score)]


# Rulesets shipped in the package, by name: the standard one and its variants
# (docs/rules.md §16).
SHIPPED = {
    "standard": "standard.toml",
    "ten-space-taxes": "ten-space-taxes.toml",   # the first reconstruction's tax ladder (§9.7)
}


def shipped_rulesets() -> tuple[str, ...]:
    """Names of the rulesets shipped with the game (`load_ruleset(name)` loads one)."""
    return tuple(SHIPPED)


def parse_ruleset(text: str, source: str = "<ruleset>") -> Ruleset:
    """The ruleset in TOML `text`. A file may start from a shipped ruleset with
    `based_on = "standard"` and give only the fields it changes; tables are merged field by
    field, lists and values replaced whole. The result is the merged ruleset: its hash does
    not depend on how it was written."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError("(file)", f"{source} is not valid TOML: {exc}") from None
    except RecursionError:   # tomllib recurses once per nesting level
        raise RulesetError("(file)", f"{source} is nested too deeply to be a ruleset") from None
    return Ruleset(raw)


def _resolve(raw: dict[str, Any]) -> dict[str, Any]:
    if "based_on" not in raw:
        return raw
    base = raw["based_on"]
    if base not in SHIPPED:
        raise RulesetError("based_on", f"expected the name of a shipped ruleset "
                                       f"({', '.join(SHIPPED)}), got {base!r}")
    base_raw = tomllib.loads(_shipped_text(base))
    if "based_on" in base_raw:
        base_raw = _resolve(base_raw)
    changes = {k: v for k, v in raw.items() if k != "based_on"}
    return _merge(base_raw, changes, "")


def _merge(base: dict[str, Any], changes: dict[str, Any], path: str) -> dict[str, Any]:
    out = dict(base)
    for key, value in changes.items():
        where = f"{path}.{key}" if path else key
        if key not in base:
            raise RulesetError(where, "unknown field (not in the ruleset it is based on)")
        if isinstance(value, dict) and isinstance(base[key], dict):
            out[key] = _merge(base[key], value, where)
        else:
            out[key] = value
    return out


def _shipped_text(name: str) -> str:
    return resources.files(__package__).joinpath(SHIPPED[name]).read_text("utf-8")


def load_ruleset(path: str | None = None) -> Ruleset:
    """The ruleset in the TOML file at `path`; a shipped ruleset by name ("standard",
    "ten-space-taxes"); or, with no argument, the standard one shipped with the game."""
    if path is None:
        path = "standard"
    if isinstance(path, str) and path in SHIPPED:
        return parse_ruleset(_shipped_text(path), SHIPPED[path])
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise RulesetError("(file)", f"cannot read {path}: {exc.strerror}; the shipped "
                                     f"rulesets are {', '.join(SHIPPED)}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetError("(file)", f"{path} is not UTF-8 text") from None
    return parse_ruleset(text, str(path))


_STANDARD = None


def standard_ruleset() -> Ruleset:
    global _STANDARD
    if _STANDARD is None:
        _STANDARD = load_ruleset()
    return _STANDARD
