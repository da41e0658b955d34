"""What a holding pays for, read from the table the Actions list uses instead of working it
out at every decision (legal._PAYING, nested by wood, stone, metal and gold): it
must be exactly what is worked out afresh, past the table's span too. (The Thieves'
remembered choices: test_remembered_choices.py.)"""

import pytest

from belfort import legal, load_ruleset, parse_ruleset
from belfort.targets import resource_caps


@pytest.mark.parametrize("ruleset", [
    load_ruleset(),
    load_ruleset("ten-space-taxes"),
    # a cap past the table's span: every holding goes through the capped path
    parse_ruleset('based_on = "standard"\n[properties.keep.cost]\nwood = 40\n'),
])
def test_what_a_holding_pays_for_is_read_as_worked_out(ruleset):
    caps = resource_caps(ruleset)
    legal._PAYING.pop(ruleset, None)
    for w in range(0, 36, 3):
        for st in range(0, 36, 5):
            for m in range(0, 9):
                for gold in range(0, 40, 2):
                    capped = tuple(min(r, cap) for r, cap in zip((w, st, m, gold), caps))
                    try:
                        found = legal._PAYING[ruleset][w][st][m][gold]
                    except (KeyError, IndexError):
                        found = legal._paying_capped(ruleset, [w, st, m, gold])
                    assert found == legal._paying(ruleset, capped), (w, st, m, gold)
