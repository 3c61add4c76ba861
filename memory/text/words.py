"""Words as the searches cut them: runs of letters, digits and the combining marks that belong to them.

Python's \\w leaves combining marks out, so it cut Hindi "मित्र" (a vowel sign and a virama inside) into the
single letters म त र, which match nothing in the full-text index: PostgreSQL keeps such a word whole. Marks
of the Basic Multilingual Plane are added to the word class (built once from the Unicode database)."""

from __future__ import annotations

import re
import unicodedata

from .keys import code_point_class

_MARKS = code_point_class([point for point in range(0x300, 0x10000)
                           if unicodedata.category(chr(point)).startswith("M")])
# With "_" (a typed key such as server_theme stays one term) and without it (word lists of keys and content).
WORD = re.compile(f"[\\w{_MARKS}]+")
WORD_NO_UNDERSCORE = re.compile(f"(?:[^\\W_]|[{_MARKS}])+")


def words(text: str, limit: int | None = None) -> list[str]:
    """The lower-cased words of `text`, at most `limit`."""
    found = WORD.findall(text.lower())
    return found if limit is None else found[:limit]
