"""Korean particles chosen by the final sound of the word before them.

A Korean particle has two forms, one after a final consonant (받침) and one after a vowel:
이/가, 을/를, 은/는, 과/와, and 으로/로 (로 also after ㄹ). The catalog cannot know which
word the program will insert, so it writes the particle in the printed convention's double
form right after the placeholder — `{who}이(가)`, `{n}을(를)`, `{x}은(는)`, `{x}와(과)`,
`{x}(으)로` — and `particles()` replaces each double form by the one form the word before it
takes, once the sentence is filled in:

    particles("엘프 7와(과) 드워프 3을(를)")   -> "엘프 7과 드워프 3을"
    particles("Ana이(가) 배치")               -> "Ana가 배치"
    particles("파일은 old.log(으)로 보관")      -> "파일은 old.log로 보관"

Numbers are read the Sino-Korean way (7 칠, 10 십, 3 삼); Latin words (players' names,
short forms like NP3) by how Korean writes their English sound, which is a guess, but a
guess that reads right for the usual names (Ana, Bo, Kim, Carl, Jack).
"""

from __future__ import annotations

import re

# (consonant form, vowel form) for each double form as the catalog writes it
_PAIRS = {"이(가)": ("이", "가"), "가(이)": ("이", "가"), "을(를)": ("을", "를"),
          "를(을)": ("을", "를"), "은(는)": ("은", "는"), "는(은)": ("은", "는"),
          "과(와)": ("과", "와"), "와(과)": ("과", "와"), "(으)로": ("으로", "로")}
_MARK = re.compile("|".join(re.escape(k) for k in _PAIRS))
# the sound a number ends with, read the Sino-Korean way: "" a vowel, else the final
_DIGIT = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ",
          "8": "ㄹ", "9": ""}
# 십 백 천 만 억 조: a number ending in zeros ends with the name of its last power of ten
_TENS = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ"}
_LARGE = {4: "ㄴ", 8: "ㄱ", 12: "ㅇ"}   # 만, 억, 조 (then ten, hundred, thousand of those)
# a Latin letter said alone (acronyms, NP3's NP): the sound its Korean name ends with
_LETTER = {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}
_FINALS = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_CLOSING = ")]}>'\"”’』」》〉…. "


def _number_final(digits: str) -> str:
    digits = digits.lstrip("0") or "0"
    if digits == "0":
        return "ㅇ"                        # 영
    last = digits[-1]
    if last != "0":
        return _DIGIT[last]
    zeros = len(digits) - len(digits.rstrip("0"))
    big = max((p for p in _LARGE if p <= zeros), default=0)
    rest = zeros - big
    if rest:
        return _TENS[rest]
    return _LARGE[big]


def _latin_final(word: str) -> str:
    if word.isupper() and len(word) <= 4:
        return _LETTER.get(word[-1], "")       # letters said by name: NP, VP, LAN
    w = word.lower()
    if w.endswith(("ng", "m", "n")):
        return "ㄴ" if w.endswith("n") else ("ㅁ" if w.endswith("m") else "ㅇ")
    if w.endswith("l"):
        return "ㄹ"
    if len(w) >= 2 and w[-2] not in "aeiouy" and not w.endswith("ck"):
        return ""                             # desk 데스크, test 테스트, Mark 마크: 으 after
    if w.endswith(("b", "ck", "k", "p", "t")):
        return "ㄱ"                          # Bob 밥, Jack 잭, Kit 킷: a closed syllable
    return ""                                 # a vowel, r, s, x, d, g …: 피터, 맥스, 테드, 로그


def final_sound(text: str) -> str | None:
    """The final consonant of the last word of `text` ("" for a vowel), or None when
    nothing readable ends it (an empty text, only punctuation)."""
    t = text.rstrip(_CLOSING)
    if not t:
        return None
    ch = t[-1]
    if "가" <= ch <= "힣":
        jong = (ord(ch) - 0xAC00) % 28
        return _FINALS[jong - 1] if jong else ""
    if ch.isdigit():
        m = re.search(r"[0-9]+$", t)
        return _number_final(m.group(0) if m else ch)
    m = re.search(r"[A-Za-z]+$", t)
    if m:
        return _latin_final(m.group(0))
    return None


def pick(word: str, particle: str) -> str:
    """The form of `particle` (one of the double forms, e.g. '을(를)') that follows `word`."""
    consonant, vowel = _PAIRS[particle]
    final = final_sound(word)
    if final is None:
        return particle                      # nothing to read: keep the printed double form
    if particle == "(으)로":
        return vowel if final in ("", "ㄹ") else consonant
    return consonant if final else vowel


def particles(text: str) -> str:
    """Every double-form particle of `text` replaced by the form its word takes."""
    if "(" not in text:
        return text
    out, last = [], 0
    for m in _MARK.finditer(text):
        out.append(text[last:m.start()])
        out.append(pick("".join(out), m.group(0)))
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def mismatched(text: str) -> list[str]:
    """Particles in `text` that do not match the final sound of the number or Latin word
    right before them (what a filled-in sentence must never show). Hangul words before a
    particle are not checked: the catalog writes those pairs itself."""
    bad = []
    for m in re.finditer(r"([0-9A-Za-z][)\]]?)(이|가|을|를|은|는|과|와|으로|로)(?![가-힣(])",
                         text):
        before = text[:m.start(2)]
        particle = m.group(2)
        if particle in ("이", "가"):
            want = pick(before, "이(가)")
        elif particle in ("을", "를"):
            want = pick(before, "을(를)")
        elif particle in ("은", "는"):
            want = pick(before, "은(는)")
        elif particle in ("과", "와"):
            want = pick(before, "과(와)")
        else:
            want = pick(before, "(으)로")
        if want != particle and "(" not in want:
            bad.append(text[max(0, m.start() - 12):m.end() + 2])
    return bad
