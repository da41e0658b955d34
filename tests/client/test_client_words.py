"""The log's sentences for 'you' and for the other players: a table of
events and the sentence each must give, in both persons."""

import belfort
import pytest
from belfort.data import CARD_PLANK, GUILD_PLANK, GUILDS, SITE_ID

from client.i18n.width import cell_width
from client.words import Describer, Namer, initials

GAME = belfort.new_game(["Ana", "Bo", "Cy"], {"guilds": "normal"}, seed=1)
VIEW = belfort.seat_view(GAME, 0)
# a card whose type the view shows: one of Ana's own
CARD = VIEW["hand"][0]["card"]
TYPE = VIEW["hand"][0]["type"].capitalize()
SPIES = GUILDS.index("spies")
WHERE = (f" in district {list(GAME.guilds).index(SPIES)}" if SPIES in GAME.guilds else "")

# (event, what Ana (you) reads, what she reads when Bo did it)
TABLE = [
    (("place", "S", 0, CARD_PLANK + CARD),
     f"You placed an elf on your {TYPE} #{CARD}.",
     f"Bo placed an elf on their {TYPE} #{CARD}."),
    (("place", "S", belfort.KINDS.index("dwarf"), 0),
     "You placed a dwarf on the Recruiter's desk, paying 2 gold.",
     "Bo placed a dwarf on the Recruiter's desk, paying 2 gold."),
    (("guild", "S", SPIES),
     f"You built the Spies guild{WHERE} and own it (+1 marker).",
     f"Bo built the Spies guild{WHERE} and owns it (+1 marker)."),
    (("bank", "S", CARD),
     f"You took 1 gold from your Bank #{CARD}.",
     f"Bo took 1 gold from their Bank #{CARD}."),
    (("smith", "S", CARD),
     f"You bought 1 metal for 1 gold at your Blacksmith #{CARD}.",
     f"Bo bought 1 metal for 1 gold at their Blacksmith #{CARD}."),
    (("activate", "S", CARD_PLANK + CARD, ("elf",)),
     f"You activated your Inn #{CARD}.",
     f"Bo activated their Inn #{CARD}."),
    (("activate", "S", GUILD_PLANK + GUILDS.index("miners"), ()),
     "You activated the Miners (+2 metal).",
     "Bo activated the Miners (+2 metal)."),
    (("end-turn", "S"), "You ended your turn.", "Bo ended their turn."),
    (("income", "S", 3, 1, 0),
     "You received 3 gold income and paid 1 gold tax.",
     "Bo received 3 gold income and paid 1 gold tax."),
    (("income", "S", 0, 2, 1),
     "You paid 2 gold tax and could not pay 1 more: -1 VP.",
     "Bo paid 2 gold tax and could not pay 1 more: -1 VP."),
    (("income", "S", 2, 0, 0), "You received 2 gold income.", "Bo received 2 gold income."),
    (("crest", "S", 2, "S"),
     "You kept crest 2 at the King's camp.", "Bo kept crest 2 at the King's camp."),
    (("crest", "S", 1, 2),
     "You took crest 1 from Cy at the King's camp.",
     "Bo took crest 1 from Cy at the King's camp."),
    (("build", "S", CARD, 2, SITE_ID["tower@3"]),
     "You built a Tower in district 3 (+1 marker).",
     "Bo built a Tower in district 3 (+1 marker)."),
    (("gnome", "S", CARD),
     f"You put a gnome on #{CARD} ({TYPE}).", f"Bo put a gnome on #{CARD} ({TYPE})."),
    (("pass", "S"), "You passed.", "Bo passed."),
    (("gain-worker", "S", "elf"), "You gained an elf.", "Bo gained an elf."),
]


@pytest.mark.parametrize("event,yours,theirs", TABLE)
def test_sentences_for_you_and_for_the_others(event, yours, theirs):
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))

    def as_seat(seat):
        return tuple(seat if x == "S" else x for x in event)
    types = {CARD: VIEW["hand"][0]["type"]}
    if event[0] in ("bank", "smith", "activate"):
        types = {CARD: {"bank": "bank", "smith": "blacksmith", "activate": "inn"}[event[0]]}
    assert d.sentence(as_seat(0), VIEW, types) == yours
    assert d.sentence(as_seat(1), VIEW, types) == theirs


def test_what_others_take_from_you_says_you():
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))
    types = {CARD: "pub"}
    assert d.sentence(("steal", 1, 0, 3, 2), VIEW, types) == "Bo took 2 gold from you."
    assert d.sentence(("steal", 0, 1, 3, 2), VIEW, types) == "You took 2 gold from Bo."
    assert d.sentence(("crest", 1, 1, 0), VIEW, types) == \
        "Bo took crest 1 from you at the King's camp."
    assert d.sentence(("take", 1, CARD, 0), VIEW, types) == \
        f"Bo took #{CARD} (Pub) from you (Spies)."


@pytest.mark.parametrize("winners,text", [
    ([0], "The game is over: you win!"),
    ([1], "The game is over: Bo wins."),
    ([0, 1], "The game is over: Bo and you share the victory after the tie-break."),
    ([1, 2], "The game is over: Bo and Cy share the victory after the tie-break."),
])
def test_the_end_of_the_game_in_both_persons(winners, text):
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))
    view = dict(VIEW, result={"winners": winners, "tie_break": len(winners) > 1})
    assert d.sentence(("game-over",), view, {}) == text


def test_initials_are_one_cell_even_for_korean_names():
    # The board shows each symbol's holder in one cell; Hangul takes two.
    letters = initials(["당신", "Bo", "Cy", "Di"])
    assert letters == ["A", "B", "C", "D"]
    mixed = initials(["김", "이", "Ana"])
    assert len(set(mixed)) == 3 and mixed[2] == "A"
    assert all(cell_width(ch) == 1 for ch in mixed)
    assert initials(["Ana", "Bo"]) == ["A", "B"]


def test_our_draw_waits_for_the_cards_names():
    """In a LAN game our drawn cards' types reach us after the draw itself (the deck
    reveals them to us alone): the sentence waits for them instead of saying bare
    numbers, and comes with the next batch that knows them."""
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))
    hand = VIEW["hand"][:2]
    cards = tuple(h["card"] for h in hand)
    hidden = dict(VIEW, hand=[{"card": c, "type": None} for c in cards])
    assert d.sentences([("draw", 0, cards)], hidden) == []
    assert d.sentences([("pass", 1)], hidden) == ["Bo passed."]
    shown = ", ".join(f"#{h['card']} ({h['type'].capitalize()})" for h in hand)
    assert d.sentences([], dict(VIEW, hand=hand)) == [f"You drew {shown}."]
    assert d.sentences([], dict(VIEW, hand=hand)) == []
    # a card gone from the hand before its name came: said as it is, not held forever
    assert d.sentences([("draw", 0, cards)], hidden) == []
    assert d.sentences([], dict(VIEW, hand=[])) == [
        "You drew " + ", ".join(f"#{c}" for c in cards) + "."]
