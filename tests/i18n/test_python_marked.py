"""A sentence marked in Python reaches the catalogues only if makemessages can see it: xgettext reads no call inside
an f-string, so a `_("…")` there is never extracted, never translated, and shows in English on every page (the fact
row's audience badge did, in Dutch, German and Japanese)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("memory", "consolidation", "teams", "config")
GETTEXT_CALL = re.compile(r"\b(?:_|gettext|gettext_lazy|pgettext|pgettext_lazy|ngettext|ngettext_lazy)\(")
F_STRING = re.compile(r"^[rRbB]?[fF][rR]?['\"]")


def gettext_inside_f_strings(source: str) -> list[int]:
    """Lines of f-strings holding a gettext call (Python 3.11 tokenizes an f-string as one STRING token)."""
    return [token.start[0] for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.STRING and F_STRING.match(token.string) and GETTEXT_CALL.search(token.string)]


def test_no_sentence_is_marked_inside_an_f_string():
    sources = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    offenders = [f"{path.relative_to(ROOT)}:{line}" for path in sources
                 for line in gettext_inside_f_strings(path.read_text(encoding="utf-8"))]
    assert len(sources) > 100
    assert offenders == []


def test_the_check_sees_a_call_inside_an_f_string_and_none_outside():
    assert gettext_inside_f_strings('x = f\'<b title="{_("Pinned")}">\'\n') == [1]
    assert gettext_inside_f_strings('x = f"{pgettext(\'audience\', \'Server\')}"\n') == [1]
    assert gettext_inside_f_strings('title = _("Pinned")\nx = f"<b>{title}</b>"\n') == []
    assert gettext_inside_f_strings('x = "a _(b) in a plain string"\n') == []
