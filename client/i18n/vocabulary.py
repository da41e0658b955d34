"""The words a player may type, in each language, and the English word each stands for.

Two sources: the glossary (the printed game's terms: cards, guilds, resources, workers,
areas, phases …) and the program's own words below (command verbs and keywords, help
topics), which no rulebook prints. Every language's words are accepted together with the
English ones, with or without accents, in any case, with or without hyphens; multi-word
forms ("camp du roi", "mine d'or", "guilde des espions") are matched as phrases.

Words are looked up by *context*, because one spelling may rightly mean different things in
different places (the German "Schmiede" is the Blacksmith card, the verb "schmieden" is the
'smith' command; the Italian "scarta" is the 'discard' command as a first word and the
'drop' keyword after 'keep'):

    verb    the first word(s) of a command line
    arg     the words after the verb (workers, desk/camp, guilds, resources, keywords, cards)
    card    the type after '#17:'            site   the part before '@' (tower@3, wall@2a)
    area    the part before '=' in spread     gate   gateN in gateN@D and the Wizards' gate1
    topic   the words after help / rules
    code    the Architects' discount codes after 'discount='

Within one context of one language (English included) no two meanings share a spelling;
tests/client/test_i18n_vocabulary.py checks every context of every language.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import TYPE_CHECKING

from . import glossary

if TYPE_CHECKING:
    from client.i18n.glossary import Name

# --- the program's words -------------------------------------------------------------------
# verb canonical -> forms, first = the one completion shows. English is the canonical itself.

VERBS = {
    "fr": {
        "keep": ("garder", "garde", "conserver"),
        "np-dwarf": ("nj-nain",),
        "place": ("placer", "place", "poser", "pose"),
        "pass": ("passer", "passe"),
        "spread": ("répartir", "répartis", "distribuer"),
        "crest": ("écusson",),
        "build": ("construire", "construis", "bâtir"),
        "wall": ("mur",),
        "guild": ("guilde",),
        "activate": ("activer", "active"),
        "buy": ("acheter", "achète"),
        "sell": ("vendre", "vends"),
        "exchange": ("échanger", "échange"),
        "hire": ("recruter", "recrute", "engager", "engage"),
        "bank": ("banque",),
        "smith": ("forger",),
        "buy-card": ("acheter-carte", "achat-carte", "acheter une carte"),
        "end": ("fin", "finir", "terminer", "termine"),
        "discard": ("défausser", "défausse"),
        "show": ("montrer", "montre", "révéler", "révèle"),
        "take": ("prendre", "prends"),
        "np-take": ("nj-prendre",),
        "np-mark": ("nj-marquer",),
        "np-skip": ("nj-passer",),
        "help": ("aide",),
        "rules": ("règles",),
        "log": ("journal",),
        "quit": ("quitter",),
        "board": ("plateau",),
        "choices": ("choix",),
        "undo": ("annuler",),
        "score": ("score", "points"),
        "say": ("dire", "dis"),
        "again": ("rejouer", "encore"),
        "evening": ("soirée", "soiree"),
    },
    "de": {
        "keep": ("behalten", "behalte"),
        "np-dwarf": ("nsp-zwerg",),
        # not "einsetzen": that is the Placement phase's name (a help topic)
        "place": ("setzen", "setze"),
        "pass": ("passen", "passe"),
        "spread": ("verteilen", "verteile"),
        "crest": ("wappen",),
        "build": ("bauen", "baue"),
        "wall": ("mauer",),
        "guild": ("gilde",),
        "activate": ("aktivieren", "aktiviere"),
        "buy": ("kaufen", "kaufe"),
        "sell": ("verkaufen", "verkaufe"),
        "exchange": ("tauschen", "tausche"),
        "hire": ("einstellen", "anstellen"),
        "bank": ("bank",),
        "smith": ("schmieden",),
        "buy-card": ("karte-kaufen", "kartenkauf"),
        "end": ("ende", "beenden", "fertig"),
        "discard": ("ablegen", "abwerfen"),
        "show": ("zeigen", "zeige"),
        "take": ("nehmen", "nimm"),
        "np-take": ("nsp-nehmen",),
        "np-mark": ("nsp-markieren",),
        "np-skip": ("nsp-aussetzen",),
        "help": ("hilfe",),
        "rules": ("regeln",),
        "log": ("protokoll",),
        "quit": ("verlassen", "aufhören"),
        "board": ("spielplan",),
        "choices": ("auswahl",),
        "undo": ("rückgängig", "zurück"),
        "score": ("punkte", "punktestand"),
        "say": ("sagen", "sag"),
        "again": ("nochmal", "revanche"),
        "evening": ("abend",),
    },
    "it": {
        "keep": ("tieni", "tenere"),
        "np-dwarf": ("ng-nano",),
        "place": ("piazza", "piazzare"),
        "pass": ("passa", "passare"),
        "spread": ("distribuisci", "distribuire"),
        "crest": ("stemma",),
        "build": ("costruisci", "costruire"),
        "wall": ("mura",),
        "guild": ("gilda",),
        "activate": ("attiva", "attivare"),
        "buy": ("compra", "comprare"),
        "sell": ("vendi", "vendere"),
        "exchange": ("scambia", "scambiare"),
        "hire": ("ingaggia", "ingaggiare", "assumi"),
        "bank": ("banca",),
        "smith": ("forgia",),
        "buy-card": ("compra-carta", "compra carta"),
        "end": ("fine", "finisci"),
        "discard": ("scarta", "scartare"),
        "show": ("mostra", "mostrare"),
        "take": ("prendi", "prendere"),
        "np-take": ("ng-prendi",),
        "np-mark": ("ng-segna",),
        "np-skip": ("ng-salta",),
        "help": ("aiuto",),
        "rules": ("regole",),
        "log": ("registro",),
        "quit": ("esci",),
        "board": ("tabellone",),
        "choices": ("scelte",),
        "undo": ("annulla",),
        "score": ("punteggio",),
        "say": ("dire", "di'"),
        "again": ("ancora", "rivincita"),
        "evening": ("serata",),
    },
    "ko": {
        "keep": ("보관",),
        "np-dwarf": ("np-드워프",),
        "place": ("배치", "놓기"),
        "pass": ("패스",),
        "spread": ("배분",),
        "crest": ("문장",),
        "build": ("건설", "짓기"),
        "wall": ("벽",),
        "guild": ("길드",),
        "activate": ("활성화",),
        "buy": ("구매", "사기"),
        "sell": ("판매", "팔기"),
        "exchange": ("교환",),
        "hire": ("고용",),
        "bank": ("은행",),
        "smith": ("대장간",),
        "buy-card": ("카드구매", "카드 구매"),
        "end": ("종료", "끝"),
        "discard": ("버리기",),
        "show": ("공개",),
        "take": ("가져오기",),
        "np-take": ("np-가져오기",),
        "np-mark": ("np-표시",),
        "np-skip": ("np-건너뛰기",),
        "help": ("도움말",),
        "rules": ("규칙",),
        "log": ("기록",),
        "quit": ("나가기",),
        "board": ("보드",),
        "choices": ("선택지",),
        "undo": ("취소",),
        "score": ("점수",),
        "say": ("말",),
        "again": ("한판더", "다시"),
        "evening": ("저녁",),
    },
}
# The engine's verbs (belfort.commands.VERBS) and the client's words, in English.
ENGLISH_VERBS = ("keep", "np-dwarf", "place", "pass", "spread", "crest", "build", "wall",
                 "guild", "activate", "buy", "sell", "exchange", "hire", "bank", "smith",
                 "buy-card", "end", "discard", "show", "take", "np-take", "np-mark", "np-skip",
                 "help", "rules", "log", "quit", "board", "choices", "undo", "score", "say",
                 "again", "evening")

# Keywords inside commands: keep … drop …, buy-card top, np-mark none, thieves from/each,
# architects discount=…
KEYWORDS = {
    "fr": {"drop": ("jeter", "défausse"), "top": ("pioche", "dessus"),
           "none": ("aucun", "aucune", "rien"), "from": ("chez", "de"),
           "each": ("chacun", "chaque"), "discount": ("remise", "réduction")},
    "de": {"drop": ("weg", "abwerfen"), "top": ("oben", "stapel"),
           "none": ("keins", "keine", "nichts"), "from": ("von",),
           "each": ("je", "jeweils"), "discount": ("rabatt",)},
    "it": {"drop": ("scarta",), "top": ("mazzo", "cima"), "none": ("nessuno", "niente"),
           "from": ("da",), "each": ("ciascuno", "ognuno"), "discount": ("sconto",)},
    "ko": {"drop": ("버림",), "top": ("맨위", "덱"), "none": ("없음",), "from": ("에게서",),
           "each": ("각각",), "discount": ("할인",)},
}
ENGLISH_KEYWORDS = ("drop", "top", "none", "from", "each", "discount")

# Help topics that are not glossary terms (rules_text topic names and aliases).
TOPICS = {
    "fr": {"overview": ("aperçu", "résumé"), "two-player": ("deux-joueurs", "2-joueurs"),
           "board": ("plateau",), "screen": ("écran",), "commands": ("commandes",),
           "guilds": ("guildes",), "keys": ("touches",),
           # the help texts' own topics, as the French help names them
           "master": ("maître", "maîtres"), "workers": ("travailleurs",),
           "plank": ("plateforme", "plateformes"), "lock": ("serrure", "serrures"),
           "marker": ("marqueur", "marqueurs"), "crests": ("écussons",),
           "card-list": ("liste-cartes",), "guild-list": ("liste-guildes",),
           "glossary": ("glossaire", "mots"), "reserve": ("réserve",),
           "income": ("revenu",), "months": ("mois", "saisons"), "areas": ("zones",),
           "gnomes": ("gnomes",)},
    "de": {"overview": ("überblick", "übersicht"), "two-player": ("zu-zweit", "zweierspiel"),
           "board": ("spielplan",), "screen": ("bildschirm",), "commands": ("befehle",),
           "guilds": ("gilden",), "keys": ("tasten",),
           # the help texts' own topics, in the German rulebook's words (002)
           "master": ("meister",), "workers": ("arbeiter",),
           "plank": ("planke", "planken"), "lock": ("schloss", "schlösser", "gnomenschloss"),
           "marker": ("gebäudefigur", "gebäudefiguren", "figuren"),
           "card-list": ("kartenliste", "gebäudekarten"), "guild-list": ("gildenliste",),
           "glossary": ("glossar", "begriffe"), "reserve": ("vorrat",),
           "income": ("einkommen",), "months": ("monate", "jahreszeiten"),
           "areas": ("ressourcenfelder", "felder")},
    "it": {"overview": ("panoramica", "riepilogo"), "two-player": ("due-giocatori",),
           "board": ("tabellone",), "screen": ("schermo",), "commands": ("comandi",),
           "guilds": ("gilde",), "keys": ("tasti",),
           # the help texts' own topics, as the Italian help names them
           "master": ("mastro", "mastri"), "workers": ("lavoratori",),
           "plank": ("casella", "caselle"), "lock": ("lucchetto", "lucchetti"),
           "marker": ("segnalino", "segnalini"), "crests": ("stemmi",),
           "card-list": ("lista-carte",), "guild-list": ("lista-gilde",),
           "glossary": ("glossario", "parole"), "reserve": ("riserva",),
           "income": ("rendita",), "months": ("mesi", "stagioni"), "areas": ("aree",),
           "gnomes": ("gnomi",)},
    "ko": {"overview": ("개요",), "two-player": ("2인", "2인 게임"), "board": ("보드",),
           "screen": ("화면",), "commands": ("명령어",), "guilds": ("길드목록", "길드 목록"),
           "keys": ("키",),
           # the help texts' own topics, in the Korean rulebook's words (004)
           "master": ("마스터",), "workers": ("일꾼",), "plank": ("판자", "플랭크"),
           "lock": ("자물쇠", "노움 자물쇠"), "marker": ("마커", "재산 마커"),
           "card-list": ("카드목록", "카드 목록"), "glossary": ("용어", "용어집"),
           "reserve": ("공급처", "일꾼 공급처"), "income": ("수입",),
           "months": ("달", "계절"), "areas": ("자원구역", "자원 구역")},
}
ENGLISH_TOPICS = ("overview", "setup", "placement", "collection", "actions", "scoring",
                  "taxes", "end", "two-player", "deck", "board", "screen", "commands",
                  "guild-list", "card-list", "rules", "phases", "round", "camp", "desk",
                  "trading", "trade", "scores", "np", "cards", "districts", "guilds",
                  "keys")

# The gatehouse symbols' word in gateN@D and the Wizards' "gate1 gate3"; besides these, every
# spelling of the Gatehouse card is accepted ("torhaus2@3").
GATE_WORDS = {"en": ("gate",), "fr": ("porte",), "de": ("tor",), "it": ("porta",),
              "ko": ("성문",)}

# The Architects' discount codes (ruleset.discounts): letters of the resources given up.
DISCOUNT_CODES = {
    "en": {"m": "m", "ww": "ww", "ss": "ss", "ws": "ws", "sw": "ws"},
    "fr": {"m": "m", "bb": "ww", "pp": "ss", "bp": "ws", "pb": "ws"},      # bois, pierre
    "de": {"m": "m", "hh": "ww", "ss": "ss", "hs": "ws", "sh": "ws"},      # Holz, Stein
    "it": {"m": "m", "ll": "ww", "pp": "ss", "lp": "ws", "pl": "ws"},      # legno, pietra
    "ko": {},                                                              # English codes
}

# Which glossary terms can be typed where.
_ARG_CATEGORIES = ("kind", "guild", "resource", "card", "area")
_ARG_KEYS = ("board:wall", "board:guild", "board:desk", "board:camp")
_SITE_KEYS = ("board:wall", "board:guild")

CONTEXTS = ("verb", "arg", "card", "site", "area", "gate", "topic", "code")


# --- spelling-insensitive keys ----------------------------------------------------------------

_DROP = str.maketrans("", "", "-'’‘_‐‑ ")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})


def fold(text: str) -> str:
    """Lower case, accents removed ('Forêt' -> 'foret', 'Gärten' -> 'garten'); Hangul kept."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", text)


