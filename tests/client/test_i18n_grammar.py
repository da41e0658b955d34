"""Golden examples of the grammar around the words the program inserts: plurals of
resources, Korean particles and counters, the player's own lines in the second person."""

import belfort
import pytest

from client.i18n import _, pgettext, using
from client.i18n.korean import final_sound, mismatched, particles, pick
from client.words import Describer, Namer, cost_text, count_of

GAME = belfort.new_game(["Ana", "Bo", "Cy"], {"guilds": "normal"}, seed=1)
VIEW = belfort.seat_view(GAME, 0)


# --- plurals of resources, as the rulebooks count them ----------------------------------------

@pytest.mark.parametrize("lang,text", [
    ("fr", "1 bois, 4 pierres, 2 métaux, 3 or"),      # 000:216 5 pierres, 000:498 2 métaux
    ("de", "1 Holz, 4 Steine, 2 Metall, 3 Gold"),     # 002:196 5 Steine, 002:505 2 Metall
    ("it", "1 legno, 4 pietra, 2 metallo, 3 oro"),    # 001:982 4 Pietra, 001:936 4 Legno
    ("ko", "나무 1, 돌 4, 금속 2, 금 3"),
    ("en", "1 wood, 4 stone, 2 metal, 3 gold"),
])
def test_a_cost_counts_its_resources_as_the_rulebook_does(lang, text):
    with using(lang):
        assert cost_text((1, 4, 2, 3)) == text


def test_one_stone_is_singular_in_french():
    with using("fr"):
        assert count_of(1, "resource:stone") == "1 pierre"
        assert count_of(2, "resource:metal") == "2 métaux"


# --- Korean: particles by the final sound, counters for people --------------------------------

@pytest.mark.parametrize("written,read", [
    ("엘프 7와(과) 드워프 7을(를) … 각 3은(는)", "엘프 7과 드워프 7을 … 각 3은"),
    ("--bots 2은(는)", "--bots 2는"),
    ("--bots 3은(는)", "--bots 3은"),
    ("순번 10(으)로", "순번 10으로"),        # 십: ㅂ
    ("순번 7(으)로", "순번 7로"),            # 칠: ㄹ takes 로
    ("순번 4(으)로", "순번 4로"),            # 사: a vowel
    ("100을(를) 1000이(가) 0(으)로", "100을 1000이 0으로"),   # 백, 천, 영
    ("Ana이(가)", "Ana가"),
    ("Kim이(가)", "Kim이"),
    ("Carl(으)로", "Carl로"),
    ("NP3와(과)", "NP3과"),                  # 삼
    ("#17 (타워)을(를)", "#17 (타워)를"),     # the card's name in brackets ends it
    ("당신이(가) 노움을(를)", "당신이 노움을"),
    ("도서관은(는)", "도서관은"),
    ("game.log(으)로", "game.log로"),        # 로그
    ("place elf desk은(는)", "place elf desk는"),   # 데스크
    ("Jack이(가)", "Jack이"),                # 잭
])
def test_korean_particles_follow_the_final_sound(written, read):
    assert particles(written) == read
    assert not mismatched(read)


def test_what_is_read_before_a_particle():
    assert final_sound("엘프") == ""
    assert final_sound("노움") == "ㅁ"
    assert final_sound("(타워)") == ""
    assert final_sound("11") == "ㄹ"
    assert final_sound("20") == "ㅂ"
    assert final_sound("…") is None
    assert pick("", "을(를)") == "을(를)"       # nothing to read: the printed double form


def test_a_wrong_particle_after_a_number_is_caught():
    assert mismatched("엘프 7와 드워프 7를")
    assert mismatched("순번 10로")
    assert not mismatched("엘프 7과 드워프 7을, 순번 10으로")


def test_the_korean_catalog_fills_particles_in_when_a_message_is_formatted():
    with using("ko"):
        message = ("--bots {bots} does not fit --players {n}: the host is one of the players, "
                   "so 0 to {most} bots")
        text = _(message).format(bots=3, n=2, most=1)
        assert "3은" in text and "(는)" not in text and not mismatched(text)
        assert "2는" in _(message).format(bots=2, n=2, most=1)


def test_people_are_counted_with_myeong_in_korean():
    with using("ko"):
        assert count_of(3, "kind:elf") == "엘프 3명"
        assert count_of(1, "kind:gnome") == "노움 1명"
        assert count_of(3, "resource:wood") == "나무 3"


# --- the player's own lines speak to them --------------------------------------------------

OWN = {
    "fr": ["Vous passez.", "Vous gardez 3 cartes et ne défaussez rien.",
           "Vous gagnez un elfe."],
    "de": ["Du hast gepasst.", "Du behältst 3 Karten und wirfst nichts ab.",
           "Du hast einen Elb erhalten."],
    "it": ["Passi.", "Tieni 3 carte e non scarti nulla.", "Guadagni un elfo."],
    "ko": ["패스했습니다.", "카드 3장을 보관하고 아무것도 버리지 않았습니다.",
           "엘프를 얻었습니다."],
}
EVENTS = [("pass", 0), ("keep", 0, ()), ("gain-worker", 0, "elf")]


@pytest.mark.parametrize("lang", sorted(OWN))
def test_your_own_lines_are_in_the_second_person(lang):
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))
    with using(lang):
        you = pgettext("subject", "You")
        for event, text in zip(EVENTS, OWN[lang]):
            said = d.sentence(event, VIEW, {})
            assert said == text
            # never the 'You' word with a third-person verb ("Vous : passe")
            assert not said.startswith(f"{you}:") and not said.startswith(f"{you} :")
        # the other players keep their names
        assert "Bo" in d.sentence(("pass", 1), VIEW, {})


@pytest.mark.parametrize("lang,greeting", [
    ("fr", "Bienvenue !"), ("de", "Willkommen!"), ("it", "Benvenuto!"), ("ko", "환영합니다!")])
def test_the_welcome_of_a_local_game_has_no_you_for_a_name(lang, greeting):
    with using(lang):
        text = _("Welcome! You play {letter} (seat {seat}). Players: {players}.").format(
            letter="A", seat=0, players="A=Ana")
        assert text.startswith(greeting)
        assert f"{greeting.rstrip('! ')}, {_('You')}" not in text


@pytest.mark.parametrize("lang,text", [
    ("fr", "Bo vous prend l'écusson 1 au camp du Roi."),
    ("de", "Bo nimmt dir im Lager des Königs Wappen 1 ab."),
    ("it", "Bo ti prende lo stemma 1 al Campo Reale."),
    ("ko", "Bo가 왕의 야영지에서 당신의 문장 1을 가져갔습니다."),
    ("en", "Bo took crest 1 from you at the King's camp."),
])
def test_you_as_the_object_has_its_own_sentence(lang, text):
    d = Describer(Namer(["Ana", "Bo", "Cy"], 0), GAME.rs, list(GAME.guilds))
    with using(lang):
        assert d.sentence(("crest", 1, 1, 0), VIEW, {}) == text
