"""The help texts against the parser and the screen: every
example command shown in help is understood, every board symbol named in help exists,
every word a player meets has a topic, bad topics and bad ruleset files get a message."""

import re

import belfort
import pytest

from client import main as cli
from client import rules_text
from client.commands import CLIENT_WORDS

RS = belfort.standard_ruleset()
VERBS = set(belfort.commands.VERBS)
PROGRAM = set(CLIENT_WORDS) | {"?"}

PLACEHOLDERS = [("#A #B #C", "#0 #1 #2"), ("#D:type", "#3:pub"), ("#E:type", "#4:inn"),
                ("#CARD", "#17"), ("#ID", "#21"), ("gateG@D", "gate1@2"), ("keep@D", "keep@3"),
                ("GUILD", "spies"), ("NAME", "spies"), ("SYMBOL", "tower@3"),
                ("PLANK", "miners"), ("PLAYER", "Bo"), ("TOPIC", "tower")]


def instances(example):
    """The concrete commands an example or usage stands for: placeholders filled in,
    [optional] parts left out and put in, each a|b alternative in turn."""
    text = example
    for ph, value in PLACEHOLDERS:
        text = text.replace(ph, value)
    text = re.sub(r"\b([a-z]+)@D\b", r"\1@3", text)
    text = re.sub(r"\bN\b", "2", text)
    forms = {re.sub(r"\[[^\]]*\]", "", text),
             re.sub(r"\[[A-Z]+\]", "", text).replace("[", "").replace("]", "")}
    out = set()
    for form in forms:
        words = form.split()
        first = [w.split("|")[0] for w in words]
        for i, w in enumerate(words):
            for alt in w.split("|"):
                out.add(" ".join(first[:i] + [alt] + first[i + 1:]))
    return {" ".join(o.split()) for o in out if o.strip()}


def understood(text):
    """Does the program read `text` (the engine's language plus the client's shorthands,
    or a beginning the client completes)?"""
    words = text.split()
    if words[0] in PROGRAM:
        return True
    if words[0] == "keep" and len(words) == 4 and all(re.fullmatch(r"#\d+", w)
                                                      for w in words[1:]):
        return True
    if words[0] == "spread" and (all(re.fullmatch(r"\d+", w) for w in words[1:4])
                                 or all(re.fullmatch(r"[a-z-]+=\d+", w) for w in words[1:])):
        return True
    if words[0] in ("discard", "show") and len(words) == 2 and re.fullmatch(r"#\d+", words[1]):
        return True
    try:
        belfort.parse_command(text)
        return True
    except belfort.CommandSyntaxError as exc:
        return exc.reason.startswith("expected ")      # a beginning: Tab completes it


_VERB_PATTERN = "|".join(re.escape(w) for w in sorted(VERBS | set(CLIENT_WORDS) - {"?"},
                                                     key=len, reverse=True))
INLINE = re.compile(r"(?:[eE]\.g\.|, or|Try:|Type:|just|with:?|shorthand:|one with)\s+"
                    r"((?:" + _VERB_PATTERN + r")\b[^;,()\n]*?)"
                    r"(?=\s{2,}|[;,()]|\.\s|\.$| or |$| — | to | then | and | when )")


def examples():
    """(topic, example) for every command shown in every help text and lesson."""
    out = []
    for key, (_title, text) in rules_text.topics(RS).items():
        for line in text.split("\n"):
            first = line.strip().split(" ")[0] if line.strip() else ""
            if first in VERBS or first in PROGRAM:
                column = re.split(r"\s{2,}", line.strip())[0]
                alts = [a.strip() for a in re.split(r" \| |, ", column)]
                for alt in alts:
                    if alt.split()[0] not in VERBS | PROGRAM:
                        # 'buy-card #30 | top': the alternative replaces the last words
                        head = alts[0].split()
                        alt = " ".join(head[:len(head) - len(alt.split())] + alt.split())
                    out.append((key, alt))
        for m in INLINE.finditer(text):
            out.append((key, m.group(1).strip()))
    return out


def test_the_examples_are_found():
    found = {e for _, e in examples()}
    # a sample of what the texts show, so the extraction itself is checked
    for e in ("place elf desk", "spread 2 1 0", "build #17 tower@3", "activate thieves from 2",
              "keep #0 #1 #2", "crest 1", "show #3", "build #CARD gateG@D",
              "activate wizards gate1 gate3", "place master-elf desk"):
        assert e in found, e
    assert len(found) > 60


@pytest.mark.parametrize("topic,example", examples())
def test_every_example_in_help_is_understood(topic, example):
    for text in instances(example):
        assert understood(text), (topic, example, text)