def key(text: str) -> str:
    """The lookup key of a typed word or phrase: folded, without spaces, hyphens, apostrophes
    ('Corps de garde', 'corps-de-garde', 'CORPSDEGARDE' -> 'corpsdegarde')."""
    return fold(text).translate(_DROP)


def spellings(form: str) -> list[str]:
    """A form and its umlaut transliteration ('gärten' -> also 'gaerten')."""
    out = [form]
    umlauts: dict[str, str | int | None] = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae",
                                            "Ö": "Oe", "Ü": "Ue"}
    alt = form.translate(str.maketrans(umlauts))
    if alt != form:
        out.append(alt)
    return out


# --- the tables -------------------------------------------------------------------------------

def _glossary_entries(lang: str, context: str) -> list[tuple[str, Name]]:
    """(canonical, Name) for the glossary terms typable in `context`."""
    out = []
    for term in glossary.TERMS:
        if not term.canonical:
            continue
        if context == "arg":
            ok = term.category in _ARG_CATEGORIES or term.key in _ARG_KEYS
            ok = ok and term.key != "kind:worker"
        elif context == "card":
            ok = term.category == "card"
        elif context == "site":
            ok = (term.category == "card" and term.key != "card:gatehouse") or \
                term.key in _SITE_KEYS
        elif context == "area":
            ok = term.category == "area"
        elif context == "gate":
            ok = term.key == "card:gatehouse"
        elif context == "topic":
            ok = True
        else:
            ok = False
        if ok:
            name = term.names.get(lang)
            if name is not None:
                out.append(("gate" if context == "gate" else term.canonical, name))
    return out


