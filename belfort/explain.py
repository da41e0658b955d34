"""Why a well-formed command is illegal now: the rule (§) it breaks, in words.

Only called after `legal_commands` has said no, so it may be slow; it never decides
legality itself (that stays with `legal_commands`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (CAMP, CARD_PLANK, CARD_TYPES, DESK, GATE_BASE, GUILD_PLANK,
                   GUILDS, HAS_PLANK, KINDS, NOBODY, PLANK_BEHIND_LOCK, RESOURCES, SITE_NAME,
                   SITE_TYPE, N_SITES)
from .data import GOLD
from .commands import BuyCard, named
from .phases import PHASE_RULE, decision
from .reasons import N_, Cost, Reason as R, Word, words
from .state import OVER

if TYPE_CHECKING:
    from collections.abc import Callable

    from . import commands as cm
    from .commands import Command
    from .reasons import Reason
    from .state import GameState, Player


def _not_a(c: int, t: int) -> Reason:
    if isinstance(t, int) and 0 <= t < 10:
        return R(N_("card #{c} is not a {card}"), c=c, card=Word("card", CARD_TYPES[t]))
    return R(N_("card #{c} is not a {card}"), c=c, card=t)


def _short(res: list[int], cost: tuple[int, ...]) -> list[str | Any]:
    return [RESOURCES[i] for i in range(4) if res[i] < cost[i]]


def why_illegal(s: GameState, cmd: Command, seat: int | None,
                impossible_claim: bool = False) -> tuple[str, Reason]:
    verb = cmd[0]
    if s.phase == OVER:
        return "§11", R(N_("the game is over"))
    if s.reveal_queue:
        return "§15", R(N_("a card is waiting to be revealed to everyone first"))
    if seat is None:
        return "§4", R(N_("several seats may act now; say which seat gives the command"))
    if not isinstance(seat, int) or not 0 <= seat < s.n:
        return "§1", R(N_("there is no seat {seat!r}"), seat=seat)
    if impossible_claim:
        return "§15", R(N_("that card cannot be of the type claimed (all cards of it are "
                           "accounted for)"))
    waiting = s.waiting_for()
    rule = PHASE_RULE.get(s.phase, "§4")
    if seat not in waiting:
        if not waiting:
            return rule, R(N_("{name} (seat {seat}) has no decision to make now; waiting for "
                              "nobody"), name=s.names[seat], seat=seat)
        return rule, R(N_("{name} (seat {seat}) has no decision to make now; waiting for "
                          "{names}"), name=s.names[seat], seat=seat,
                       names=", ".join(s.names[w] for w in waiting))
    now = decision(s)
    if now is not None and verb not in now.verbs:
        if s.step:
            return now.rule, R(now.what, keep=s.rs.keep)
        return rule, R(N_("'{verb}' is not possible during {phase}"), verb=Word("verb", verb),
                       phase=Word("phase", s.phase))
    p = s.players[seat]
    fn = _DETAIL.get(verb)
    if fn is not None:
        try:
            found = fn(s, seat, p, named(cmd))   # (a wrong shape: ValueError)
        except (TypeError, ValueError, IndexError, KeyError):
            found = ("§4", R(N_("'{verb}' does not take those arguments"),
                              verb=Word("verb", verb)))
        if found:
            return found
    return rule, R(N_("those arguments are not one of the legal choices now"))


def _keep(s: GameState, seat: int, p: Player, cmd: cm.Keep) -> tuple[str, Reason] | None:
    kept, dropped = cmd.kept, cmd.dropped
    hand = set(p.hand)
    if len(kept) != s.rs.keep or len(set(kept)) != len(kept):
        return "§3", R(N_("keep exactly {n} different cards"), n=s.rs.keep)
    for c in kept:
        if c not in hand:
            return "§3", R(N_("card #{c} is not in your hand"), c=c)
    cards = list(kept) + list(dropped[0::2])
    if set(cards) != hand or len(cards) != len(hand):
        return "§3", R(N_("keep {n} cards of your hand and drop all the others"), n=s.rs.keep)
    for c, t in zip(dropped[0::2], dropped[1::2]):
        if s.types[c] is not None and s.types[c] != t:
            return "§3", _not_a(c, t)
    return None


def _place(s: GameState, seat: int, p: Player, cmd: cm.Place) -> tuple[str, Reason] | None:
    kind, plank = cmd.kind, cmd.plank
    rs = s.rs
    if not 0 <= kind < 4:
        return "§6", R(N_("no such worker"))
    if s.unplaced(seat)[kind] <= 0:
        return "§6", R(N_("you have no unplaced {worker} left"), worker=Word("kind", KINDS[kind]))
    gold = p.res[GOLD]
    if plank == DESK:
        if NOBODY not in s.desk:
            return "§6", R(N_("every plank of the Recruiter's desk is taken"))
        if gold < rs.fee_recruiter_desk:
            return "§6", R(N_("the Recruiter's desk costs {gold} gold"), gold=rs.fee_recruiter_desk)
    elif plank == CAMP:
        if p.camp_used:
            return "§6", R(N_("only one of your workers may go to the King's camp each round"))
        if NOBODY not in s.camp:
            return "§6", R(N_("every plank of the King's camp is taken"))
    elif plank >= CARD_PLANK:
        c = plank - CARD_PLANK
        if c not in p.built:
            return "§6", R(N_("card #{c} is not one of your built cards"), c=c)
        t = s.types[c]
        if t not in HAS_PLANK:
            name = CARD_TYPES[t]  # type: ignore[index]  # built: its type is public
            return "§13", R(N_("a {card} has no plank"), card=Word("card", name))
        if c in s.card_plank:
            return "§1", R(N_("the plank of #{c} already holds a worker"), c=c)
        if t in PLANK_BEHIND_LOCK and not s.gnomes.get(c):
            return "§13", R(N_("the {card}'s plank is behind its gnome lock"),
                          card=Word("card", CARD_TYPES[t]))
        if t in PLANK_BEHIND_LOCK and gold < rs.fee_property_plank:
            return "§6", R(N_("the {card}'s plank costs {gold} gold"),
                         card=Word("card", CARD_TYPES[t]), gold=rs.fee_property_plank)
    elif GUILD_PLANK <= plank < GUILD_PLANK + len(GUILDS):
        g = plank - GUILD_PLANK
        if g not in s.guilds:
            return "§6", R(N_("the {guild} are not in this game"), guild=Word("guild", GUILDS[g]))
        d = s.guilds.index(g)
        if d in s.np_dwarf:
            return "§12", R(N_("a non-player's dwarf blocks the {guild}"),
                          guild=Word("guild", GUILDS[g]))
        if s.guild_plank[d] != NOBODY:
            return "§1", R(N_("the {guild}' plank already holds a worker"),
                         guild=Word("guild", GUILDS[g]))
        if s.board[d * 12 + 11] != seat and gold < rs.fee_guild_plank:
            return "§6", R(N_("the guild plank costs {gold} gold"), gold=rs.fee_guild_plank)
    return None


def _spread(s: GameState, seat: int, p: Player, cmd: cm.Spread) -> tuple[str, Reason] | None:
    kind = cmd.kind
    if kind != s.spread_kinds[0]:
        return "§6", R(N_("spread your {workers} now"),
                       workers=Word("kinds", KINDS[s.spread_kinds[0]] + "s"))
    left = s.unplaced(seat)[kind]
    counts = (cmd.a, cmd.b, cmd.c)
    if sum(counts) != left or min(counts) < 0:
        return "§6", R(N_("all {n} of your {workers} must be placed (Decision: none left out)"),
                       n=left, workers=Word("kinds", KINDS[kind] + "s"))
    return None


def _crest(s: GameState, seat: int, p: Player, cmd: cm.Crest) -> tuple[str, Reason] | None:
    k = cmd.crest
    if not 1 <= k <= s.n:
        return "§7", R(N_("there is no crest {k} in a {n}-player game"), k=k, n=s.n)
    if s.crest_down[k]:
        return "§7", R(N_("crest {k} is face down this round"), k=k)
    return None


def _site_free(s: GameState, site: int, rule: str = "§2") -> tuple[str, Reason] | None:
    if not 0 <= site < N_SITES:
        return rule, R(N_("no such symbol"))
    if s.board[site] != NOBODY:
        return rule, R(N_("{site} is already marked"), site=Word("site", SITE_NAME[site]))
    if site >= GATE_BASE and s.board[site ^ 1] != NOBODY:
        return rule, R(N_("a gatehouse is built only where both its symbols are free"))
    return None


def _build(s: GameState, seat: int, p: Player, cmd: cm.Build) -> tuple[str, Reason] | None:
    c, site = cmd.card, cmd.site
    if c not in p.hand:
        return "§8", R(N_("card #{c} is not in your hand"), c=c)
    t = s.types[c]
    if not 0 <= site < N_SITES or SITE_TYPE[site] != t:
        # A card in its owner's hand has a known type.
        return "§2", R(N_("a {card} must go on a {card} symbol"),
                       card=Word("card", CARD_TYPES[t]))  # type: ignore[index]
    short = _short(p.res, s.rs.card_cost[t])
    if short:
        return "§8", R(N_("a {card} costs {cost}; you lack {resources}"),
                       card=Word("card", CARD_TYPES[t]), cost=Cost(s.rs.card_cost[t]),
                       resources=words("resource", short))
    return _site_free(s, site)


def _wall(s: GameState, seat: int, p: Player, cmd: cm.Wall) -> tuple[str, Reason] | None:
    site = cmd.site
    if not 0 <= site < N_SITES or SITE_TYPE[site] != "wall":
        return "§8", R(N_("a wall goes on a wall symbol"))
    if _short(p.res, s.rs.wall_cost):
        return "§8", R(N_("a wall costs {cost}"), cost=Cost(s.rs.wall_cost))
    return _site_free(s, site, "§8")


def _guild(s: GameState, seat: int, p: Player, cmd: cm.Guild) -> tuple[str, Reason] | None:
    g = cmd.guild
    if not 0 <= g < len(GUILDS) or g not in s.guilds:
        return "§8", R(N_("that guild is not in this game"))
    if s.board[s.guilds.index(g) * 12 + 11] != NOBODY:
        return "§8", R(N_("the {guild} are already owned"), guild=Word("guild", GUILDS[g]))
    cost = s.rs.guild_cost[g]
    if _short(p.res, cost):
        return "§8", R(N_("the {guild} cost {cost}"), guild=Word("guild", GUILDS[g]),
                       cost=Cost(cost))
    return None


def _trade(s: GameState, seat: int, p: Player,
           cmd: cm.Buy | cm.Sell) -> tuple[str, Reason] | None:
    verb, r = cmd.verb, cmd.resource
    if not 0 <= r < 3:
        return "§8", R(N_("the trading post deals in wood, stone and metal"))
    used = s.t_buys if verb == "buy" else s.t_sells
    if used >= s.t_visits:
        if verb == "buy":
            return "§8", R(N_("each trading-post visit allows one buy; you have used all "
                              "{n} visit(s) this turn"), n=s.t_visits)
        return "§8", R(N_("each trading-post visit allows one sell; you have used all "
                          "{n} visit(s) this turn"), n=s.t_visits)
    if verb == "buy" and p.res[GOLD] < s.rs.trade_buy[r]:
        return "§8", R(N_("1 {resource} costs {gold} gold"),
                       resource=Word("resource", RESOURCES[r]), gold=s.rs.trade_buy[r])
    if verb == "sell" and p.res[r] < 1:
        return "§8", R(N_("you have no {resource} to sell"),
                       resource=Word("resource", RESOURCES[r]))
    return None


def _exchange(s: GameState, seat: int, p: Player, cmd: cm.Exchange) -> tuple[str, Reason] | None:
    if s.t_exchanges <= 0:
        return "§14", R(N_("exchanges come from activating the Merchants (twice per activation)"))
    return None


def _hire(s: GameState, seat: int, p: Player, cmd: cm.Hire) -> tuple[str, Reason] | None:
    c = cmd.card
    if s.t_hired:
        return "§8", R(N_("only one gnome may be hired per turn"))
    if p.res[GOLD] < s.rs.fee_gnome_hire:
        return "§8", R(N_("hiring a gnome costs {gold} gold"), gold=s.rs.fee_gnome_hire)
    if s.gnome_supply <= 0:
        return "§8", R(N_("the gnome supply is empty"))
    if c not in p.built:
        return "§8", R(N_("card #{c} is not one of your built cards"), c=c)
    if s.gnomes.get(c, 0) >= s.rs.locks[s.types[c]]:  # type: ignore[index]  # built: known
        return "§13", R(N_("card #{c} has no free gnome lock"), c=c)
    return None


def _lock_use(s: GameState, seat: int, p: Player,
              cmd: cm.Bank | cm.Smith) -> tuple[str, Reason] | None:
    verb, c = cmd.verb, cmd.card
    want = "bank" if verb == "bank" else "blacksmith"
    if c not in p.built or CARD_TYPES[s.types[c]] != want:  # type: ignore[index]  # built
        return "§13", R(N_("card #{c} is not one of your {cards}"), c=c,
                          cards=Word("cards", want + "s"))
    if not s.gnomes.get(c):
        return "§13", R(N_("the {card}'s ability needs a gnome on its lock"),
                          card=Word("card", want))
    if verb == "bank" and c in s.t_banks:
        return "§13", R(N_("each bank gives its gold once per turn"))
    if verb == "smith":
        if c in s.smith_used:
            return "§13", R(N_("each blacksmith sells its metal once per round"))
        if p.res[GOLD] < s.rs.lock_blacksmith_gold:
            return "§13", R(N_("the blacksmith's {metal} metal costs {gold} gold"),
                            metal=s.rs.lock_blacksmith_metal, gold=s.rs.lock_blacksmith_gold)
    return None


def _end(s: GameState, seat: int, p: Player,
         cmd: cm.End | cm.BuyCard) -> tuple[str, Reason] | None:
    if p.waiting:
        return "§8", R(N_("every placed worker must be activated before the turn ends"))
    if isinstance(cmd, BuyCard):          # the named form of every "buy-card"
        if p.res[GOLD] < s.rs.fee_card_purchase:
            return "§8", R(N_("a card costs {gold} gold"), gold=s.rs.fee_card_purchase)
        if cmd.card != NOBODY and cmd.card not in s.pool:
            return "§8", R(N_("card #{c} is not in the pool"), c=cmd.card)
        if cmd.card == NOBODY and not (s.draw or s.discard):
            return "§15", R(N_("the draw pile and the discard pile are both empty"))
    return None


def _activate(s: GameState, seat: int, p: Player, cmd: cm.Activate) -> tuple[str, Reason] | None:
    plank = cmd.plank
    if plank not in p.waiting:
        return "§8", R(N_("you have no worker waiting there to activate"))
    return ("§14" if plank < CARD_PLANK else "§13"), \
        R(N_("that is not one of the action's legal choices"))


def _hand_card(s: GameState, seat: int, p: Player,
               cmd: cm.Discard | cm.Show) -> tuple[str, Reason] | None:
    c = cmd.card
    if c not in p.hand:
        return "§8", R(N_("card #{c} is not in your hand"), c=c)
    if s.types[c] is not None and s.types[c] != cmd.type:
        return "§15", _not_a(c, cmd.type)
    return None


def _np_take(s: GameState, seat: int, p: Player, cmd: cm.NpTake) -> tuple[str, Reason] | None:
    c = cmd.card
    if c != NOBODY and c not in s.pool:
        return "§12", R(N_("card #{c} is not in the pool"), c=c)
    if c != NOBODY:
        return "§12", R(N_("a card that can be placed is in the pool: the non-player may not "
                           "take one that cannot (Decision)"))
    return None


def _np_dwarf(s: GameState, seat: int, p: Player, cmd: cm.NpDwarf) -> tuple[str, Reason] | None:
    g = cmd.guild
    if not 0 <= g < len(GUILDS) or g not in s.guilds:
        return "§12", R(N_("that guild is not in this game"))
    if s.guilds.index(g) in s.np_dwarf:
        return "§12", R(N_("the two non-player dwarves must be on different guilds (Decision)"))
    return None


# Any: each takes the named form of its own verbs (`named` returns a plain tuple type).
_DETAIL: dict[str, Callable[[GameState, int, Player, Any], tuple[str, Reason] | None]] = {
    "keep": _keep, "place": _place, "spread": _spread, "crest": _crest, "build": _build,
    "wall": _wall, "guild": _guild, "buy": _trade, "sell": _trade,
    "exchange": _exchange, "hire": _hire, "bank": _lock_use, "smith": _lock_use,
    "end": _end, "buy-card": _end, "activate": _activate, "discard": _hand_card,
    "show": _hand_card, "np-take": _np_take, "np-dwarf": _np_dwarf}

