"""Bots: the interface, legal play over whole games, determinism, and no peeking.

Search bots run here with tiny budgets (the code path is the same at any budget); the
strength figures come from scripts/bench_bots.py, not from tests.
"""

import pytest

from belfort import apply, legal_commands, new_game, redact
from belfort.bots import HARD_HORIZON, HARD_WIDTH, LEVELS, SearchBot, make_bot
from belfort.bots.search import PLAYOUTS_PER_SECOND
from belfort.data import CARD_TYPES
from belfort.hidden import known_to
from belfort.prng import Prng

TINY = 0.01         # a think budget of a few playouts


def small_bot(level, seed):
    """A bot of `level` with a test-sized budget (8 playouts: enough for a search)."""
    if level == "normal":
        return SearchBot(seed, "normal", 4, 3)
    if level == "hard":
        return SearchBot(seed, "hard", 8, HARD_WIDTH, HARD_HORIZON, learned=True)
    return make_bot(level, seed, think=TINY)


def play(levels, seed, guilds="normal", check=None, bots=None):
    n = len(levels)
    game = new_game(n, {"guilds": guilds}, seed=seed)
    bots = bots or [small_bot(level, f"{seed}/{i}") for i, level in enumerate(levels)]
    log = []
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmd = bots[seat].choose(game, seat)
        if check:
            check(game, seat, cmd)
        apply(game, cmd, seat)
        log.append((seat, cmd))
    return game, log


def test_make_bot_levels():
    assert LEVELS == ("random", "beginner", "easy", "normal", "hard")
    game = new_game(3, {}, seed=1)
    for level in LEVELS:
        bot = make_bot(level, 1, think=TINY)
        assert bot.choose(game, 0) in legal_commands(game, 0)
    with pytest.raises(ValueError):
        make_bot("expert", 1)


def test_the_hard_bots_budget_is_calibrated_per_player_count():
    """`think` seconds buy PLAYOUTS_PER_SECOND[players] playouts a second at each player
    count (measured per count, not one rate scaled by players)."""
    assert sorted(PLAYOUTS_PER_SECOND) == [2, 3, 4, 5]
    for think in (0.5, 1.0, 2.0):
        bot = make_bot("hard", 1, think=think)
        assert bot.playouts == {n: max(1, round(think * rate))
                                for n, rate in PLAYOUTS_PER_SECOND.items()}
    # A decision's search spends the budget of its own player count.
    budgets = {2: 9, 3: 10, 4: 11, 5: 12}
    for n in (2, 3, 4, 5):
        bot = SearchBot("budget", "hard", budgets, HARD_WIDTH, HARD_HORIZON)
        game = new_game(n, {}, seed=f"budget-{n}")
        while not bot.searches:
            seat = game.waiting_for()[0]
            apply(game, bot.choose(game, seat), seat)
        assert bot.playouts_run == budgets[n]


def test_a_bot_refuses_a_seat_that_does_not_play_now():
    game = new_game(3, {}, seed=1)
    apply(game, legal_commands(game, 0)[0], 0)
    with pytest.raises(ValueError):
        make_bot("easy", 1).choose(game, 0)


def _legal(game, seat, cmd):
    assert cmd in legal_commands(game, seat), (game.phase, game.step, cmd)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_plays_only_legal_commands(players):
    # Every level in every game, seats rotating; advanced guilds bring all twelve in turn.
    for g, guilds in enumerate(["normal", "advanced"]):
        levels = [LEVELS[(players + g + i) % len(LEVELS)] for i in range(players)]
        game, log = play(levels, seed=f"legal-{players}-{g}", guilds=guilds, check=_legal)
        assert game.is_over() and game.result["winners"]


