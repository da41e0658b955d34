"""Every number lives in the ruleset (docs/rules.md §16: the rules code holds none).
Under `rulesets/every-number-differs.toml`, where every number differs from the standard
ruleset's, whole games follow its numbers (checked command by command by
referee.py), and `help` / `belfort rules` and the screen show its numbers, not the
standard ones."""

from pathlib import Path

import pytest

from belfort import legal_commands, load_ruleset, new_game, public_view, seat_view, \
    standard_ruleset
from belfort.data import RESOURCES
from belfort.prng import Prng
from referee import play_refereed

HERE = Path(__file__).resolve().parent
DIFFERS = load_ruleset(str(HERE / "rulesets" / "every-number-differs.toml"))


def numbers(value, path=""):
    """Every number of a raw ruleset table, by its path (a resource a cost or a yield
    leaves out counts as 0)."""
    if path.endswith((".yields", ".cost")) or path == "start":
        value = {r: value.get(r, 0) for r in RESOURCES}
    if isinstance(value, dict):
        for k, v in value.items():
            yield from numbers(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from numbers(v, f"{path}[{i}]")
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path, value


def test_every_number_of_the_test_ruleset_differs_from_the_standard_one():
    """The premise: the same fields, and not one number the same (a number added to the
    standard ruleset must get another value here too). Costs a ruleset leaves out are 0."""
    std = dict(numbers(standard_ruleset().raw))
    new = dict(numbers(DIFFERS.raw))
    assert set(new) == set(std), set(new) ^ set(std)
    same = sorted(k for k in std if std[k] == new[k])
    assert same == []


def random_chooser(seed):
    rng = Prng(seed, "numbers")

    def choose(game, seat):
        cmds = legal_commands(game, seat)
        return cmds[rng.below(len(cmds))]
    return choose


@pytest.fixture(scope="module")
def refereed_games():
    """Whole games of random bots, 2–5 players, every guild mode, under DIFFERS."""
    seen = {}
    games = []
    for n in (2, 3, 4, 5):
        for mode in ("beginner", "normal", "advanced"):
            for i in range(2):
                seed = f"numbers-{n}-{mode}-{i}"
                game = new_game(n, {"guilds": mode}, seed=seed, ruleset=DIFFERS)
                ref = play_refereed(game, random_chooser(seed))
                for k, v in ref.seen.items():
                    seen[k] = seen.get(k, 0) + v
                games.append(game)
    return games, seen


def test_whole_games_follow_the_rulesets_numbers(refereed_games):
    """Every command and event of 24 whole games agreed with the ruleset's numbers (the
    referee raises otherwise), and the games ended after its last round."""
    games, _ = refereed_games
    for game in games:
        assert game.is_over() and game.round == DIFFERS.rounds
        assert [r["round"] for r in game.score_log] == list(DIFFERS.scoring_rounds)


# The rules the referee checked at least once: each number of the ruleset was put to use.
COVERED = ["setup", "keep", "pool", "desk fee", "guild fee", "property fee", "buy", "sell",
           "extra visit used", "hire", "bank", "smith", "build", "wall", "guild", "buy-card",
           "plank market", "plank blacksmith", "plank library", "guild merchants",
           "guild librarians", "guild architects", "guild sawyers", "guild miners",
           "guild bankers", "guild masons", "thieves one", "thieves each", "bandits one",
           "bandits metal", "bandits each", "collection", "area bonus", "master collects",
           "tax paid", "unpaid tax", "scoring", "np guild gold", "library gnome", "hand limit",
           "market visits", "turn visits", "second lock", "winner"]


@pytest.mark.parametrize("rule", COVERED)
def test_the_games_put_each_number_to_use(refereed_games, rule):
    _, seen = refereed_games
    assert seen.get(rule, 0) > 0, f"no game exercised {rule!r}"


def test_masters_stop_at_the_rulesets_maximum():
    """§13 Decision: master elves = min(Gardens with a gnome, elves in play, max_masters)
    — the ruleset's maximum (3 here; standard 5)."""
    from scenario import give_built
    g = new_game(3, seed="masters", ruleset=DIFFERS)
    for _ in range(4):
        give_built(g, 0, "gardens", gnomes=1)
    assert g.masters(0) == (3, 0)
    assert g.unplaced(0) == [DIFFERS.workers_start - 3, 3, DIFFERS.workers_start, 0]


# --- what a person reads: help, belfort rules, the screen ------------------------------------

def test_help_and_rules_texts_show_the_rulesets_numbers():
    """`help TOPIC` and `belfort rules` read every number from the ruleset in force."""
    from client import rules_text

    def everything(rs):       # every topic `help` knows, and the whole `belfort rules`
        topics = rules_text.topics(rs)
        return rules_text.render_all(rs) + "\n".join(t + "\n" + x for t, x in topics.values())
    text = everything(DIFFERS)
    std = everything(standard_ruleset())
    for phrase in [
        "keep #0 #1 #2 #3 ",                                 # keep 4 (standard: 3)
        "keep 4 of your 6 cards",                            # keep / deal
        "A master counts 3 for collecting",                  # master_collects
        "gets +2 of its resource",                           # area_bonus
        "2 visits a turn",                                   # trading_post.visits
        "costs 2 VP",                                        # unpaid_tax_vp
        "0–0: 0; 1–4: 1; 5–8: 2",                            # the tax ladder
        "2 × wood + 3 × stone + metal",                      # tie-break weights
        "buy 3 metal for 2 gold",                            # blacksmith lock
        "take 2 gold (bank #ID)",                            # bank lock
        "each gnome gives 2 more trading-post visit",        # market lock
        "draw 2 card(s) free per gnome",                     # library lock
        "Gnome locks: 3.",                                   # market / blacksmith locks
        "less 2 metal or 3 wood/stone",                      # architects' discounts
        "discount=mm, www, sss, wws, wss",
        "up to 2 gold from each of up to 2 players",         # thieves_each, max_targets
        "up to 2 metal or up to 3 wood/stone",               # bandits
        "the 4 face-up cards",                               # pool_size
        "collects 3",
        "gets 2 more",
        "2 locks each, the Blacksmith 3, the Market 3, the Keep 1",
    ]:
        assert phrase in text, phrase
    for standard_only in ["keep #0 #1 #2  ", "keep 3 of your 5", "A master counts 2",
                          "gets +1 of its resource", "costs 1 VP", "2 × metal",
                          "buy 1 metal for 1 gold", "take 1 gold (bank", "discount=m, ww",
                          "collects 2", "gets 1 more", "the 3 face-up", "the Market 2"]:
        assert standard_only in std, standard_only
        assert standard_only not in text, standard_only


def test_the_screen_shows_the_rulesets_numbers():
    """The client's screen: the keep title and each card's gnome locks come from the
    ruleset (the view carries `locks`), not from numbers written in the client."""
    from client import render
    from client.words import Namer
    game = new_game(3, {"guilds": "normal"}, seed="screen", ruleset=DIFFERS)
    view = seat_view(game, 0)
    ctx = render.Context(Namer(game.names, 0), DIFFERS)
    screen = render.as_text(render.screen(view, ctx, 120, 40))
    assert "keep 4 cards" in screen and "keep 3 cards" not in screen
    built = {"card": 1, "type": "keep", "gnomes": 0, "plank": None,
             "locks": DIFFERS.locks[9]}
    assert render.built_text(built, True) == "Keep[·]"        # standard: no lock on a Keep
    market = dict(built, type="market", locks=DIFFERS.locks[6], gnomes=1)
    assert render.built_text(market, True) == "Market[g··]"   # standard: two locks


def test_the_command_hints_show_the_rulesets_discounts():
    """Tab completion of `activate architects SYMBOL discount=…` explains each discount the
    ruleset offers (the client used to hard-code m, ww, ss and ws)."""
    from client.commands import Hinter
    game = new_game(3, seed="hints", ruleset=DIFFERS)
    words = ["activate", "architects", "tower@2"]
    hint = Hinter([], seat_view(game, 0), DIFFERS).meta
    assert hint(words, "discount=mm", []) == "pay 2 metal less"
    assert hint(words, "discount=wws", []) == "pay 2 wood and 1 stone less"
    std = Hinter([], seat_view(new_game(3, seed="hints"), 0), standard_ruleset()).meta
    assert std(words, "discount=ws", []) == "pay 1 wood and 1 stone less"
    assert std(words, "discount=mm", []) == ""


def test_views_carry_each_built_cards_locks():
    game = new_game(2, seed="locks", ruleset=DIFFERS)
    v = public_view(game)
    assert all("locks" in b for p in v["players"] for b in p["built"])


# --- the bots under this ruleset ----------------------------------------------------------
# The bots read every number from the ruleset too (belfort/bots).

# Five guilds a game, so that the bots meet all twelve under DIFFERS.
BOT_GUILDS = [["merchants", "librarians", "architects", "recruiters", "sawyers"],
              ["miners", "bankers", "masons", "thieves", "bandits"],
              ["wizards", "spies", "architects", "bankers", "thieves"]]


def bot_of(level, seed):
    """A bot of `level`, search levels with a test-sized budget of playouts."""
    from belfort.bots import HARD_HORIZON, HARD_WIDTH, SearchBot, make_bot
    if level == "normal":
        return SearchBot(seed, "normal", 4, 3, learned=False)
    if level == "hard":
        return SearchBot(seed, "hard", 6, HARD_WIDTH, HARD_HORIZON, learned=True)
    return make_bot(level, seed)


@pytest.fixture(scope="module")
def bot_games():
    """Whole games of every bot level under DIFFERS, every command refereed."""
    from belfort.bots import LEVELS
    seen = {}
    games = []
    # Each level in seat 0 of a game; a search level's opponents play easy (quicker).
    # (2 players: no interactive guild but the Wizards, §12.)
    sizes = {"random": 4, "beginner": 3, "easy": 4, "normal": 5, "hard": 2}
    cases = [(level, sizes.get(level, 3), BOT_GUILDS[0 if sizes.get(level) == 2 else i % 3])
             for i, level in enumerate(LEVELS)]
    cases += [("easy", 3, BOT_GUILDS[1]), ("easy", 5, BOT_GUILDS[2]),
              ("easy", 2, BOT_GUILDS[0])]
    for level, n, guilds in cases:
        seed = f"bots-{level}-{n}-{guilds[0]}"
        game = new_game(n, {"guilds": guilds}, seed=seed, ruleset=DIFFERS)
        others = "easy" if level in ("normal", "hard") else level
        bots = [bot_of(level if q == 0 else others, f"{seed}/{q}") for q in range(n)]
        ref = play_refereed(game, lambda g, seat: bots[seat].choose(g, seat))
        for k, v in ref.seen.items():
            seen[k] = seen.get(k, 0) + v
        games.append((level, game))
    return games, seen


def test_every_bot_level_plays_whole_games_under_the_rulesets_numbers(bot_games):
    games, seen = bot_games
    for level, game in games:
        assert game.is_over() and game.round == DIFFERS.rounds, level
    # The bots did build, trade and use their guilds under these numbers.
    for rule in ("build", "wall", "guild", "buy", "sell", "guild sawyers", "guild miners",
                 "guild bankers", "guild masons", "guild architects", "hire"):
        assert seen.get(rule, 0) > 0, rule


def test_the_bots_value_a_resource_guild_by_the_rulesets_yields():
    """DIFFERS: the Sawyers yield 3 wood, 1 stone, 1 metal, 1 gold (standard: 4 wood)."""
    from belfort.bots.evaluate import METAL_UNITS
    from belfort.bots.heuristic import guild_value
    guilds = ["sawyers", "miners", "bankers", "masons", "merchants"]
    for rs in (DIFFERS, standard_ruleset()):
        game = new_game(3, {"guilds": guilds}, seed="guild-value", ruleset=rs)
        for d, g in enumerate(game.guilds[:4]):
            w, s, m, gold = rs.guild_yield[g]
            assert guild_value(game, 0, d) == pytest.approx(w + s + METAL_UNITS * m + gold)
    game = new_game(3, {"guilds": guilds}, seed="guild-value", ruleset=DIFFERS)
    std = new_game(3, {"guilds": guilds}, seed="guild-value")
    assert [guild_value(game, 0, d) for d in range(4)] != \
        [guild_value(std, 0, d) for d in range(4)]


def test_the_bots_know_the_rulesets_gnome_locks():
    """DIFFERS gives the Keep a gnome lock (standard: none), so a bot whose only building
    is a Keep has a lock to fill."""
    from scenario import give_built
    from belfort.bots.heuristic import gnome_vp
    for rs, free_lock in ((DIFFERS, True), (standard_ruleset(), False)):
        game = new_game(3, seed="keep-lock", ruleset=rs)
        give_built(game, 0, "keep")
        assert (gnome_vp(game, 0, 2, 1.0, None) is not None) == free_lock
