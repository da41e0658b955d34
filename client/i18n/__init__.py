"""The program in the players' languages: English, French, German, Italian, Korean.

What the rest of the client uses (docs/i18n.md explains the whole):

    from client.i18n import _, ngettext, pgettext, N_, L_      # messages (catalog.py)
    from client.i18n import term, term_count                   # the printed game's words
    from client.i18n import choose_language, activate          # --lang / the environment
    from client.i18n import canonical_line, localize_line      # typed commands <-> English
    from client.i18n import cell_width, pad, truncate, fit     # layout in terminal cells

Importing this package has no side effects: nothing is read from the environment or the
disk, and the active language stays English until activate() is called.
"""

from .catalog import (DOMAIN, L_, Lp_, N_, _, activate, active_language, ngettext,
                      npgettext, pgettext, translations, using)
from .language import (AUTONYMS, LANG_OPTION_HELP, LANGUAGES, UnknownLanguage,
                       choose_language, language_of, parse_lang_option)
from .pseudo import CODE as PSEUDO
from .terms import term, term_count
from .translate import (canonical_line, canonical_token, complete_word, localize_completion,
                        localize_line, localize_token, suggest, typing_help,
                        unknown_word_message, unknown_words)
from .width import cell_width, fit, fit_fragments, fragments_width, pad, truncate, wrap

__all__ = [
    "DOMAIN", "L_", "Lp_", "N_", "_", "activate", "active_language", "ngettext", "npgettext",
    "pgettext", "translations", "using", "AUTONYMS", "LANG_OPTION_HELP", "LANGUAGES",
    "UnknownLanguage", "choose_language", "language_of", "parse_lang_option", "PSEUDO",
    "term", "term_count", "canonical_line", "canonical_token", "complete_word",
    "localize_completion", "localize_line", "localize_token", "suggest", "typing_help",
    "unknown_word_message", "unknown_words", "cell_width", "fit", "fit_fragments",
    "fragments_width", "pad", "truncate", "wrap",
]