def test_every_board_symbol_named_in_help_exists():
    """Every SITE@D the help shows is a symbol the parser knows (gateG@D, not gatehouse@D)."""
    for key, (_title, text) in rules_text.topics(RS).items():
        for token in re.findall(r"[A-Za-z]+\d?@[A-Za-z0-9]+", text):
            concrete = re.sub(r"@D([ab]?)$", r"@3\1", token.replace("gateG@D", "gate1@2"))
            assert concrete in belfort.data.SITE_ID, (key, token)


def test_the_screen_help_describes_masters_as_the_screen_shows_them():
    """'help screen' writes masters as the screen does: 3(1), not '+Nm'."""
    from client.render import worker_text
    title, text = rules_text.lookup(RS, "screen")
    assert "+Nm" not in text
    assert worker_text(4, 1) in text and "4(1) = 4 of which 1 is a master" in text


@pytest.mark.parametrize("term", [
    "gnome", "gnomes", "master", "masters", "master-elf", "elf", "elves", "dwarf", "dwarves",
    "worker", "plank", "lock", "marker", "symbol", "district", "crest", "crests", "income",
    "tax", "vp", "pool", "hand", "desk", "camp", "forest", "quarry", "mine", "gold mine",
    "trading post", "month", "season", "reserve", "score", "tableau", "?", "np", "keep",
    "wall", "gatehouse", "discount", "bonus", "tie", "guild", "spies", "screen", "glossary",
    # the screen's column heads
    "cr", "tx", "wd", "st", "mt", "gd", "gn", "hd", "kp", "wl", "gt"])
def test_every_word_a_player_meets_has_a_topic(term):
    found = rules_text.lookup(RS, term)
    assert found is not None, term
    assert len(found[1]) > 30


def test_rules_with_an_unknown_topic_fails_and_lists_topics(capsys):
    """'belfort rules nonsense' must exit non-zero with 'no topic …, topics are …'."""
    assert cli.main(["rules", "nonsense"]) != 0
    err = capsys.readouterr().err
    assert "no topic 'nonsense'" in err and "topics are overview, setup" in err
    assert cli.main(["rules", "gnome"]) == 0 and cli.main(["rules", "master"]) == 0


def bad_rulesets(tmp_path):
    (tmp_path / "latin1.toml").write_bytes("rounds = 'é'\n".encode("latin-1"))
    (tmp_path / "deep.toml").write_text("a = " + "[" * 2000 + "]" * 2000 + "\n")
    (tmp_path / "adir").mkdir()
    return {"missing": (str(tmp_path / "missing.toml"), "cannot read"),
            "directory": (str(tmp_path / "adir"), "cannot read"),
            "not utf-8": (str(tmp_path / "latin1.toml"), "not UTF-8"),
            "nested 2000 deep": (str(tmp_path / "deep.toml"), "nested too deeply")}


@pytest.mark.parametrize("command", [["play", "--plain", "--no-log"], ["host", "--plain"],
                                     ["join", "tcp://127.0.0.1:9", "--plain"], ["rules"]])
def test_an_unusable_ruleset_file_gets_a_message_not_a_traceback(command, tmp_path, capsys):
    """--ruleset with a missing file, a directory, non-UTF-8 text or a TOML nested
    2,000 deep gets a one-line message naming what is wrong, exit 2, never a traceback."""
    for what, (path, words) in bad_rulesets(tmp_path).items():
        code = cli.main(command + ["--ruleset", path])
        err = capsys.readouterr().err
        assert code == 2, (what, code)
        assert err.startswith("belfort: ") and words in err, (what, err)
        assert "Traceback" not in err and "ruleset field '(file)'" not in err


def test_help_network_says_how_to_play_with_a_friend_elsewhere(capsys):
    """`belfort help network`: no server, any VPN, the ports to forward, --advertise, the
    fingerprints; the commands it shows are ones the program takes."""
    from client.netcli import parser as net_parser
    from net.node.addresses import normalize
    assert cli.main(["help", "network"]) == 0
    text = capsys.readouterr().out
    for said in ("No server is needed", "VPN", "5555 and 5556", "--advertise",
                 "fingerprint", "IPv6"):
        assert said in text, said
    assert normalize("[2001:db8::20]:5555") == "tcp://[2001:db8::20]:5555"
    args = net_parser().parse_args(["host", "--name", "Ana", "--advertise", "203.0.113.7"])
    assert args.advertise == "203.0.113.7"
    assert net_parser().parse_args(["join", "x:5555", "--name", "Bo", "--port", "6000"]).port \
        == 6000


def test_help_with_a_rules_topic_is_the_rules_reference(capsys):
    assert cli.main(["help", "tower"]) == 0
    assert "§13" in capsys.readouterr().out
