"""Reasons the engine gives (refusals, unreadable commands) as English text that carries its
template and values, so a client can say them in the player's language.

The engine stays language-neutral: it never translates. A Reason *is* the English str (so
logs, tests and `str(exc)` read as before); `.template` is the English message with named
{fields} and `.params` the values, where the game's nouns are `Word`s (an engine name with
its glossary kind: Word("card", "tower")) and costs are `Cost`s, which a client replaces by
its own words. Templates are marked with the no-op `N_` so the client's catalog tools
(scripts/i18n.py) extract them.
"""
from __future__ import annotations

from .data import RESOURCES


def N_(message: str) -> str:
    """Marks an English template for extraction; the engine never translates it."""
    return message


class Word(str):
    """A game noun in a reason: English as the engine writes it ('tower', 'master-elf'),
    with `.kind` ('card', 'guild', 'resource', 'kind', 'site', 'verb', 'area') and
    `.name` (the engine's name) for a client to look up its own word. The command reader
    also quotes what it read: "token" (one word or argument), "tokens" (a comma-separated
    list of them), "line" (a command line), "args" (arguments), "code"/"codes" (discount
    codes) and "verbs"."""

    kind: str
    name: str

    def __new__(cls: type[Word], kind: str, name: str) -> Word:
        obj = super().__new__(cls, name)
        obj.kind = kind
        obj.name = name
        return obj

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        return (self.kind, self.name)


class Cost(str):
    """A cost in a reason ('1 wood, 2 stone', 'nothing'); `.cost` is the tuple."""

    cost: tuple[int, ...]

    def __new__(cls: type[Cost], cost: tuple[int, ...]) -> Cost:
        parts = [f"{n} {RESOURCES[i]}" for i, n in enumerate(cost) if n]
        obj = super().__new__(cls, ", ".join(parts) or "nothing")
        obj.cost = tuple(cost)
        return obj

    def __getnewargs__(self) -> tuple[tuple[int, ...]]:  # type: ignore[override]
        return (self.cost,)


class Reason(str):
    """English text made from `template` and `params`; see the module doc."""

    template: str
    params: dict[str, object]

    def __new__(cls: type[Reason], template: str, **params: object) -> Reason:
        obj = super().__new__(cls, template.format(**params))
        obj.template = template
        obj.params = params
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:
        return (self.template,), self.params


def words(kind: str, names: list[str]) -> WordList:
    """A list of engine names as one Word-like value: 'wood, stone' (kind 'resource'…)."""
    return WordList(kind, names)


class WordList(str):
    """Several nouns of one kind, comma-separated in English."""

    kind: str
    names: tuple[str, ...]

    def __new__(cls: type[WordList], kind: str, names: list[str]) -> WordList:
        obj = super().__new__(cls, ", ".join(names))
        obj.kind = kind
        obj.names = tuple(names)
        return obj

    def __getnewargs__(self) -> tuple[str, tuple[str, ...]]:  # type: ignore[override]
        return (self.kind, self.names)
