"""A referee for tests: plays a game and holds every command and event against the numbers
of the game's ruleset, worked out here from the state before and after — independently of
the engine's code paths. Used by test_numbers.py with a ruleset where every number differs
from the standard one, so a number the engine takes from anywhere but the ruleset shows.

    ref = Referee(game)
    ref.apply(cmd, seat)        # belfort.apply, then every check below
    ref.seen                    # Counter of the checks that fired (to prove coverage)

Whole games: `play_refereed(game, choose)` with `choose(game, seat) -> command`.
"""

from collections import Counter

from belfort import apply, legal_commands
from belfort.data import (AREAS, CARD_PLANK, CARD_TYPES, GUILD_ID, GUILD_PLANK, RESOURCES,
                          SITE_TYPE, guild_site)

T = {name: i for i, name in enumerate(CARD_TYPES)}
G = GUILD_ID
RESOURCE_GUILDS = ("sawyers", "miners", "bankers", "masons")


class RefereeError(AssertionError):
    pass


def check(cond, what):
    if not cond:
        raise RefereeError(what)


def minus(a, b):
    return [x - y for x, y in zip(a, b)]


class Referee:
    def __init__(self, game):
        self.g = game
        self.rs = game.rs
        self.seen = Counter()
        self._setup()

    # --- setup (§3) -------------------------------------------------------------------------
    def _setup(self):
        g, rs, n = self.g, self.rs, self.g.n
        check(len(g.types) == rs.cards_per_type * len(CARD_TYPES), "deck size")
        if not g.hidden:
            for t in range(len(CARD_TYPES)):
                check(g.types.count(t) == rs.cards_per_type, "cards per type")
        for p in g.players:
            check(p.res == list(rs.start), "starting resources")
            check(len(p.hand) == rs.deal, "cards dealt")
            check(p.elves == p.dwarves == rs.workers_start, "workers in play at the start")
        check(g.gnome_supply == rs.gnomes[n], "gnome supply")
        check(len(g.desk) == rs.desk_planks[n], "recruiter's desk planks")
        check(len(g.camp) == rs.camp_planks[n], "king's camp planks")
        self.seen["setup"] += 1

    # --- one command ------------------------------------------------------------------------
    def apply(self, cmd, seat):
        g = self.g
        before = g.copy()
        events = apply(g, cmd, seat)
        kinds = [e[0] for e in events]
        flow = {"collect", "area", "income", "scoring", "round", "np-dwarf"} & set(kinds)
        verb = cmd[0]
        p0, p1 = before.players[seat], g.players[seat]
        delta = minus(p1.res, p0.res)
        if not flow or verb in ("build", "wall", "guild", "buy", "sell", "hire", "bank",
                                "smith", "activate"):
            self._command(before, cmd, seat, delta, events)
        self._events(before, cmd, seat, events)
        self._invariants()
        return events

    def _command(self, before, cmd, seat, delta, events):
        g, rs = self.g, self.rs
        verb = cmd[0]
        if verb == "keep":
            check(len(cmd[1]) == rs.keep, "cards kept")
            self.seen["keep"] += 1
            if g.phase != "keep":
                for p in g.players:
                    check(len(p.hand) == rs.keep, "hand after the keep")
                check(len(g.pool) == rs.pool_size, "pool size")
                self.seen["pool"] += 1
        elif verb == "place":
            plank = cmd[2]
            if plank == 0:
                check(delta == [0, 0, 0, -rs.fee_recruiter_desk], "recruiter's desk fee")
                self.seen["desk fee"] += 1
            elif GUILD_PLANK <= plank < CARD_PLANK:
                owner = before.board[guild_site(before.guilds.index(plank - GUILD_PLANK))]
                fee = 0 if owner == seat else rs.fee_guild_plank
                check(delta == [0, 0, 0, -fee], "guild plank fee")
                if 0 <= owner < g.n and owner != seat:
                    got = g.players[owner].res[3] - before.players[owner].res[3]
                    check(got == rs.fee_guild_plank, "guild plank fee to the owner")
                self.seen["guild fee"] += 1
            elif plank >= CARD_PLANK:
                t = g.types[plank - CARD_PLANK]
                fee = rs.fee_property_plank if t in (T["tower"], T["inn"]) else 0
                check(delta == [0, 0, 0, -fee], "property plank fee")
                self.seen["property fee" if fee else "card plank"] += 1
        elif verb in ("buy", "sell"):
            r = cmd[1]
            want = [0, 0, 0, 0]
            want[r] = 1 if verb == "buy" else -1
            want[3] = -rs.trade_buy[r] if verb == "buy" else rs.trade_sell[r]
            check(delta == want, f"{verb} price")
            used = g.t_buys if verb == "buy" else g.t_sells
            check(used <= g.t_visits, "trading-post visits")
            self.seen[verb] += 1
            if used > rs.trade_visits:
                self.seen["extra visit used"] += 1
        elif verb == "hire":
            check(delta == [0, 0, 0, -rs.fee_gnome_hire], "gnome hire fee")
            self.seen["hire"] += 1
        elif verb == "bank":
            check(delta == [0, 0, 0, rs.lock_bank_gold], "bank gold")
            self.seen["bank"] += 1
        elif verb == "smith":
            check(delta == [0, 0, rs.lock_blacksmith_metal, -rs.lock_blacksmith_gold],
                  "blacksmith price")
            self.seen["smith"] += 1
        elif verb == "build":
            t = g.types[cmd[1]]
            check(delta == [-x for x in rs.card_cost[t]], "card cost")
            self.seen["build"] += 1
        elif verb == "wall":
            check(delta == [-x for x in rs.wall_cost], "wall cost")
            self.seen["wall"] += 1
        elif verb == "guild":
            check(delta == [-x for x in rs.guild_cost[cmd[1]]], "guild cost")
            self.seen["guild"] += 1
        elif verb == "buy-card":
            check(delta == [0, 0, 0, -rs.fee_card_purchase], "card purchase fee")
            self.seen["buy-card"] += 1
        elif verb == "activate":
            self._activation(before, cmd, seat, delta, events)

    def _activation(self, before, cmd, seat, delta, events):
        g, rs = self.g, self.rs
        plank, args = cmd[1], cmd[2:]
        if plank >= CARD_PLANK:
            t = CARD_TYPES[g.types[plank - CARD_PLANK]]
            if t == "market":
                check(delta == [0, 0, 0, rs.market_gold], "market plank gold")
            elif t == "blacksmith":
                check(delta == [0, 0, rs.blacksmith_metal, 0], "blacksmith plank metal")
            elif t == "library":
                self._draw_then_discard(before, seat, events, rs.library_draw,
                                        rs.library_discard)
            self.seen[f"plank {t}"] += 1
            return
        name = next(k for k, v in G.items() if v == plank - GUILD_PLANK)
        if name in RESOURCE_GUILDS:
            check(tuple(delta) == rs.guild_yield[G[name]], f"{name} yield")
        elif name == "merchants":
            check(g.t_exchanges - before.t_exchanges == rs.merchants_exchanges,
                  "merchants' exchanges")
            check(g.t_visits - before.t_visits == rs.merchants_extra_visits,
                  "merchants' visits")
        elif name == "librarians":
            self._draw_then_discard(before, seat, events, rs.librarians_draw,
                                    rs.librarians_discard)
        elif name == "architects" and args:
            site, code = args
            check(code in rs.discounts, "architects' discount code")
            t = SITE_TYPE[site]
            cost = (rs.wall_cost if t == "wall" else
                    rs.guild_cost[before.guilds[site // 12]] if t == "guild" else rs.card_cost[t])
            dw, ds, dm = rs.discounts[code]
            check(delta == [-(cost[0] - dw), -(cost[1] - ds), -(cost[2] - dm), -cost[3]],
                  "architects' discounted cost")
        elif name in ("thieves", "bandits") and args:
            self._steal(before, name, args, events)
        self.seen[f"guild {name}" + (" (wasted)" if not args and name in (
            "architects", "thieves", "bandits", "wizards", "recruiters") else "")] += 1

    def _draw_then_discard(self, before, seat, events, draw, discard):
        g = self.g
        drawn = sum(len(e[2]) for e in events if e[0] == "draw" and e[1] == seat)
        check(drawn <= draw, "cards drawn")
        if before.draw or before.discard:
            check(drawn == min(draw, len(before.draw) + len(before.discard)), "cards drawn")
        hand = len(g.players[seat].hand)
        check(g.pending == (min(discard, hand) if g.step == "discard" else 0), "cards to discard")

    def _steal(self, before, name, args, events):
        rs = self.rs
        steals = [e for e in events if e[0] == "steal"]
        if args[0] == "each":
            victims = args[1:] if name == "thieves" else args[1::2]
            check(len(victims) <= rs.max_targets, "targets")
            limit = rs.thieves_each if name == "thieves" else rs.bandits_each
            for _, _, src, r, amount in steals:
                check(amount == min(limit, before.players[src].res[r]), f"{name} each")
            self.seen[f"{name} each"] += 1
        elif name == "thieves":
            src = args[1]
            check(steals[0][4] == min(rs.thieves_one, before.players[src].res[3]), "thieves one")
            self.seen["thieves one"] += 1
        elif args[2:] == (2,):
            src = args[1]
            check(steals[0][4] == min(rs.bandits_metal, before.players[src].res[2]),
                  "bandits metal")
            self.seen["bandits metal"] += 1
        else:
            check(len(args) - 2 <= rs.bandits_one, "bandits wood/stone")
            self.seen["bandits one"] += 1

    # --- the automatic steps -----------------------------------------------------------------
    def _events(self, before, cmd, seat, events):
        g, rs = self.g, self.rs
        if any(e[0] == "area" for e in events):
            self._collection(before, cmd, seat, events)
        for e in events:
            if e[0] == "income":
                _, q, income, paid, lost = e
                p = before.players[q]
                check(income == sum(rs.card_income[g.types[c]] for c in p.built), "income")
                tax = rs.tax_for(p.score)
                check(paid == min(tax, p.res[3] + self._collected(events, q) + income), "tax")
                check(lost == min((tax - paid) * rs.unpaid_tax_vp, p.score), "unpaid tax")
                self.seen["tax paid" if paid else "no tax"] += 1
                if lost:
                    self.seen["unpaid tax"] += 1
            elif e[0] == "scoring":
                rec = g.score_log[-1]
                check(rec["round"] in rs.scoring_rounds, "scoring round")
                top = set(rs.district_points if g.n >= rs.district_third_from or g.n == 2
                          else rs.district_points[:2])
                for d in rec["districts"]:
                    check(set(d) <= top | {0}, "district points")
                for k in ("elves", "dwarves", "gnomes"):
                    check(set(rec[k]) <= set(rs.worker_points) | {0}, "worker points")
                self.seen["scoring"] += 1
            elif e[0] == "end-turn":
                self._end_turn(before, e[1], events)
            elif e[0] == "game-over":
                check(g.round == rs.rounds, "rounds")
                check([r["round"] for r in g.score_log] == list(rs.scoring_rounds),
                      "scoring rounds")
                self._tiebreak()
        moves = [e for e in events if e[0] == "np-dwarf" and before.phase == "np-turn"]
        if moves:
            owners = [g.board[guild_site(e[2])] for e in moves]
            for q in range(g.n):
                gained = g.players[q].res[3] - before.players[q].res[3]
                check(gained == owners.count(q) * rs.np_guild_gold, "non-player guild gold")
                if q in owners:
                    self.seen["np guild gold"] += 1
        if g.phase == "actions" and g.step == "" and (
                "end-turn" in (e[0] for e in events) or "income" in (e[0] for e in events)):
            p = g.players[g.current]
            markets = sum(g.gnomes.get(c, 0) for c in p.built if g.types[c] == T["market"])
            check(g.t_visits == rs.trade_visits + rs.lock_market_visits * markets,
                  "trading-post visits at the start of a turn")
            self.seen["market visits" if markets else "turn visits"] += 1

    def _collected(self, events, q):
        for e in events:
            if e[0] == "collect" and e[1] == q:
                return e[2][3]
        return 0

    def _collection(self, before, cmd, seat, events):
        rs = self.rs
        n = before.n
        areas = [row[:] for row in before.area]
        if cmd[0] == "spread":
            from belfort.data import SPREAD_AREAS
            kind = cmd[1]
            for a, k in zip(SPREAD_AREAS[kind], cmd[2:5]):
                areas[seat][a * 4 + kind] += k
        expected = []
        for a, res in ((0, 0), (1, 1), (2, 2), (3, 3)):
            got, pieces = [], []
            for q in range(n):
                e, me, d, md = areas[q][a * 4:a * 4 + 4]
                elves, dwarves = e + rs.master_collects * me, d + rs.master_collects * md
                got.append(min(elves, dwarves) if a == 2 else elves + dwarves)
                pieces.append(e + me + d + md)
            best = max(pieces)
            for q in range(n):
                if pieces[q]:
                    bonus = rs.area_bonus if best and pieces[q] == best and \
                        pieces.count(best) == 1 else 0
                    expected.append(("area", q, AREAS[a], RESOURCES[res], got[q], bonus))
                    if bonus:
                        self.seen["area bonus"] += 1
                    if areas[q][a * 4 + 1] or areas[q][a * 4 + 3]:
                        self.seen["master collects"] += 1
        check([e for e in events if e[0] == "area"] == expected, "collection by area")
        self.seen["collection"] += 1

    def _end_turn(self, before, q, events):
        g, rs = self.g, self.rs
        p = before.players[q]
        gnomes = sum(g.gnomes.get(c, 0) for c in p.built if g.types[c] == T["library"])
        # The Library's draws come after the turn's last action (a bought card included).
        end = next(i for i, e in enumerate(events) if e[0] == "end-turn")
        last = max(i for i, e in enumerate(events[:end]) if e[0] in ("command", "buy-card"))
        drawn = sum(len(e[2]) for e in events[last:end] if e[0] == "draw" and e[1] == q)
        want = gnomes * rs.lock_library_draw
        if len(before.draw) > want:
            check(drawn == want, "library gnome draws")
            if gnomes:
                self.seen["library gnome"] += 1
        hand = len(g.players[q].hand)
        if g.step == "discard" and g.current == q:
            check(g.pending == hand - rs.hand_limit, "hand limit")
            self.seen["hand limit"] += 1
        else:
            check(hand <= rs.hand_limit, "hand limit")

    def _tiebreak(self):
        g, rs = self.g, self.rs
        best = max(p.score for p in g.players)
        tied = [q for q, p in enumerate(g.players) if p.score == best]
        value = [sum(n * k for n, k in zip(g.players[q].res, rs.tiebreak)) for q in tied]
        check(g.result["winners"] == [q for q, v in zip(tied, value) if v == max(value)],
              "tie-break")
        self.seen["tie-break" if len(tied) > 1 else "winner"] += 1

    def _invariants(self):
        g, rs = self.g, self.rs
        for q, p in enumerate(g.players):
            for c in p.built:
                check(g.gnomes.get(c, 0) <= rs.locks[g.types[c]], "gnome locks")
                if g.gnomes.get(c, 0) > 1:
                    self.seen["second lock"] += 1
            me, md = g.masters(q)
            check(me <= rs.max_masters and md <= rs.max_masters, "max masters")
            check(p.elves <= rs.workers_per_colour and p.dwarves <= rs.workers_per_colour,
                  "workers per colour")
            if me == rs.max_masters or md == rs.max_masters:
                self.seen["max masters"] += 1


def play_refereed(game, choose, limit=5000):
    """Play `game` to its end with `choose(game, seat)`, every command refereed."""
    ref = Referee(game)
    for _ in range(limit):
        if game.is_over():
            return ref
        seat = game.waiting_for()[0]
        cmd = choose(game, seat)
        assert cmd in legal_commands(game, seat)
        ref.apply(cmd, seat)
    raise AssertionError("the game did not end")
