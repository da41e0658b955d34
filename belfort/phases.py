"""The decisions of a game, in one table (§3–§14): for each phase and step, the verbs that
may be given, the rule that governs them, who decides, and what is being decided.

Legality (`legal.py` has one generator per row), the explanations of refusals
(`explain.py`), the views (`public_view(...)["decision"]`, for the client's prompts) and the
bots read this table; a test checks that the generators, the executors and the command
parser agree with it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .reasons import N_

from .state import (ACTIONS, CAMP, KEEP, NP_SETUP, NP_TURN, OVER, PLACEMENT, STEP_DISCARD,
                    STEP_NONE, STEP_NP_MARK, STEP_NP_TAKE, STEP_SPIES_SHOW, STEP_SPIES_TAKE,
                    STEP_SPREAD)

if TYPE_CHECKING:
    from .state import GameState


class Decision(NamedTuple):
    phase: str
    step: str
    verbs: tuple[str, ...]  # the verbs of the commands that may be given
    rule: str           # the § of docs/rules.md that governs it
    who: str            # "one" seat (state.current), "each" of several at once, or "none"
    what: str           # what is decided, as an instruction ({keep} etc. from the ruleset)


DECISIONS = (
    Decision(KEEP, STEP_NONE, ("keep",), "§3", "each",
             N_("keep {keep} of your cards and drop the others")),
    Decision(NP_SETUP, STEP_NONE, ("np-dwarf",), "§12", "one",
             N_("put your non-player's dwarf on a guild")),
    Decision(PLACEMENT, STEP_NONE, ("place", "pass"), "§6", "one",
             N_("place one worker on a free plank, or pass")),
    Decision(PLACEMENT, STEP_SPREAD, ("spread",), "§6", "one",
             N_("spread your remaining workers over the resource areas")),
    Decision(CAMP, STEP_NONE, ("crest",), "§7", "one",
             N_("take a face-up crest at the King's camp")),
    Decision(ACTIONS, STEP_NONE, ("build", "wall", "guild", "activate", "buy", "sell",
                                  "exchange", "hire", "bank", "smith", "buy-card", "end"),
             "§8", "one", N_("take your actions, then end your turn")),
    Decision(ACTIONS, STEP_DISCARD, ("discard",), "§8", "one", N_("discard a card first")),
    Decision(ACTIONS, STEP_SPIES_SHOW, ("show",), "§14", "each",
             N_("show a card to the Spies first")),
    Decision(ACTIONS, STEP_SPIES_TAKE, ("take",), "§14", "one",
             N_("the spy takes one of the shown cards first")),
    Decision(NP_TURN, STEP_NP_TAKE, ("np-take", "np-skip"), "§12", "one",
             N_("take a card for the non-player first")),
    Decision(NP_TURN, STEP_NP_MARK, ("np-mark",), "§12", "one",
             N_("mark a symbol for the non-player first")),
    Decision(OVER, STEP_NONE, (), "§11", "none", N_("nothing: the game is over")),
)

BY_KEY = {(d.phase, d.step): d for d in DECISIONS}
# A phase's own rule: that of its first decision (for "not your turn" and "not now").
PHASE_RULE: dict[str, str] = {}
for _d in DECISIONS:
    PHASE_RULE.setdefault(_d.phase, _d.rule)
VERBS_OF_PHASE: dict[str, tuple[str, ...]] = {}
for _d in DECISIONS:
    VERBS_OF_PHASE[_d.phase] = VERBS_OF_PHASE.get(_d.phase, ()) + _d.verbs


def decision(state: GameState) -> Decision | None:
    """The Decision the game waits for now (None in a state no row describes)."""
    return BY_KEY.get((state.phase, state.step))


def decision_view(state: GameState) -> dict[str, str | list[str]] | None:
    """The current decision as plain data for views: verbs, rule, who, what."""
    d = decision(state)
    if d is None:
        return None
    return {"verbs": list(d.verbs), "rule": d.rule, "who": d.who,
            "what": d.what.format(keep=state.rs.keep)}


__all__ = ["Decision", "DECISIONS", "BY_KEY", "PHASE_RULE", "decision", "decision_view"]