def test_the_spy_can_take_a_shown_card():
    # redact() drops the shown cards; the bots' view restores them once they are public.
    # Random players use the Spies often; at each take, every level must find a legal one.
    guilds = ["spies", "thieves", "bandits", "wizards", "architects"]
    seen = []

    def check(game, seat, cmd):
        if game.step == "spies-take":
            for level in LEVELS:
                _legal(game, seat, small_bot(level, 3).choose(game, seat))
            seen.append(cmd)
    bots = [make_bot("random", i) for i in range(4)]
    for seed in range(3):
        play(["random"] * 4, seed=f"spies-{seed}", guilds=guilds, check=check, bots=bots)
    assert seen


def test_the_normal_level_at_its_real_budget():
    # One game with a real normal bot (the others easy): legal throughout.
    bots = [make_bot("normal", 5), make_bot("easy", 6), make_bot("easy", 7)]
    game, _ = play(["normal", "easy", "easy"], seed="real-normal", check=_legal, bots=bots)
    assert game.is_over()


def test_bots_are_deterministic_given_their_seed():
    levels = ["hard", "normal", "easy", "beginner"]
    _, log1 = play(levels, seed="det")
    _, log2 = play(levels, seed="det")
    assert log1 == log2
    # And a decision does not depend on what the bot decided before (no memory).
    game = new_game(4, {}, seed="fresh")
    for _ in range(60):
        seat = game.waiting_for()[0]
        apply(game, make_bot("easy", 0).choose(game, seat), seat)
    seat = game.waiting_for()[0]
    for level in LEVELS:
        used = small_bot(level, 9)
        fresh = small_bot(level, 9)
        first = used.choose(game, seat)
        assert used.choose(game, seat) == first == fresh.choose(game, seat)


# --- no peeking ---------------------------------------------------------------------------

def twin_games(seed, players, pick, prefix, levels):
    """Two games with the same seed and public history, differing only in cards the
    probed seat cannot see: other hands and the draw pile. The probed seat is the
    `pick`-th seat the game waits for after `prefix` commands. Returns (A, B, seat)."""
    deck = list(range(len(CARD_TYPES))) * 5
    Prng(seed, "deck-a").shuffle(deck)
    game_a = new_game(players, {}, seed=seed, deck=[CARD_TYPES[t] for t in deck])
    bots = [make_bot(level, i) for i, level in enumerate(levels)]
    log = []
    while len(log) < prefix and not game_a.is_over():
        q = game_a.waiting_for()[0]
        cmd = bots[q].choose(game_a, q)
        apply(game_a, cmd, q)
        log.append((q, cmd))
    waiting = game_a.waiting_for()
    seat = waiting[pick % len(waiting)]
    known = known_to(game_a, seat)
    unseen = [c for c in range(len(deck)) if not known[c]]
    types = [deck[c] for c in unseen]
    Prng(seed, "deck-b").shuffle(types)
    deck_b = deck[:]
    for c, t in zip(unseen, types):
        deck_b[c] = t
    game_b = new_game(players, {}, seed=seed, deck=[CARD_TYPES[t] for t in deck_b])
    for q, cmd in log:
        apply(game_b, cmd, q)
    assert game_b.version == game_a.version
    return game_a, game_b, seat


@pytest.mark.parametrize("players,prefix", [(4, 0), (3, 25), (4, 70), (2, 60), (5, 140)])
def test_no_level_peeks_at_hidden_cards(players, prefix):
    searched = {"normal": 0, "hard": 0}
    for pick in range(2):
        seed = f"peek-{players}-{prefix}-{pick}"
        game_a, game_b, seat = twin_games(seed, players, pick, prefix, ["easy"] * players)
        assert seat in game_b.waiting_for()
        others = [c for q in range(players) if q != seat for c in game_a.players[q].hand]
        assert any(game_a.types[c] != game_b.types[c] for c in others + game_a.draw), \
            "the twin games must differ in what the seat cannot see"
        assert redact(game_a, seat).types == redact(game_b, seat).types
        for level in LEVELS:
            bot = small_bot(level, f"peek-{level}")
            choice = bot.choose(game_a, seat)
            assert bot.choose(game_b, seat) == choice, level
            assert bot.choose(redact(game_a, seat), seat) == choice, level
            if level in searched:
                searched[level] += bot.searches
    # The search levels did sample hidden cards here (not just follow the easy policy).
    assert searched["normal"] and searched["hard"], searched


