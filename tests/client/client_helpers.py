"""Shared helpers for the client tests: games in known states."""

import belfort
from belfort import apply, legal_commands, new_game
from belfort.undo import UndoStack


def random_states(players=4, seed=1, every=7, limit=60):
    """Snapshots of a random-bot game, every `every` decisions (with the seat to move)."""
    game = new_game(players, {"guilds": "advanced"}, seed=seed)
    bot = belfort.RandomBot(seed)
    out = []
    i = 0
    while not game.is_over() and len(out) < limit:
        seat = game.waiting_for()[0]
        if i % every == 0:
            out.append((game.copy(), seat))
        apply(game, bot.choose(game, seat), seat)
        i += 1
    return out


def finished_game(players=4, seed=3):
    game = new_game(players, {"guilds": "normal"}, seed=seed)
    bot = belfort.RandomBot(seed)
    while not game.is_over():
        seat = game.waiting_for()[0]
        apply(game, bot.choose(game, seat), seat)
    return game


def first_of(game, seat, verb):
    for c in legal_commands(game, seat):
        if c[0] == verb:
            return c
    return None


class StateDriver:
    """The smallest GameDriver over a game in a known state: submit checks and applies at
    once (and may be taken back); no bots, no background task, nobody else at the table.
    For Controller and rendering tests."""

    seed = None
    networked = False
    handed = False
    can_keep = False
    game_log = None

    def __init__(self, game, seat=0, apply_commands=True):
        self.game = game
        self.seat = seat
        self.names = list(game.names)
        self.ruleset = game.rs
        self.alerts = []
        self.submitted = []
        self.apply_commands = apply_commands
        self.undo_stack = UndoStack()
        self._subs = []

    def view(self):
        return belfort.seat_view(self.game, self.seat)

    def legal(self):
        return belfort.legal_commands(self.game, self.seat)

    def submit(self, command):
        cmd, _ = belfort.check_legal(self.game, command, self.seat)
        self.submitted.append(cmd)
        if self.apply_commands:
            before = self.game.copy()
            events = belfort.apply(self.game, cmd, self.seat)
            self.undo_stack.record(before, self.game, self.seat, cmd, tag=len(self.submitted))
            self._notify(events)

    def undo(self):
        step = self.undo_stack.take_back(self.game, self.seat)
        self._notify([("undo", self.seat, step.command)])
        return step.command

    def undo_refusal(self):
        return self.undo_stack.refusal(self.seat)

    def subscribe(self, fn):
        self._subs.append(fn)

    def _notify(self, events):
        for fn in self._subs:
            fn(events)

    def past_events(self):
        return []

    def peers(self):
        return []

    def audit(self):
        return None

    async def run(self):
        return None

    def close(self):
        pass

    def leave(self, keep=True):
        return None

    def score_series(self):
        return None

    def say(self, text):
        raise RuntimeError("nobody to talk to")

    def chat_since(self, count):
        return 0, []

    def waiting(self):
        return ""

    def stall(self):
        return {"seats": [], "paused": None, "stall_timeout": None, "text": ""}

    def handoff(self, seat):
        raise RuntimeError("no seat to hand to a bot")

    def handoff_candidates(self):
        return []

    def text_command(self, text):
        return None

    ended = left_for_good = next_game = at_table = False

    def leave_for_good(self):
        return True

    def again(self):
        return ""

    def evening_text(self):
        return ""

    def table_notes(self):
        return []


def state_where(predicate, players=4, seeds=range(1, 60), seat_filter=None):
    """(game, seat) of the first random-bot state where predicate(game, seat) holds, for the
    seat whose decision it is."""
    for seed in seeds:
        game = new_game(players, {"guilds": "advanced"}, seed=seed)
        bot = belfort.RandomBot(seed)
        while not game.is_over():
            for seat in game.waiting_for():
                if predicate(game, seat):
                    return game, seat
            seat = game.waiting_for()[0]
            apply(game, bot.choose(game, seat), seat)
    raise AssertionError("no such state found")
