"""Every refusal of the command reader carries its template and values (belfort.reasons),
so a client can say it in the player's language, and its English text is what it was:
the template filled with the values, word for word."""

import belfort
import pytest
from belfort.reasons import Reason, Word

BAD = ["keep zzz", "keep #17 drop #3", "keep #17 drop #3:zzz", "place", "place zzz",
       "place elf", "place elf zzz", "place elf desk x", "spread elf 2", "spread elf forest=x",
       "spread elf quarry=2", "spread elf forest=1 forest=2", "crest", "crest x", "crest 9999",
       "build", "build #17", "build #17 zzz", "build #17 thieves", "wall", "wall zzz", "guild",
       "guild zzz", "buy", "buy gold", "exchange metal", "hire", "bank x", "buy-card",
       "buy-card zz", "discard", "activate", "activate desk", "activate thieves from",
       "activate thieves from x", "activate bandits each 1:gold", "activate thieves each x",
       "activate #5 tower@1 discount=zz", "zzz", "", "plače", "np-mark zz", "keep it's"]
# the English the reader gave before its refusals carried their values
ENGLISH = {
    "keep zzz": "'zzz' is not a card; cards are written #17",
    "keep #17 drop #3": "'#3' needs its type, like #17:tower",
    "place elf desk x": "unexpected 'x' at the end",
    "spread elf quarry=2": "a elf cannot go to the quarry (§6)",
    "build #17": "expected a board symbol like tower@3, keep@1, wall@2a, gate4@0 after build #17",
    "crest x": "'x' is not a crest number",
    "": "expected a command after nothing",
    "plače": "'č' (U+010D) in 'plače': commands are written in plain ASCII letters and digits",
    "activate #5 tower@1 discount=zz": "'zz' is not a discount: m for metal, or w and s for wood "
                                    "and stone (like ww, ws, ss)",
    "keep it's": "\"it's\" is not a card; cards are written #17",
}


@pytest.mark.parametrize("line", BAD)
def test_a_refusal_of_the_reader_carries_its_template(line):
    with pytest.raises(belfort.CommandSyntaxError) as caught:
        belfort.parse_command(line)
    reason = caught.value.reason
    assert isinstance(reason, Reason), line
    assert reason.template.format(**reason.params) == str(reason)
    assert all(isinstance(v, str) for v in reason.params.values())
    if line in ENGLISH:
        assert str(reason) == ENGLISH[line]
        assert str(caught.value) == f"cannot read command {line!r}: {ENGLISH[line]}"


def test_what_the_reader_quotes_is_marked_as_the_players_words():
    with pytest.raises(belfort.CommandSyntaxError) as caught:
        belfort.parse_command("place dwarf")
    what = caught.value.reason.params["words"]
    assert isinstance(what, Word) and (what.kind, what.name) == ("line", "place dwarf")
