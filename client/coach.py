"""The guided first game (`belfort tutorial`, `belfort play --learn`): each phase is
explained the first time it comes, with what to type, taken from the commands legal at
that moment. The window shows a lesson in a panel, `--plain` prints it.

`Coach.lessons(events, view, legal)` is called with each batch of events (and once at the
start with none) and returns the lessons due now: [(title, text)]. Each is given once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import belfort
from belfort.commands import named as named_command
from belfort.events import named_known

from .i18n import _, active_language, localize_line
from .words import cost_text

if TYPE_CHECKING:
    from belfort.commands import Command, Event
    from belfort.ruleset import Ruleset


def _example(legal, verb, default):
    """A legal command of `verb` (else `default`) as the active language writes it."""
    for c in map(named_command, legal):
        if c.verb == verb:
            return _local(belfort.command_text(c))
    return _local(default)


def _local(text):
    return localize_line(text, active_language())


class Coach:
    def __init__(self, ruleset: Ruleset, seat: int) -> None:
        self.rs = ruleset
        self.seat = seat
        self.given: set[str] = set()
        self.finished = False

    def lessons(self, events: Sequence[Event], view: dict[str, Any],
                legal: Sequence[Command]) -> list[tuple[str, str]]:
        due: list[str | None] = []
        kinds = {e.event for e in named_known(events)}
        if {"collect", "income", "bonus"} & kinds:
            due.append("collection")
        if "scoring" in kinds:
            due.append("scoring")
        if "round" in kinds and view.get("round") == 2:
            due.append("month-2")
        if self.seat in view.get("waiting_for", []) and legal:
            due.append(self.situation(view))
        out = []
        for key in due:
            if key and key not in self.given:
                self.given.add(key)
                out.append(self.text(key, view, legal))
        if "scoring" in self.given and not self.finished:
            self.finished = True
            out.append(self.text("done", view, legal))
        return out

    def situation(self, view: dict[str, Any]) -> str | None:
        phase, step = view["phase"], view["step"]
        if step in ("discard", "spies-show", "spies-take", "spread"):
            return step
        if phase == "actions" and view.get("current") != self.seat:
            return None
        return {"keep": "keep", "np-setup": "np-setup", "placement": "placement",
                "camp": "camp", "actions": "actions", "np-turn": "np-turn"}.get(phase)

    def text(self, key: str, view: dict[str, Any],
             legal: Sequence[Command]) -> tuple[str, str]:
        rs = self.rs
        sr = ", ".join(str(r) for r in rs.scoring_rounds)
        if key == "keep":
            return (_("Welcome: your first game"), _(
                "Belfort lasts {rounds} months. Each month you place your elves and dwarves "
                "(placement), they bring resources (collection), then you spend them to build "
                "(actions). After months {sr} the players with the most markers in each "
                "district, and the most elves, dwarves and gnomes, score victory points (VP). "
                "Most VP at the end wins.\n\n"
                "First, the cards. You were dealt {deal} cards (your hand, at the bottom of the "
                "board, each with its cost). Keep {keep}: cards you can soon afford are best.\n"
                "Type:  keep #A #B #C   with the numbers of your cards, e.g. {example}\n"
                "(or ? to list every choice and type its number).").format(
                    rounds=rs.rounds, sr=sr, deal=rs.deal, keep=rs.keep,
                    example=_keep_example(legal)))
        if key == "placement":
            return (_("Placement"), _(
                "Players take turns placing ONE worker each on a free plank, or passing.\n"
                "  place elf desk       the Recruiter's desk ({desk} gold): one more worker "
                "after collection\n"
                "  place dwarf camp     the King's camp (free): choose a turn-order crest\n"
                "  place elf GUILD      a guild's plank ({guild} gold): its action in your turn\n"
                "When you pass, ALL your remaining workers go to the resource areas: elves to "
                "the forest (wood), dwarves to the quarry (stone), both to the mine (metal) and "
                "the gold mine (gold). Workers in the areas are what pays most at first.\n"
                "Try: {example}   or: pass").format(
                    desk=rs.fee_recruiter_desk, guild=rs.fee_guild_plank,
                    example=_example(legal, "place", "place elf desk")))
        if key == "spread":
            return (_("Spreading your workers"), _(
                "Say how many of these workers go to each area, in the order the prompt "
                "shows: e.g. spread 2 1 0 puts 2 in the first area, 1 in the second. Elves: "
                "forest, mine, gold mine. Dwarves: quarry, mine, gold mine. The mine pays 1 "
                "metal per elf AND dwarf pair there."))
        if key == "collection":
            return (_("Collection"), _(
                "The areas just paid out (see the log): wood per elf in the forest, stone per "
                "dwarf in the quarry, metal per elf-dwarf pair in the mine, gold per worker in "
                "the gold mine; whoever has most workers in an area gets 1 more. Then income "
                "(gold from built cards with a coin) and taxes: the more VP you have, the more "
                "tax (help taxes). Your resources are on your row: Wd St Mt Gd."))
        if key == "camp":
            return (_("The King's camp"), _(
                "Your worker at the King's camp lets you take a turn-order crest: crest 1 "
                "plays first next month. Type e.g. {example}").format(
                    example=_example(legal, "crest", "crest 1")))
        if key == "actions":
            return (_("Actions: your turn"), _(
                "Now spend your resources, in any order, then end your turn:\n"
                "  build #CARD         build a card from your hand (Tab shows where); it "
                "puts your marker in a district\n"
                "  wall                a wall ({wall}): a marker without a card\n"
                "  activate GUILD      every worker you placed on a plank must be used first\n"
                "  buy wood / sell stone   the trading post\n"
                "  hire #CARD          a gnome onto your built card ({hire} gold)\n"
                "  end                 end your turn\n"
                "Markers win districts; districts are most of the VP. Try: {example}").format(
                    wall=cost_text(rs.wall_cost), hire=rs.fee_gnome_hire,
                    example=_example(legal, "build", _example(legal, "activate", "end"))))
        if key == "discard":
            return (_("Discarding"),
                    _("You hold too many cards: discard one, e.g. {example}").format(
                        example=_example(legal, "discard", "discard #3")))
        if key == "spies-show":
            return (_("The Spies"), _(
                "A player activated the Spies: show them one card of your hand; they may take "
                "it. Show the one you need least, e.g. {example}").format(
                    example=_example(legal, "show", "show #3")))
        if key == "spies-take":
            return (_("The Spies"), _("Take one of the cards shown to you, e.g. {example}").format(
                example=_example(legal, "take", "take #3")))
        if key == "np-setup":
            return (_("The non-players"), _(
                "With two players, two non-players (NP3, NP4) also take part. Put one "
                "non-player's dwarf on a guild: nobody may use that guild's plank. E.g. "
                "{example}").format(example=_example(legal, "np-dwarf", "np-dwarf spies")))
        if key == "np-turn":
            return (_("A non-player's turn"), _(
                "You play a non-player now: it takes a card (pool or top of the pile) and "
                "marks a symbol of that card's type; its markers compete for districts. E.g. "
                "{example}").format(example=_example(legal, "np-take",
                                                     _example(legal, "np-mark", "np-skip"))))
        if key == "month-2":
            return (_("Month 2"), _(
                "The same phases again. Scoring comes after months {sr}; until then, "
                "collect and build. 'score' shows what a scoring would give now.").format(sr=sr))
        if key == "scoring":
            return (_("Scoring"), _(
                "Each district scores its markers: most {d}. Then most elves, dwarves and "
                "gnomes score {w} (a master counts 1). The breakdown shows each count, rank and "
                "the VP. 'score' shows it again at any time.").format(
                    d=_(", then ").join(str(p) for p in rs.district_points),
                    w=_(", then ").join(str(p) for p in rs.worker_points)))
        if key == "done":
            return (_("You have seen every phase"), _(
                "That is the whole game: the same months again until month {rounds}, with "
                "scoring after months {sr}. Play on! help TOPIC explains any card, guild or "
                "phase; tableau shows everyone's built cards.").format(rounds=rs.rounds, sr=sr))
        raise KeyError(key)


def _keep_example(legal):
    for c in map(named_command, legal):
        if c.verb == "keep":
            return _local("keep " + " ".join(f"#{x}" for x in c.kept))
    return _local("keep #0 #1 #2")