def test_fast_rank_points_agrees_with_the_engine():
    from belfort.bots.evaluate import rank_points as fast
    from belfort.scoring import rank_points
    rng = Prng("ranks")
    for _ in range(3000):
        counts = [rng.below(5) for _ in range(2 + rng.below(6))]
        for table in ((5, 3, 1), (5, 3), (3, 1)):
            assert fast(counts, table) == rank_points(counts, table)
    # The rulebook's examples (§9.3).
    assert fast([4, 2, 2, 0], (5, 3, 1)) == [5, 1, 1, 0]
    assert fast([5, 5, 4, 3], (3, 1)) == [1, 1, 0, 0]


def test_the_wizards_swap_model_matches_the_engine():
    from belfort import RandomBot
    from belfort.bots.heuristic import swapped
    from belfort.data import GUILD_ID, GUILD_PLANK
    wizards = GUILD_PLANK + GUILD_ID["wizards"]
    checked = 0
    for seed in range(6):
        game = new_game(4, {"guilds": ["wizards", "thieves", "bandits", "spies", "architects"]},
                        seed=seed)
        bot = RandomBot(seed)
        while not game.is_over():
            seat = game.waiting_for()[0]
            for cmd in legal_commands(game, seat):
                if cmd[0] == "activate" and cmd[1] == wizards and len(cmd) == 6:
                    after = game.copy()
                    apply(after, cmd, seat)
                    assert after.board == swapped(game.board, *cmd[2:]), cmd
                    checked += 1
            apply(game, bot.choose(game, seat), seat)
    assert checked > 100


def test_the_learned_evaluation_covers_every_player_count_and_round():
    from belfort.bots.evaluate import FEATURES, evaluate, features, handmade
    from belfort.bots.learned import WEIGHTS
    for players in (2, 3, 4, 5):
        for rnd in range(1, 8):
            assert len(WEIGHTS[(players, rnd)]) == len(FEATURES)
    game = new_game(4, {}, seed="learned")
    bot = make_bot("easy", 0)
    while game.round < 2:
        seat = game.waiting_for()[0]
        apply(game, bot.choose(game, seat), seat)
    # At a round's start the learned model is used; it reads one row per seat.
    assert len(features(game)) == 4
    assert evaluate(game) != handmade(game) and evaluate(game, learned=False) == handmade(game)


def test_the_beginner_picks_one_of_the_easy_policys_best_few():
    """A level a careful first-timer beats about half the time. It plays one of
    the easy policy's BEGINNER_CHOICES best-ranked commands, drawn from its seed: always a
    plausible move, often not the best one (its strength: scripts/bench_bots.py)."""
    from belfort.bots import BEGINNER_CHOICES
    from belfort.bots.heuristic import ranked
    from belfort.bots.view import own_view
    game = new_game(4, {"guilds": "advanced"}, seed="beginner")
    beginner, easy = make_bot("beginner", "b"), make_bot("easy", "b")
    differs = choices = 0
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmd = beginner.choose(game, seat)
        cmds = legal_commands(game, seat)
        if len(cmds) > 1:
            view = own_view(game, seat)
            rng = beginner.rng(view, seat)
            assert cmd in ranked(view, seat, legal_commands(view, seat), rng)[:BEGINNER_CHOICES]
            assert cmd == make_bot("beginner", "b").choose(game, seat)      # its seed decides
            choices += 1
            differs += cmd != easy.choose(game, seat)
        apply(game, cmd, seat)
    assert 0.2 * choices < differs < 0.9 * choices, (differs, choices)
