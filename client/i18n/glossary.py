"""The printed game's own terms in English, French, German, Italian and Korean.

Every translation of the program uses these words (catalog translators too: docs/i18n.md),
and the command vocabulary (`vocabulary.py`) accepts them as typed input. Each non-English
name either cites where its edition prints it, or says why it was chosen:

    src="000:793 TOWER [TOUR]"   rulebook 000, line 793 of its text contains the quote
    chosen="..."                 the edition does not print a usable term; why this one

The rulebooks of the printed game, cited by number (the publishers' texts are not part of
this repository; SEEDS names the plain-text file of each that the citations count lines in):
    000  French rulebook (Tasty Minstrel Games, French translation by Didier Duchon)
    001  Italian rulebook (fan translation by Pjojo, goblins.net; parts left in English)
    002  German rulebook (Pegasus Spiele 2012, translation by Michael Kröhnert)
    003  French one-page player aid (Vin d'jeu)
    004  Korean rulebook (an uneven translation: several terms appear in two or three forms)

`python scripts/i18n.py sources --seeds DIR` checks every citation against a folder holding
those files; the tests check each citation's form and that it shows the term.
This module is data only: importing it reads no file and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LANGS = ("en", "fr", "de", "it", "ko")

SEEDS = {
    "000": "000_634eb4ed259be09d.txt",
    "001": "001_71a5de21426a9d6c.txt",
    "002": "002_a0ec3690b1c2bf58.txt",
    "003": "003_311cec5fe4640119.txt",
    "004": "004_5b6acc0b0800d87a.txt",
}


@dataclass(frozen=True)
class Name:
    """One term in one language."""
    name: str                 # as players read it in running text (singular)
    plural: str = ""          # where players read a count of them ("3 elves")
    short: str = ""           # at most 3 terminal cells, for the compact layout
    brief: str = ""           # at most 10 cells where `name` is longer (guilds in tables)
    full: str = ""            # the longer printed title (guilds: "Guilde des mineurs")
    word: str = ""            # the one-word command token shown by completion (lowercase)
    aliases: tuple = ()       # more forms accepted when typed (may contain spaces)
    typed_name: bool = True   # False: `name` itself is not accepted as typed input
    gender: str = ""          # m, f, n (nouns in fr, de, it); "pl" for a plural-only name
    src: str = ""             # "FILE:LINE quoted text" in the rulebook FILE (SEEDS)
    chosen: str = ""          # why this term, when the edition does not print one
    note: str = ""            # what else the editions print for it

    def forms(self) -> tuple[str, ...]:
        """Every typable spelling (before folding): word, name, aliases."""
        out = [self.word] if self.word else []
        if self.typed_name:
            out.append(self.name)
        out.extend(self.aliases)
        return tuple(dict.fromkeys(f for f in out if f))


def N(name: str, **kw: Any) -> Name:
    if "word" not in kw:
        kw["word"] = name.lower().replace(" ", "-")
    if "aliases" in kw and isinstance(kw["aliases"], str):
        kw["aliases"] = (kw["aliases"],)
    return Name(name, **kw)


@dataclass(frozen=True)
class Term:
    key: str                  # "card:tower", "guild:miners", "area:gold", …
    category: str             # card, guild, resource, kind, area, board, time, season, phase, score
    canonical: str            # the English command word it stands for ("" if none)
    names: dict               # lang -> Name


def T(key: str, canonical: str | None = None, **names: Name) -> Term:
    category, _sep, ident = key.partition(":")
    return Term(key, category, ident if canonical is None else canonical, names)


# --- the ten properties (§13) -------------------------------------------------------------

CARDS = (
    T("card:pub",
      en=N("Pub", plural="Pubs", short="Pub"),
      fr=N("Pub", plural="Pubs", short="Pub", gender="m", src="000:773 PUB [PUB]"),
      de=N("Kneipe", plural="Kneipen", short="Knp", gender="f", src="002:762 KNEIPE"),
      it=N("Pub", plural="Pub", short="Pub", gender="m",
           src="001:572 le carte Pub, Torre e Banca"),
      ko=N("술집", short="술", aliases=("펍",), src="004:50 술집",
           note="also 펍 (004:581)")),
    T("card:gardens",
      en=N("Gardens", plural="Gardens", short="Gdn"),
      fr=N("Jardin", plural="Jardins", short="Jar", gender="m",
           src="000:783 GARDENS [JARDIN]"),
      de=N("Gärten", plural="Gärten", short="Gär", gender="pl", src="002:772 GÄRTEN"),
      it=N("Giardini", plural="Giardini", short="Gia", gender="pl", aliases=("giardino",),
           src="001:748 contando il numero di Giardini con Gnomi",
           note="the card's heading (001:742) is unreadable in the seed"),
      ko=N("정원", short="정", src="004:584 정원")),
    T("card:tower",
      en=N("Tower", plural="Towers", short="Twr"),
      fr=N("Tour", plural="Tours", short="Tou", gender="f", src="000:793 TOWER [TOUR]"),
      de=N("Turm", plural="Türme", short="Trm", gender="m", src="002:782 TURM"),
      it=N("Torre", plural="Torri", short="Tor", gender="f", src="001:752 TORRE"),
      ko=N("타워", short="타", aliases=("탑",), src="004:591 타워",
           note="also 탑 (004:385)")),
    T("card:inn",
      en=N("Inn", plural="Inns", short="Inn"),
      fr=N("Auberge", plural="Auberges", short="Aub", gender="f", src="000:805 INN [AUBERGE]"),
      de=N("Gasthof", plural="Gasthöfe", short="Gst", gender="m", src="002:794 GASTHOF"),
      it=N("Locanda", plural="Locande", short="Loc", gender="f", src="001:764 LOCANDA"),
      ko=N("여관", short="여", src="004:600 여관")),
    T("card:blacksmith",
      en=N("Blacksmith", plural="Blacksmiths", short="Smt"),
      fr=N("Forge", plural="Forges", short="Frg", gender="f",
           src="000:817 BLACKSMITH [FORGE]"),
      de=N("Schmiede", plural="Schmieden", short="Smd", gender="f", src="002:806 SCHMIEDE"),
      it=N("Fabbro", plural="Fabbri", short="Fab", gender="m",
           src="001:386 ha costruito il Fabbro e una Locanda"),
      ko=N("대장장이", short="대", src="004:609 대장장이",
           note="also 대장간 (004:282); here 대장간 is the 'smith' command")),
    T("card:bank",
      en=N("Bank", plural="Banks", short="Bnk"),
      fr=N("Banque", plural="Banques", short="Bnq", gender="f", src="000:829 BANK [BANQUE]"),
      de=N("Bank", plural="Banken", short="Bnk", gender="f", src="002:817 BANK"),
      it=N("Banca", plural="Banche", short="Bnc", gender="f",
           src="001:572 le carte Pub, Torre e Banca"),
      ko=N("은행", short="은", src="004:617 은행")),
    T("card:market",
      en=N("Market", plural="Markets", short="Mkt"),
      fr=N("Marché", plural="Marchés", short="Mch", gender="m", src="000:839 MARKET [MARCHE]"),
      de=N("Markt", plural="Märkte", short="Mkt", gender="m", src="002:827 MARKT"),
      it=N("Mercato", plural="Mercati", short="Mer", gender="m", src="001:798 MERCATO"),
      ko=N("시장", short="시", src="004:624 시장")),
    T("card:gatehouse",
      en=N("Gatehouse", plural="Gatehouses", short="Gat"),
      fr=N("Corps de garde", plural="Corps de garde", short="CdG", gender="m",
           src="000:853 GATEHOUSE [CORPS DE GARDE]"),
      de=N("Torhaus", plural="Torhäuser", short="Tor", gender="n", src="002:841 TORHAUS"),
      it=N("Guardiola", plural="Guardiole", short="Gua", gender="f",
           src="001:538 una Fortezza, una Guardiola e una Torre",
           note="the card's heading (001:810) reads SUARDIOLA in the seed"),
      ko=N("게이트하우스", short="게", aliases=("성문의 집", "문루"),
           src="004:633 게이트하우스",
           note="icons print 성문의 집 (004:56), an example 문루 (004:385)")),
    T("card:library",
      en=N("Library", plural="Libraries", short="Lib"),
      fr=N("Bibliothèque", plural="Bibliothèques", short="Bib", gender="f",
           src="000:865 LIBRARY [BIBLIOTHEQUE]"),
      de=N("Bibliothek", plural="Bibliotheken", short="Bib", gender="f",
           src="002:853 BIBLIOTHEK"),
      it=N("Libreria", plural="Librerie", short="Lib", gender="f", aliases=("biblioteca",),
           src="001:822 LIBRERIA",
           note="'biblioteca', the usual Italian word, is accepted when typed"),
      ko=N("도서관", short="도", src="004:642 도서관")),
    T("card:keep",
      en=N("Keep", plural="Keeps", short="Kp"),  # 2 cells: the board's keep column
      fr=N("Donjon", plural="Donjons", short="Dj", gender="m",
           src="000:883 Chaque section du donjon",
           note="the heading (000:877) is left in English; the icons print DONJON (000:65)"),
      de=N("Festung", plural="Festungen", short="Fs", gender="f", src="002:865 FESTUNG"),
      it=N("Fortezza", plural="Fortezze", short="Fo", gender="f", src="001:832 FORTEZZA"),
      ko=N("키프", short="키", aliases=("성채", "보루"), src="004:654 키프의 각 구역",
           note="icons print 보루 (004:58), examples 성채 (004:385); the heading (004:650) "
                "reads 유지, a mistranslation of the verb 'keep'")),
)

# --- walls and guild symbols (§2) -----------------------------------------------------------

BOARD_SYMBOLS = (
    T("board:wall",
      en=N("wall", plural="walls"),
      fr=N("mur", plural="murs", gender="m", src="000:66 MUR"),
      de=N("Mauer", plural="Mauern", gender="f", src="002:593 Kosten einer Mauer"),
      it=N("mura", plural="mura", gender="f", aliases=("muro",),
           src="001:576 Le Mura non sono Edifici",
           note="the edition uses 'Mura' for one wall too ('una Mura', 001:576)"),
      ko=N("벽", src="004:419 벽 쌓기", note="also 성벽 (004:494)")),
    T("board:guild",
      en=N("guild", plural="guilds"),
      fr=N("guilde", plural="guildes", gender="f", src="000:67 GUILDE"),
      de=N("Gilde", plural="Gilden", gender="f", src="002:70 GILDE"),
      it=N("gilda", plural="gilde", gender="f", src="001:152 12 TESSERE GILDA"),
      ko=N("길드", src="004:59 길드", note="also 조합 (004:264)")),
)

# --- the twelve guilds (§14) ----------------------------------------------------------------
# name: how the guild is called in running text; full: its printed title; brief: a form of at
# most 10 cells for the board's guild column and the score table, where the name is longer
# (the German compounds, three French and Italian names): chosen abbreviations, not cuts.


def _g(name: str, full: str, **kw: Any) -> Name:
    return N(name, full=full, **kw)


GUILD_TERMS = (
    T("guild:merchants",
      en=_g("Merchants", "Merchants' guild"),
      fr=_g("Marchands", "Guilde des marchands", aliases=("guilde des marchands",),
            src="000:891 GUILDE DES MARCHANDS"),
      de=_g("Kaufmanns-Gilde", "Kaufmanns-Gilde", brief="Kaufmann", word="kaufmann",
            aliases=("kaufmanns", "kaufleute"), src="002:887 KAUFMANNS-GILDE"),
      it=_g("Mercanti", "Gilda dei Mercanti", aliases=("gilda dei mercanti",),
            src="001:846 GILDA DEI MERCANTI"),
      ko=_g("상인", "상인 길드", aliases=("상인 길드",), src="004:662 상인 길드")),
    T("guild:librarians",
      en=_g("Librarians", "Librarians' guild"),
      fr=_g("Bibliothécaires", "Guilde des bibliothécaires", brief="Biblioth.",
            aliases=("guilde des bibliothécaires",), src="000:904 GUILDE DES BIBLIOTHECAIRES"),
      de=_g("Bibliothekars-Gilde", "Bibliothekars-Gilde", brief="Biblioth.",
            word="bibliothekar", aliases=("bibliothekars", "bibliothekare"),
            src="002:879 BIBLIOTHEKARS-GILDE"),
      it=_g("Bibliotecari", "Gilda dei Bibliotecari", brief="Bibliotec.",
            aliases=("gilda dei bibliotecari",),
            src="001:867 GILDA DEI BIBLIOTECAL",
            note="the seed's OCR reads BIBLIOTECAL for BIBLIOTECARI"),
      ko=_g("사서", "사서 길드", aliases=("사서 길드", "도서관 길드"),
            chosen="the edition prints 도서관 길드 'Library guild' (004:671), which would read "
                   "as the Library (도서관); 사서 (librarian) keeps the two apart. "
                   "'도서관 길드' typed in full is still accepted")),
    T("guild:architects",
      en=_g("Architects", "Architects' guild"),
      fr=_g("Architectes", "Guilde des architectes", brief="Architect.",
            aliases=("guilde des architectes",),
            src="000:914 GUILDE DES ARCHITECTES"),
      de=_g("Baumeister-Gilde", "Baumeister-Gilde", brief="Baumeister", word="baumeister",
            src="002:900 BAUMEISTER-GILDE"),
      it=_g("Architetti", "Gilda degli Architetti", aliases=("gilda degli architetti",),
            src="001:885 GILDA DEGLI ARCHITETTI"),
      ko=_g("건축가", "건축가 길드", aliases=("건축가 길드",), src="004:679 건축가 길드")),
    T("guild:recruiters",
      en=_g("Recruiters", "Recruiters' guild"),
      fr=_g("Recruteurs", "Guilde des recruteurs", aliases=("guilde des recruteurs",),
            src="000:928 GUILDE DES RECRUTEURS"),
      de=_g("Anwerber-Gilde", "Anwerber-Gilde", brief="Anwerber", word="anwerber",
            src="002:914 ANWERBER-GILDE"),
      it=_g("Reclutamento", "Gilda del Reclutamento", brief="Reclutam.",
            aliases=("gilda del reclutamento", "reclutatori"),
            src="001:906 GILDA DEL RECLUTAMENTO",
            note="'reclutatori' (recruiters) is accepted when typed"),
      ko=_g("모집", "모집 길드", aliases=("모집 길드", "모집자", "모집자 길드"),
            src="004:691 모집 길드", note="also 모집자 길드 (004:448)")),
    T("guild:sawyers",
      en=_g("Sawyers", "Sawyers' guild"),
      fr=_g("Scieurs", "Guilde des scieurs", aliases=("guilde des scieurs",),
            src="000:944 GUILDE DES SCIEURS"),
      de=_g("Sägearbeiter-Gilde", "Sägearbeiter-Gilde", brief="Sägearb.",
            word="sägearbeiter", src="002:930 SÄGEARBEITER-GILDE"),
      it=_g("Boscaioli", "Gilda dei Boscaioli", aliases=("gilda dei boscaioli",),
            src="001:926 GILDA DEI BOSCAIOLI"),
      ko=_g("제재소", "제재소 길드", aliases=("제재소 길드",), src="004:703 제재소 길드")),
    T("guild:miners",
      en=_g("Miners", "Miners' guild"),
      fr=_g("Mineurs", "Guilde des mineurs", aliases=("guilde des mineurs",),
            src="000:952 GUILDE DES MINEURS"),
      de=_g("Bergmanns-Gilde", "Bergmanns-Gilde", brief="Bergmann", word="bergmann",
            aliases=("bergmanns", "bergleute"), src="002:938 BERGMANNS-GILDE"),
      it=_g("Minatori", "Gilda dei Minatori", aliases=("gilda dei minatori",),
            src="001:940 GILDA DEI MINATORI"),
      ko=_g("광부", "광부 길드", aliases=("광부 길드", "광산 개발자", "광산 개발자 길드"),
            src="004:438 광부 길드",
            note="the guild's own heading prints 광산 개발자 길드 (004:715)")),
    T("guild:bankers",
      en=_g("Bankers", "Bankers' guild"),
      fr=_g("Banquiers", "Guilde des banquiers", aliases=("guilde des banquiers",),
            src="000:960 GUILDE DES BANQUIERS"),
      de=_g("Bänker-Gilde", "Bänker-Gilde", brief="Bänker", word="bänker",
            src="002:946 BÄNKER-GILDE"),
      it=_g("Banchieri", "Gilda dei Banchieri", aliases=("gilda dei banchieri",),
            chosen="the Italian rulebook leaves this guild in English (001:956 BANKERS' GUILD);"
                   " 'banchieri' is the Italian word"),
      ko=_g("은행가", "은행가 길드", aliases=("은행가 길드",), src="004:709 은행가 길드")),
    T("guild:masons",
      en=_g("Masons", "Masons' guild"),
      fr=_g("Maçons", "Guilde des maçons", aliases=("guilde des maçons",),
            src="000:968 GUILDE DES MAÇONS"),
      de=_g("Steinmetz-Gilde", "Steinmetz-Gilde", brief="Steinmetz", word="steinmetz",
            aliases=("steinmetze",), src="002:954 STEINMETZ-GILDE"),
      it=_g("Muratori", "Gilda dei Muratori", aliases=("gilda dei muratori", "scalpellini"),
            chosen="the Italian rulebook leaves this guild in English (001:970 MASONS' GUILD);"
                   " 'muratori' is the Italian word ('scalpellini' is accepted too)"),
      ko=_g("석공", "석공 길드", aliases=("석공 길드",), src="004:721 석공 길드")),
    T("guild:thieves",
      en=_g("Thieves", "Thieves' guild"),
      fr=_g("Voleurs", "Guilde des voleurs", aliases=("guilde des voleurs",),
            src="000:980 GUILDE DES VOLEURS"),
      de=_g("Diebes-Gilde", "Diebes-Gilde", brief="Diebe", word="diebe",
            aliases=("diebes", "dieb"), src="002:966 DIEBES-GILDE"),
      it=_g("Ladri", "Gilda dei Ladri", aliases=("gilda dei ladri",),
            src="001:990 GILDA DEI LADRI"),
      ko=_g("도적", "도적 길드", aliases=("도적 길드",), src="004:730 도적 길드")),
    T("guild:bandits",
      en=_g("Bandits", "Bandits' guild"),
      fr=_g("Bandits", "Guilde des bandits", aliases=("guilde des bandits",),
            src="000:988 GUILDE DES BANDITS"),
      de=_g("Banditen-Gilde", "Banditen-Gilde", brief="Banditen", word="banditen",
            src="002:974 BANDITEN-GILDE"),
      it=_g("Banditi", "Gilda dei Banditi", aliases=("gilda dei banditi",),
            src="001:1006 GILDA DEI BANDITI"),
      ko=_g("산적", "산적 길드", aliases=("산적 길드",), src="004:744 산적 길드")),
    T("guild:wizards",
      en=_g("Wizards", "Wizards' guild"),
      fr=_g("Sorciers", "Guilde des sorciers", aliases=("guilde des sorciers",),
            src="000:996 GUILDE DES SORCIERS"),
      de=_g("Zauberer-Gilde", "Zauberer-Gilde", brief="Zauberer", word="zauberer",
            src="002:982 ZAUBERER-GILDE"),
      it=_g("Maghi", "Gilda dei Maghi", aliases=("gilda dei maghi",),
            src="001:1018 GILDA DEI MAGHI"),
      ko=_g("마법사", "마법사 길드", aliases=("마법사 길드",), src="004:736 마법사 길드")),
    T("guild:spies",
      en=_g("Spies", "Spies' guild"),
      fr=_g("Espions", "Guilde des espions", aliases=("guilde des espions",),
            src="000:1006 GUILDE DES ESPIONS"),
      de=_g("Spion-Gilde", "Spion-Gilde", brief="Spione", word="spione",
            aliases=("spion",), src="002:992 SPION-GILDE"),
      it=_g("Spie", "Gilda delle Spie", aliases=("gilda delle spie",),
            src="001:1038 GILDA DELLE SPIE"),
      ko=_g("스파이", "스파이 길드", aliases=("스파이 길드",), src="004:749 스파이 길드")),
)

# --- resources (§1) -----------------------------------------------------------------------

RESOURCE_TERMS = (
    T("resource:wood",
      en=N("wood", short="w"),
      fr=N("bois", short="b", gender="m", src="000:190 **Bois, pierre, métal et or**"),
      de=N("Holz", short="h", gender="n", src="002:170 Die Ressourcen **Holz**"),
      it=N("legno", short="l", gender="m", src="001:174 Legno, Pietra, Metallo e Oro"),
      ko=N("나무", aliases=("목재",), src="004:130 나무, 돌, 금속, 금",
           short="목", note="also 목재 (004:290)")),
    T("resource:stone",
      en=N("stone", short="s"),
      fr=N("pierre", plural="pierres", short="p", gender="f",
           src="000:190 **Bois, pierre, métal et or**", note="plural: 5 pierres (000:216)"),
      de=N("Stein", plural="Steine", short="s", gender="m", src="002:170 **Stein**",
           note="plural: 5 Steine (002:196); Holz, Metall and Gold stay as they are "
                "(2 Metall, 002:505)"),
      it=N("pietra", short="p", gender="f", src="001:174 Legno, Pietra, Metallo e Oro"),
      ko=N("돌", short="석", src="004:130 나무, 돌, 금속, 금")),
    T("resource:metal",
      en=N("metal", short="m"),
      fr=N("métal", plural="métaux", short="m", gender="m",
           src="000:190 **Bois, pierre, métal et or**", note="plural: 2 métaux (000:498)"),
      de=N("Metall", short="m", gender="n", src="002:170 **Metall**"),
      it=N("metallo", short="m", gender="m", src="001:174 Legno, Pietra, Metallo e Oro"),
      ko=N("금속", short="철", src="004:130 나무, 돌, 금속, 금")),
    T("resource:gold",
      en=N("gold", short="g"),
      fr=N("or", short="o", gender="m", src="000:190 **Bois, pierre, métal et or**"),
      de=N("Gold", short="g", gender="n", src="002:170 **Gold**"),
      it=N("oro", short="o", gender="m", src="001:174 Legno, Pietra, Metallo e Oro"),
      ko=N("금", aliases=("골드",), short="금", src="004:130 나무, 돌, 금속, 금",
           note="also 골드 (004:246)")),
)
# Plurals as the rulebooks count resources: French 4 pierres, 2 métaux; German 5 Steine but
# 2 Metall; Italian leaves them as they are (4 Pietra, 001:982; 4 Legno, 001:936).
# The Korean one-syllable resource shorts (목 석 철 금: wood, stone, iron, gold) are the
# Sino-Korean syllables Korean players use as abbreviations; the edition prints none.

# --- workers (§1) -----------------------------------------------------------------------------

KIND_TERMS = (
    T("kind:elf",
      en=N("elf", plural="elves", short="e"),
      fr=N("elfe", plural="elfes", short="e", gender="m", src="000:228 35 ELFES"),
      de=N("Elb", plural="Elben", short="e", gender="m", src="002:224 ELB"),
      it=N("elfo", plural="elfi", short="e", gender="m", src="001:204 ELFO"),
      ko=N("엘프", short="엘", src="004:142 35명의 엘프")),
    T("kind:dwarf",
      en=N("dwarf", plural="dwarves", short="d"),
      fr=N("nain", plural="nains", short="n", gender="m", src="000:244 NAIN"),
      de=N("Zwerg", plural="Zwerge", short="z", gender="m", src="002:218 ZWERG"),
      it=N("nano", plural="nani", short="n", gender="m", src="001:198 NANO"),
      ko=N("드워프", short="드", src="004:141 35명의 드워프")),
    T("kind:master-elf",
      en=N("master elf", plural="master elves", short="E", word="master-elf"),
      fr=N("maître elfe", plural="maîtres elfes", short="E", gender="m", word="maître-elfe",
           src="000:254 MAITRE ELFE"),
      de=N("Meisterelb", plural="Meisterelben", short="E", gender="m",
           aliases=("meister-elb",), src="002:228 MEISTERELB"),
      it=N("mastro elfo", plural="mastri elfi", short="E", gender="m", word="mastro-elfo",
           src="001:210 MASTRO ELFO"),
      ko=N("마스터 엘프", short="엘⁺", word="마스터엘프", aliases=("숙련된 엘프",),
           src="004:142 마스터 엘프", note="also 숙련된 엘프 (004:311)")),
    T("kind:master-dwarf",
      en=N("master dwarf", plural="master dwarves", short="D", word="master-dwarf"),
      fr=N("maître nain", plural="maîtres nains", short="N", gender="m", word="maître-nain",
           src="000:248 MAITRE NAIN"),
      de=N("Meisterzwerg", plural="Meisterzwerge", short="Z", gender="m",
           aliases=("meister-zwerg",), src="002:222 MEISTERZWERG"),
      it=N("mastro nano", plural="mastri nani", short="N", gender="m", word="mastro-nano",
           src="001:196 Mastro Nano sul retro"),
      ko=N("마스터 드워프", short="드⁺", word="마스터드워프", aliases=("숙련된 드워프",),
           src="004:141 마스터 드워프", note="also 숙련된 드워프 (004:311)")),
    T("kind:gnome",
      en=N("gnome", plural="gnomes", short="g"),
      fr=N("gnome", plural="gnomes", short="g", gender="m", src="000:232 22 GNOMES"),
      de=N("Gnom", plural="Gnome", short="g", gender="m", src="002:212 22 GNOME"),
      it=N("gnomo", plural="gnomi", short="g", gender="m", src="001:623 uno Gnomo dalla pila"),
      ko=N("노움", short="노", src="004:143 22명의 노움")),
    T("kind:worker", canonical="",
      en=N("worker", plural="workers"),
      fr=N("travailleur", plural="travailleurs", gender="m", src="000:220 TRAVAILLEURS"),
      de=N("Arbeiter", plural="Arbeiter", gender="m", src="002:200 ARBEITER"),
      it=N("lavoratore", plural="lavoratori", gender="m",
           src="001:464 riprende il proprio lavoratore"),
      ko=N("일꾼", src="004:87 일꾼들을")),
)

# --- the collection board: resource areas (§6, §7) ----------------------------------------------

AREA_TERMS = (
    T("area:forest",
      en=N("forest"),
      fr=N("forêt", gender="f", src="000:443 1 elfe placé dans la forêt"),
      de=N("Wald", gender="m", src="002:449 in den Wald gesetzt"),
      it=N("foresta", gender="f", src="001:396 nella Foresta"),
      ko=N("숲", src="004:290 숲에 배치되면")),
    T("area:quarry",
      en=N("quarry"),
      fr=N("carrière", gender="f", src="000:445 placé dans la carrière"),
      de=N("Steinbruch", gender="m", src="002:451 in den Steinbruch"),
      it=N("cava", gender="f", src="001:440 nella Cava"),
      ko=N("채석장", src="004:291 채석장")),
    T("area:mine",
      en=N("mine"),
      fr=N("mine", gender="f", src="000:447 placée dans la mine"),
      de=N("Bergwerk", gender="n", src="002:453 ins Bergwerk"),
      it=N("miniera", gender="f", src="001:448 nella Miniera"),
      ko=N("광산", src="004:292 광산")),
    # The engine's word for the gold mine area is "gold" (spread … gold=1); each language's
    # command word is its gold mine or its gold, both are accepted.
    T("area:gold",
      en=N("gold mine", word="gold", aliases=("gold-mine",)),
      fr=N("mine d'or", gender="f", word="or", src="000:449 placé dans la mine d'or"),
      de=N("Goldmine", gender="f", word="gold", src="002:455 in die Goldmine"),
      it=N("miniera d'oro", gender="f", word="oro", src="001:406 nella Miniera d'Oro"),
      ko=N("금광", src="004:293 금광")),
)

# --- places and things on the table -------------------------------------------------------

BOARD_TERMS = (
    T("board:desk",
      en=N("Recruiter's desk", word="desk"),
      fr=N("bureau du recruteur", gender="m", word="bureau",
           aliases=("bureau de recrutement",), src="000:122 BUREAU DU RECRUTEUR",
           note="the French aid prints 'bureau de recrutement' (003:17)"),
      de=N("Anwerber-Pult", gender="n", word="pult", src="002:402 ANWERBER-PULT"),
      it=N("Banco Assunzioni", gender="m", word="banco", src="001:347 Banco Assunzioni"),
      ko=N("모집자의 책상", word="책상", src="004:243 모집자의 책상")),
    T("board:camp",
      en=N("King's camp", word="camp", aliases=("kings-camp",)),
      fr=N("camp du Roi", gender="m", word="camp", src="000:124 CAMP DU ROI"),
      de=N("Lager des Königs", gender="n", word="lager", src="002:411 LAGER DES KÖNIGS"),
      it=N("Campo Reale", gender="m", word="campo", aliases=("corte reale",),
           src="001:357 CAMPO REALE", note="one example says 'Corte Reale' (001:492)"),
      ko=N("왕의 야영지", word="야영지", src="004:254 왕의 야영지")),
    T("board:trading-post", canonical="trading",
      en=N("trading post"),
      fr=N("comptoir", gender="m", src="000:641 visiter le comptoir",
           note="the French aid calls it 'marché' (003:107), the Market's name"),
      de=N("Handelsposten", gender="m", src="002:634 DEN HANDELSPOSTEN BESUCHEN"),
      it=N("Stazione di Scambio", gender="f", src="001:615 la Stazione di Scambio",
           note="the calendar board is said to show the 'emporio' prices (001:90)"),
      ko=N("교역소", src="004:453 교역소 방문",
           note="also 트레이딩 포스트 (004:629)")),
    T("board:district", canonical="districts",
      en=N("district", plural="districts"),
      fr=N("quartier", plural="quartiers", gender="m", src="000:71 5 QUARTIERS"),
      de=N("Bezirk", plural="Bezirke", gender="m", src="002:74 5 SPIELPLAN-BEZIRKE"),
      it=N("distretto", plural="distretti", gender="m", src="001:666 ogni distretto"),
      ko=N("구역", src="004:65 5개의 게임 보드 구역")),
    T("board:crest", canonical="crest",
      en=N("crest", plural="crests", full="turn-order crest"),
      fr=N("écusson", plural="écussons", gender="m", full="écusson ordre du tour",
           src="000:160 Votre écusson vous indique votre place"),
      de=N("Wappen", plural="Wappen", gender="n", full="Zugabfolgewappen",
           aliases=("zugabfolgewappen",), src="002:124 Dein Wappen zeigt an"),
      it=N("stemma", plural="stemmi", gender="m", full="Stemma Ordine del Turno",
           src="001:134 Il tuo stemma indica il tuo posto"),
      ko=N("문장", full="턴 순서 문장", src="004:102 당신의 문장은 턴 순서를 알려줍니다")),
    T("board:score-track", canonical="",
      en=N("score track"),
      fr=N("piste de score", gender="f", src="000:260 sur la piste de score"),
      de=N("Wertungsskala", gender="f", src="002:232 auf der Wertungsskala"),
      it=N("percorso segna-punti", gender="m", src="001:224 percorso segna-punti"),
      ko=N("점수 트랙", src="004:162 점수 트랙")),
    T("board:tax", canonical="taxes",
      en=N("tax", plural="taxes"),
      fr=N("taxe", plural="taxes", gender="f", aliases=("taxes",),
           src="000:553 chaque joueur paie des taxes"),
      de=N("Steuer", plural="Steuern", gender="f", aliases=("steuern",),
           src="002:558 zahlt jeder Spieler Steuern"),
      it=N("tassa", plural="tasse", gender="f", aliases=("tasse",),
           src="001:534 ogni giocatore paga le Tasse",
           note="printed in the plural only"),
      ko=N("세금", src="004:383 세금을 지불합니다")),
    T("board:tax-level", canonical="",
      en=N("tax level", plural="tax levels"),
      fr=N("niveau de taxes", plural="niveaux de taxes", gender="m",
           src="000:556 premier niveau de taxes"),
      de=N("Steuerklasse", plural="Steuerklassen", gender="f", src="002:558 der Steuerklasse"),
      it=N("livello di tasse", plural="livelli di tasse", gender="m",
           src="001:534 determinato livello di tasse"),
      ko=N("세금 수준", src="004:383 특정 세금 수준")),
    T("board:income", canonical="",
      en=N("income"),
      fr=N("revenu", plural="revenus", gender="m", src="000:777 Revenu : 1 or"),
      de=N("Einkommen", gender="n", src="002:766 Einkommen: 1 Gold"),
      it=N("rendita", plural="rendite", gender="f", src="001:746 Rendita: 1 Oro"),
      ko=N("수입", src="004:580 수입: 1 금")),
    T("board:plank", canonical="",
      en=N("plank", plural="planks"),
      fr=N("plateforme", plural="plateformes", gender="f",
           src="000:429 une plateforme de ses propres cartes"),
      de=N("Planke", plural="Planken", gender="f", src="002:404 verfügbaren Planken"),
      it=N("casella", plural="caselle", gender="f",
           src="001:359 nella casella con il numero più basso"),
      ko=N("판자", src="004:233 전형적인 판자", note="also 플랭크 (004:413)")),
    T("board:gnome-lock", canonical="",
      en=N("gnome lock", plural="gnome locks"),
      fr=N("serrure gnome", plural="serrures gnome", gender="f",
           src="000:152 SERRURE GNOME ET ACTION"),
      de=N("Gnomenschloss", plural="Gnomenschlösser", gender="n",
           src="002:150 GNOMENSCHLOSS MIT AKTION"),
      it=N("lucchetto gnomo", plural="lucchetti gnomo", gender="m",
           src="001:126 LUCCHETTO GNOMO CON AZIONE"),
      ko=N("노움 자물쇠", src="004:280 노움 자물쇠로 보호되어")),
    T("board:pool", canonical="",
      en=N("pool"),
      fr=N("pioche face visible", gender="f", src="000:296 former une pioche face visible"),
      de=N("Nachziehangebot", gender="n", src="002:656 vom offenen Nachziehangebot",
           note="also Nachziehvorrat (002:278)"),
      it=N("pool di pesca", gender="m", src="001:634 nel Pool di Pesca"),
      ko=N("드로우 풀", src="004:198 드로우 풀을 형성하세요")),
    T("board:draw-pile", canonical="deck",
      en=N("draw pile"),
      fr=N("pioche", gender="f", src="000:296 pour créer une pioche"),
      de=N("Nachziehstapel", gender="m", src="002:277 ist der Nachziehstapel"),
      it=N("mazzo di pesca", gender="m", src="001:634 del Mazzo di Pesca"),
      ko=N("드로우 덱", src="004:198 드로우 덱을 형성하세요")),
    T("board:discard-pile", canonical="",
      en=N("discard pile"),
      fr=N("défausse", gender="f", src="000:289 une défausse commune"),
      de=N("Ablagestapel", gender="m", src="002:266 gemeinsamen Ablagestapel"),
      it=N("pila degli scarti", gender="f", src="001:245 una pila degli scarti"),
      ko=N("버린 카드 더미",
           chosen="the edition only says the cards are discarded (버립니다, 004:190)")),
    T("board:hand", canonical="",
      en=N("hand"),
      fr=N("main", gender="f", src="000:289 une main de 5 cartes"),
      de=N("Hand", gender="f", src="002:433 noch auf der Hand halten"),
      it=N("mano", gender="f", src="001:245 una mano di 5 Carte Edificio"),
      ko=N("손", src="004:276 손에 있는 카드")),
    T("board:card", canonical="cards",
      en=N("property card", plural="property cards"),
      fr=N("carte propriété", plural="cartes propriété", gender="f",
           src="000:662 acheter une carte propriété"),
      de=N("Gebäudekarte", plural="Gebäudekarten", gender="f", src="002:134 50 GEBÄUDEKARTEN"),
      it=N("carta edificio", plural="carte edificio", gender="f",
           src="001:564 qualsiasi Carta Edificio"),
      ko=N("재산 카드", src="004:92 50 재산 카드", note="also 부동산 카드 (004:275)")),
    T("board:marker", canonical="",
      en=N("marker", plural="markers"),
      fr=N("marqueur propriété", plural="marqueurs propriété", gender="m",
           src="000:861 un second marqueur propriété"),
      de=N("Gebäudefigur", plural="Gebäudefiguren", gender="f",
           src="002:585 eine seiner Gebäudefiguren"),
      it=N("segnalino edificio", plural="segnalini edificio", gender="m",
           src="001:566 un proprio Segnalino Edificio"),
      ko=N("재산 마커", src="004:415 재산 마커")),
    T("board:non-player", canonical="np",
      en=N("non-player", plural="non-players", short="NP"),
      fr=N("non-joueur", plural="non-joueurs", short="NJ", gender="m",
           src="000:748 non-joueur (NJ)"),
      de=N("Nicht-Spieler", plural="Nicht-Spieler", short="NSP", gender="m",
           src="002:738 Nicht-Spieler (NSP)"),
      it=N("non giocante", plural="non giocanti", short="NG", gender="m",
           src="001:707 partecipante non giocante (NG)"),
      ko=N("비플레이어", short="NP", src="004:546 비플레이어(NP)")),
    T("board:district-majority", canonical="",
      en=N("district majority"),
      fr=N("majorité dans les quartiers", gender="f", src="000:693 MAJORITE DANS LES QUARTIERS"),
      de=N("Bezirks-Mehrheit", gender="f", src="002:683 BEZIRKS-MEHRHEIT"),
      it=N("maggioranza nel distretto", gender="f", src="001:654 MAGGIORANZA NEL DISTRETTO"),
      ko=N("구역 다수", src="004:492 구역 다수")),
    T("board:worker-majority", canonical="",
      en=N("worker majority"),
      fr=N("majorité de travailleurs", gender="f", src="000:709 MAJORITE DE TRAVAILLEURS"),
      de=N("Mehrheit an Arbeitern", gender="f", src="002:699 MEHRHEIT AN ARBEITERN"),
      it=N("maggioranza di lavoratori", gender="f", src="001:674 MAGGIORANZA DI LAVORATORI"),
      ko=N("노동자 다수", src="004:506 노동자 다수")),
)

# --- time ------------------------------------------------------------------------------------

TIME_TERMS = (
    T("time:month", canonical="",
      en=N("month", plural="months"),
      fr=N("mois", plural="mois", gender="m", src="000:168 Indique le mois en cours"),
      de=N("Monat", plural="Monate", gender="m", src="002:130 der aktuelle Monat"),
      it=N("mese", plural="mesi", gender="m", src="001:249 primo mese della Primavera"),
      ko=N("달", src="004:109 현재 달을")),
    T("time:round", canonical="round",
      en=N("round", plural="rounds"),
      fr=N("manche", plural="manches", gender="f", src="000:369 Chaque manche se compose"),
      de=N("Runde", plural="Runden", gender="f", src="002:376 Jede Runde besteht"),
      it=N("round", plural="round", gender="m", src="001:321 Ogni round è formato"),
      ko=N("라운드", src="004:211 7라운드로 진행됩니다")),
    T("time:season", canonical="",
      en=N("season", plural="seasons"),
      fr=N("saison", plural="saisons", gender="f", src="000:93 va indiquer la saison"),
      de=N("Jahreszeit", plural="Jahreszeiten", gender="f", src="002:106 zeigt die Jahreszeit an"),
      it=N("stagione", plural="stagioni", gender="f", src="001:648 alla fine di ogni stagione"),
      ko=N("계절", src="004:80 계절을 추적하고")),
)

SEASON_TERMS = (
    T("season:spring", canonical="",
      en=N("spring"),
      fr=N("printemps", gender="m", src="000:295 premier mois du printemps"),
      de=N("Frühling", gender="m", src="002:275 ersten Monat des Frühlings"),
      it=N("primavera", gender="f", src="001:249 primo mese della Primavera"),
      ko=N("봄", src="004:197 봄의 첫 달")),
    T("season:summer", canonical="",
      en=N("summer"),
      fr=N("été", gender="m", src="000:382 premier mois de l'été"),
      de=N("Sommer", gender="m", src="002:388 ersten Sommermonat"),
      it=N("estate", gender="f", src="001:333 primo mese dell'Estate"),
      ko=N("여름", src="004:224 여름의 첫 달")),
    T("season:autumn", canonical="",
      en=N("autumn"),
      fr=N("automne", gender="m", chosen="the rulebook names only spring and summer"),
      de=N("Herbst", gender="m", chosen="the rulebook names only spring and summer"),
      it=N("autunno", gender="m", chosen="the rulebook names only spring and summer"),
      ko=N("가을", chosen="the rulebook names only spring and summer")),
    T("season:winter", canonical="",
      en=N("winter"),
      fr=N("hiver", gender="m", chosen="the rulebook names only spring and summer"),
      de=N("Winter", gender="m", chosen="the rulebook names only spring and summer"),
      it=N("inverno", gender="m", chosen="the rulebook names only spring and summer"),
      ko=N("겨울", chosen="the rulebook names only spring and summer")),
    T("season:late-winter", canonical="",
      en=N("late winter"),
      fr=N("fin de l'hiver", gender="f", chosen="not in the rulebook: the program's name for "
                                                 "the months after the last scoring"),
      de=N("Spätwinter", gender="m", chosen="not in the rulebook: the program's name for "
                                            "the months after the last scoring"),
      it=N("fine inverno", gender="f", chosen="not in the rulebook: the program's name for "
                                              "the months after the last scoring"),
      ko=N("늦겨울", chosen="not in the rulebook: the program's name for the months after "
                         "the last scoring")),
)

# --- phases of a round (§4–§9), with setup and the end of the game --------------------------------

PHASE_TERMS = (
    T("phase:setup", canonical="setup",
      en=N("setup"),
      fr=N("préparation", gender="f", aliases=("mise en place",),
           src="000:264 PREPARATION DE LA PARTIE"),
      de=N("Aufbau", gender="m", src="002:238 AUFBAU"),
      it=N("preparazione", gender="f", src="001:228 PREPARAZIONE DEL GIOCO"),
      ko=N("준비", aliases=("게임 준비",), src="004:168 게임 준비")),
    T("phase:calendar", canonical="overview",
      en=N("calendar"),
      fr=N("calendrier", gender="m", src="000:371 **CALENDRIER**"),
      de=N("Kalender", gender="m", src="002:378 **KALENDER**"),
      it=N("calendario", gender="m", src="001:323 1. Calendario"),
      ko=N("달력", aliases=("달력 단계",), src="004:213 1. 달력")),
    T("phase:placement", canonical="placement",
      en=N("placement"),
      fr=N("placement", gender="m", src="000:372 **PLACEMENT**"),
      de=N("Einsetzen", gender="n", src="002:379 **EINSETZEN**"),
      it=N("piazzamento", gender="m", src="001:324 2. Piazzamento"),
      # 배치 alone is the 'place' command here; the phase is typed with 단계 (phase).
      ko=N("배치", word="배치단계", aliases=("배치 단계",), typed_name=False,
           src="004:214 2. 배치")),
    T("phase:collection", canonical="collection",
      en=N("collection"),
      fr=N("collecte", gender="f", src="000:373 **COLLECTE**"),
      de=N("Einnahmen", gender="pl", src="002:380 **EINNAHMEN**"),
      it=N("raccolta", gender="f", src="001:325 3. Raccolta"),
      ko=N("수집", aliases=("수집 단계",), src="004:215 3. 수집")),
    T("phase:actions", canonical="actions",
      en=N("actions"),
      fr=N("actions", gender="f", src="000:374 **ACTIONS**"),
      de=N("Aktionen", gender="pl", src="002:381 **AKTIONEN**"),
      it=N("azioni", gender="f", src="001:326 4. Azioni"),
      ko=N("행동", aliases=("행동 단계", "액션 단계"), src="004:216 4. 행동",
           note="also 액션 단계 (004:389)")),
    T("phase:scoring", canonical="scoring",
      en=N("scoring"),
      fr=N("décompte", gender="m", src="000:375 **DECOMPTE**"),
      de=N("Wertung", gender="f", src="002:382 **WERTUNG**"),
      it=N("calcolo dei punti", gender="m", word="calcolo", src="001:327 5. Calcolo dei punti"),
      ko=N("점수 매기기", word="점수매기기", aliases=("득점", "점수 매기기 단계"),
           src="004:217 5. 점수 매기기", note="also 득점 단계 (004:477)")),
    T("phase:end", canonical="end",
      en=N("end of the game"),
      fr=N("fin de la partie", gender="f", word="fin", src="000:731 FIN DE LA PARTIE"),
      de=N("Spielende", gender="n", src="002:719 mit dem Abschnitt **Spielende**"),
      it=N("fine del gioco", gender="f", word="fine", src="001:693 **FINE DEL GIOCO**"),
      ko=N("게임 종료", word="게임종료", src="004:528 게임 종료")),
)

SCORE_TERMS = (
    T("score:vp", canonical="",
      en=N("victory point", plural="victory points", short="VP"),
      fr=N("point de victoire", plural="points de victoire", short="PV", gender="m",
           src="000:56 Des points (PV)"),
      de=N("Siegpunkt", plural="Siegpunkte", short="SP", gender="m",
           src="002:731 deine Siegpunkte",
           note="the rules mostly say 'Punkte' (002:59); SP is our abbreviation"),
      it=N("punto vittoria", plural="punti vittoria", short="PV", gender="m",
           chosen="the rulebook says only 'punti' (001:695); 'punti vittoria' (PV) is the "
                  "usual Italian board-game term"),
      ko=N("승점", short="점",
           chosen="the rulebook says 점수 'points' (004:38); 승점 (victory points) keeps it "
                  "apart from the score command and the score track")),
)

TERMS = (CARDS + BOARD_SYMBOLS + GUILD_TERMS + RESOURCE_TERMS + KIND_TERMS + AREA_TERMS +
         BOARD_TERMS + TIME_TERMS + SEASON_TERMS + PHASE_TERMS + SCORE_TERMS)
BY_KEY = {t.key: t for t in TERMS}


def entry(key: str, lang: str) -> Name:
    """The Name of glossary term `key` in `lang` (English when `lang` is not one of LANGS)."""
    names = BY_KEY[key].names
    return names.get(lang) or names["en"]