@functools.cache
def entries(lang: str, context: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """[(canonical, (forms…))] of one language (not English unless lang == 'en') in one
    context, the form completion shows first. The order is the lookup priority."""
    out: list[tuple[str, tuple[str, ...]]] = []
    if context == "verb":
        if lang == "en":
            out += [(v, (v,)) for v in ENGLISH_VERBS]
        else:
            out += list(VERBS.get(lang, {}).items())
    elif context == "code":
        codes = DISCOUNT_CODES.get(lang, {})
        by_canon: dict[str, list[str]] = {}
        for code, canon in codes.items():
            by_canon.setdefault(canon, []).append(code)
        out += [(c, tuple(v)) for c, v in by_canon.items()]
    else:
        if context in ("arg", "area"):
            kw = KEYWORDS.get(lang, {}) if lang != "en" else \
                {k: (k,) for k in ENGLISH_KEYWORDS}
            wanted = ENGLISH_KEYWORDS if context == "arg" else ("discount",)
            out += [(k, v) for k, v in kw.items() if k in wanted]
        if context == "gate":
            out.append(("gate", GATE_WORDS.get(lang, ())))
        if context == "topic":
            topics = TOPICS.get(lang, {}) if lang != "en" else \
                {t: (t,) for t in ENGLISH_TOPICS}
            out += list(topics.items())
        for canon, name in _glossary_entries(lang, context):
            forms = name.forms()
            if lang == "en":
                forms = (canon,) + forms if context != "gate" else forms
            out.append((canon, forms))
        if context == "topic":
            out += entries(lang, "verb")
    return tuple(out)


@functools.cache
def table(lang: str, context: str) -> dict[str, str]:
    """{key: canonical} of `lang`'s words and the English ones in `context`. A spelling of
    `lang` wins over an English one (tests make sure the two never disagree)."""
    out: dict[str, str] = {}
    langs = (lang, "en") if lang != "en" else ("en",)
    for one in langs:
        for canon, forms in entries(one, context):
            for form in forms:
                for spelling in spellings(form):
                    out.setdefault(key(spelling), canon)
    return out


@functools.cache
def primary(lang: str, context: str) -> dict[str, str]:
    """{canonical: the word completion and localized commands show} in `lang`."""
    out: dict[str, str] = {}
    for canon, forms in entries(lang, context):
        if forms:
            out.setdefault(canon, forms[0])
    return out


def collisions(lang: str, context: str) -> list[tuple[str, str, str]]:
    """[(key, canonical a, canonical b)] where one spelling would mean two things: must be
    empty for every language and context (tests)."""
    seen: dict[str, str] = {}
    bad: list[tuple[str, str, str]] = []
    langs = (lang, "en") if lang != "en" else ("en",)
    for one in langs:
        for canon, forms in entries(one, context):
            for form in forms:
                for spelling in spellings(form):
                    k = key(spelling)
                    if k in seen and seen[k] != canon:
                        bad.append((k, seen[k], canon))
                    seen.setdefault(k, canon)
    return bad
