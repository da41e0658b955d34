"""The engine's reasons (refusals, unreadable commands, undo refusals) in the player's
language.

The engine writes English and attaches the template and its values (belfort.reasons); here
the template goes through the catalog and each game noun (a `Word`, a `Cost`) is replaced
by the glossary's word, so a French player reads a French refusal. Anything else (a plain
str, e.g. a reason that came over the network as text) is shown as it is.
"""

from __future__ import annotations

from belfort import undo
from belfort.reasons import Cost, Reason, Word, WordList

from .i18n import N_, _, active_language, localize_token, term
from collections.abc import Callable

# The undo refusals by code (belfort.undo.Refusal), as the client words them.
UNDO_REASONS = {
    undo.NOTHING: N_("there is nothing of yours to take back"),
    undo.OTHER_SEAT: N_("{who} has played since"),
    undo.DRAWN: N_("a card was drawn since"),
    undo.TURNED_UP: N_("a new card was turned up for the pool since"),
    undo.RESHUFFLED: N_("the discard pile was reshuffled since"),
    undo.REVEALED: N_("a card was revealed since"),
    undo.KEPT: N_("the kept cards were revealed since"),
    undo.GAME_OVER: N_("the game is over"),
    # a networked game's own (net.session.takeback.SessionRefusal)
    "undo/turn-passed": N_("your turn has passed: the game waits for {who} now"),
    "undo/not-playing": N_("the game is not being played now"),
    "undo/catching-up": N_("this game is still catching up with the others after a rejoin"),
}

_GLOSSARY_KIND = {"card": "card", "guild": "guild", "resource": "resource", "kind": "kind",
                  "phase": "phase"}


def _word(value: object) -> object:
    """A game noun in the active language ('tower' -> 'Tour'); any other value as it is."""
    lang = active_language()
    if isinstance(value, WordList):
        return ", ".join(str(_word(Word(value.kind, n))) for n in value.names)
    if isinstance(value, Cost):
        from .words import cost_text
        return cost_text(value.cost)
    if not isinstance(value, Word):
        return value
    if value.kind in _GLOSSARY_KIND:
        try:
            return term(f"{_GLOSSARY_KIND[value.kind]}:{value.name}")
        except KeyError:
            return str(value)
    if value.kind in ("kinds", "cards"):
        # plural nouns: 'elfs' -> the glossary's plural
        from .i18n.terms import term as term_of
        base = value.name[:-1]
        prefix = "kind" if value.kind == "kinds" else "card"
        try:
            return term_of(f"{prefix}:{base}", "plural")
        except KeyError:
            return str(value)
    if value.kind in ("site", "verb"):
        return localize_token(value.name, lang, value.kind if value.kind == "site" else "verb")
    return str(value)


def translate_reason(reason: object, name_of: Callable[[int], str] | None = None) -> str:
    """`reason` (a belfort Reason, an undo Refusal, an exception or a str) as text in the
    active language."""
    if isinstance(reason, undo.Refusal):
        return _refusal(reason, name_of)
    if isinstance(reason, BaseException):
        inner = getattr(reason, "reason", None)
        return translate_reason(inner, name_of) if inner is not None else str(reason)
    if active_language() == "en" or not isinstance(reason, Reason):
        return str(reason)
    try:
        return _(reason.template).format(**{k: _word(v) for k, v in reason.params.items()})
    except (KeyError, IndexError, ValueError):
        return str(reason)


def _refusal(refusal: undo.Refusal, name_of: Callable[[int], str] | None) -> str:
    if refusal.code == undo.PHASE:
        if refusal.round:
            return _("month {m} is over").format(m=refusal.round)
        return _("the phase is over")
    template = UNDO_REASONS.get(refusal.code)
    if template is None:
        return refusal.text(name_of)
    if name_of is not None and refusal.seat is not None:
        who = name_of(refusal.seat)
    elif refusal.code == "undo/turn-passed" and refusal.seat is None:
        return _("your turn has passed: the game waits for the next player now")
    else:
        who = _("seat {n}").format(n=refusal.seat)
    return _(template).format(who=who)
