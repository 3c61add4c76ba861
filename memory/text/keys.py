"""What a fact key may hold, written once for the database check, the API schema and the panel/API validation.

A key is words of any language: letters, digits and symbols of every script, `_`, `.` and `-` (servers talk
in many languages, and a model asked in Portuguese writes `aniversário_do_paulo`). What is refused is spelled
out as code points rather than as "letters and digits": PostgreSQL's regex classes follow the database's
locale, JSON Schema's patterns have no Unicode categories, and the API's schema must refuse exactly what the
code refuses (schemathesis sends schema-valid keys and expects 2xx). So everything is allowed except:

* ASCII other than lower-case letters, digits, `_`, `.` and `-`, and the full-width forms of that punctuation
  (`[`, `]`, `:`, `#`, `［`, `＃`, `：` would blur the `[#12] key: content` lines the model reads; upper case is
  lowered on the way in);
* control characters (C0, C1), lone surrogates, and the invisible characters above the Basic Multilingual
  Plane (tag characters can spell hidden ASCII text; variation selectors);
* invisible characters of the Basic Multilingual Plane (zero-width space and joiners, direction marks, soft
  hyphen, BOM, Hangul fillers, the blank Braille pattern, variation selectors): a key must not look empty or
  like another key, so these are dropped on the way in;
* whitespace, which becomes `_` on the way in.

Keys are not Unicode-normalised: NFC would lengthen some keys past 64 characters (Devanagari QA becomes two
code points), and text typed or written by a model arrives composed.

Normalising never lengthens a key except through `str.lower()` of "İ" (U+0130, "i" + a combining dot);
it is lowered to a plain "i" first, as Turkish writers expect, so a key of 64 characters stays 64.
"""

from __future__ import annotations

import re

KEY_MAX_LENGTH = 64

# str.isspace() / Python's \s: these become "_".
WHITESPACE = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
              *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
# Unicode category Cf in the Basic Multilingual Plane, and characters that draw nothing (combining grapheme
# joiner, Hangul fillers, blank Braille pattern, variation selectors): dropped.
FORMAT = [0xAD, 0x34F, *range(0x600, 0x606), 0x61C, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x115F, 0x1160, 0x180E,
          *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065), *range(0x2066, 0x2070), 0x2800,
          0x3164, *range(0xFE00, 0xFE10), 0xFEFF, 0xFFA0, 0xFFF9, 0xFFFA, 0xFFFB]
# Category Cf above the Basic Multilingual Plane (tag characters among them) and the variation selectors
# supplement: refused.
ASTRAL_INVISIBLE = [0x110BD, 0x110CD, *range(0x13430, 0x13439), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B),
                    0xE0001, *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0)]
_ASCII_KEPT = {ord(char) for char in "abcdefghijklmnopqrstuvwxyz0123456789_.-"}
ASCII_UPPER = list(range(ord("A"), ord("Z") + 1))
# Full-width punctuation, but for the full-width forms of "-", "." and "_".
FULL_WIDTH_PUNCTUATION = [point for point in [*range(0xFF01, 0xFF10), *range(0xFF1A, 0xFF21), *range(0xFF3B, 0xFF41),
                                              *range(0xFF5B, 0xFF66)] if point not in (0xFF0D, 0xFF0E, 0xFF3F)]
# Never in a stored key: ASCII that is not kept, C0 and C1 controls (NUL included), whitespace, full-width
# punctuation, invisible characters. (Nor lone surrogates, which UTF-8 cannot encode: see is_valid_key.)
STORED_REFUSED = sorted({*(point for point in range(0x80) if point not in _ASCII_KEPT), *range(0x80, 0xA0),
                         *WHITESPACE, *FORMAT, *FULL_WIDTH_PUNCTUATION, *ASTRAL_INVISIBLE})


def code_point_class(points: list[int]) -> str:
    """A bracket-expression body read the same way by Python's re, JSON Schema (as schemathesis and Rust's
    regex engine read it) and PostgreSQL's advanced regular expressions: \\uXXXX escapes and ranges in the
    Basic Multilingual Plane; characters above it as themselves, since the three spell their escapes
    differently (\\U0001xxxx, \\x{1xxxx}, \\u{1xxxx})."""
    def char(point: int) -> str:
        return f"\\u{point:04x}" if point <= 0xFFFF else chr(point)

    ordered = sorted(set(points))
    parts = []
    start = previous = ordered[0]
    for point in [*ordered[1:], None]:
        if point is not None and point == previous + 1 and (point <= 0xFFFF) == (previous <= 0xFFFF):
            previous = point
            continue
        parts.append(char(start) if start == previous else f"{char(start)}-{char(previous)}")
        if point is not None:
            start = previous = point
    return "".join(parts)


# What a key holds once normalised: validate_key, the API's Fact schema and, but for NUL (which cannot be
# written in a PostgreSQL pattern, nor stored in its text), the database check memory.Fact.fact_key_format.
KEY_REGEX = f"^[^{code_point_class(STORED_REFUSED)}]{{1,{KEY_MAX_LENGTH}}}$"
KEY_DB_REGEX = f"^[^{code_point_class([point for point in STORED_REFUSED if point])}]{{1,{KEY_MAX_LENGTH}}}$"

# What the API accepts as a key before normalising: upper case, whitespace, NUL and format characters are
# allowed (they are lowered, turned into "_" or dropped), and at least one character must remain. Lone
# surrogates are refused by validate_key but not named here: schemathesis and other validators built on Rust's
# regex engine reject a pattern that names them and then ignore the pattern altogether.
_INPUT_REFUSED = sorted(set(STORED_REFUSED) - set(ASCII_UPPER) - set(WHITESPACE) - set(FORMAT) - {0})
_INPUT_CHAR = f"[^{code_point_class(_INPUT_REFUSED)}]"
_REMAINING_CHAR = f"[^{code_point_class(_INPUT_REFUSED + WHITESPACE + FORMAT + [0])}]"
KEY_INPUT_PATTERN = f"^{_INPUT_CHAR}*{_REMAINING_CHAR}{_INPUT_CHAR}*$"
_SURROGATE = re.compile("[\ud800-\udfff]")

_DROPPED = re.compile(f"[{code_point_class(FORMAT + [0])}]")
_WHITESPACE_RUN = re.compile(f"[{code_point_class(WHITESPACE)}]+")


def normalise_key(raw: str) -> str:
    """Lower case, whitespace runs as "_" (API.md, Limits), NUL and invisible format characters dropped."""
    kept = _DROPPED.sub("", raw).strip().replace("\u0130", "i")
    return _WHITESPACE_RUN.sub("_", kept.lower())


def is_valid_key(key: str) -> bool:
    """A normalised key that may be stored (a lone surrogate, sent as a JSON "\\ud800" escape, is text no
    database can hold)."""
    return re.fullmatch(KEY_REGEX, key) is not None and _SURROGATE.search(key) is None
