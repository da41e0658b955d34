"""Look-alike names in the lobby, by Unicode's confusables data (UTS #39): letters of
Cherokee, Lisu, Armenian, Canadian syllabics and Latin small capitals or alpha that pass
for a seated player's name are refused; ordinary distinct names get in.  The host's lobby
and the joiners run in this process over 127.0.0.1 (random ports)."""


import pytest

from net.crypto import Identity
from net.node.lobby import JoinLobby, LobbyError
from net.node.names import confusable_skeleton, looks_alike
from net.node.transport import curve_keypair
from tests.session.lobby_host import ThreadedHost


@pytest.fixture
def table(ctx):
    """Ana hosting, Bo seated."""
    h = ThreadedHost(ctx, players=5)
    bo = JoinLobby(ctx, h.lobby.address, Identity.generate(), "Bo", curve_keypair(), 40001)
    bo.connect(5.0)
    yield h
    bo.close()
    h.close()


def try_join(ctx, host, name):
    j = JoinLobby(ctx, host.lobby.address, Identity.generate(), name, curve_keypair(), 40002)
    try:
        return j.connect(5.0)
    finally:
        j.close()


LOOK_ALIKES = [
    ("\u13aana", "Ana"),       # Ꭺna: CHEROKEE LETTER GO
    ("An\u0251", "Ana"),       # Anɑ: LATIN SMALL LETTER ALPHA
    ("\u15c5na", "Ana"),       # ᗅna: CANADIAN SYLLABICS CARRIER GHO
    ("B\u0585", "Bo"),         # Bօ: ARMENIAN SMALL LETTER OH
    ("\u13f4o", "Bo"),         # Ᏼo: CHEROKEE LETTER YV
    ("\ua4d0o", "Bo"),         # ꓐo: LISU LETTER BA
    ("\u0299o", "Bo"),         # ʙo: LATIN LETTER SMALL CAPITAL B
    ("B\u1d0f", "Bo"),         # Bᴏ: LATIN LETTER SMALL CAPITAL O
]


@pytest.mark.parametrize("alike, seated", LOOK_ALIKES)
def test_a_look_alike_of_a_seated_name_is_refused(ctx, table, alike, seated):
    assert looks_alike(alike, seated)
    with pytest.raises(LobbyError, match=f"looks like '{seated}'"):
        try_join(ctx, table, alike)
    assert alike not in table.names()


@pytest.mark.parametrize("name", ["Anna", "Bob", "Ève", "지민", "Ila", "Mia"])
def test_distinct_names_get_in(ctx, table, name):
    welcome = try_join(ctx, table, name)
    assert welcome["your_seat"] == 2
    assert table.names() == ["Ana", "Bo", name]


@pytest.mark.parametrize("name", ["ANA", "ana", "bo", "BO"])
def test_a_name_differing_only_by_case_is_taken(ctx, table, name):
    with pytest.raises(LobbyError, match="is taken"):
        try_join(ctx, table, name)


@pytest.mark.parametrize("a, b", [("Lia", "Ila"), ("Mia", "Nia"), ("Anna", "Ana"),
                                  ("Bob", "Bo"), ("지민", "지인"), ("Ève", "Ana"),
                                  ("Иван", "Ivan")])
def test_names_that_look_different_are_told_apart(a, b):
    assert not looks_alike(a, b)


@pytest.mark.parametrize("a, b", [("Aba", "\u0410\u0432\u0430"),      # Cyrillic Ава
                                  ("Kim", "\u043aim"),                  # Cyrillic к
                                  ("Hika", "\u041dika"),                # Cyrillic Н
                                  ("Al", "AI"), ("Amie", "Arnie"), ("Bo", "B0"),
                                  ("Zoé", "Zoe")])
def test_other_look_alikes(a, b):
    assert looks_alike(a, b)


def test_the_skeleton_comes_from_unicode_data_not_a_table():
    # characters no hand-made table of this project lists: Unicode's data knows them
    assert confusable_skeleton("\U0001d400na") == confusable_skeleton("Ana")   # 𝐀 (NFKC)
    assert confusable_skeleton("\u2ca2eter") == confusable_skeleton("Peter")  # Coptic Ⲣ
