"""Finds text in our templates that a user would see but that is not marked for translation.

Template tags and variables are cut out first (what `{% translate %}` and `{% blocktranslate %}` hold is
marked; what `{{ … }}` prints is data or already translated in Python), then what is left is read as
HTML: any word in a text node (but code samples), or in an attribute a user sees or hears (placeholder, title, aria-label,
alt, a button's value, our own data-* sentences for app.js), is unmarked text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / "templates"]

# Attributes whose value is read by a person (or a screen reader), or shown by app.js.
VISIBLE_ATTRIBUTES = {"placeholder", "title", "aria-label", "alt", "aria-description", "data-confirm",
                      "data-message", "data-undo", "data-hint", "data-label", "data-error"}
# Words that are the same in every language: the product's and Discord's names, units and formats.
SAME_IN_EVERY_LANGUAGE = {"Lorekeeper", "Discord", "HTMX", "JSON", "API", "JSONL", "SVG", "UTC", "ID"}

_COMMENT = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", re.S)
_BLOCK_TRANSLATE = re.compile(r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}", re.S)
_TAG_OR_VARIABLE = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_WORD = re.compile(r"[^\W\d_]{2,}")
# Literal text handed to a tag or filter that a user will read: `|default:"never"`, `with label="Save"`.
_LITERAL_FOR_READING = re.compile(r"""\|(?:default|default_if_none|yesno):(["'])(?P<a>[^"']*)\1"""
                                  r"""|\bwith\b[^%]*?\b\w*(?:label|title|text|message|hint|heading|legend|caption)"""
                                  r"""=(["'])(?P<b>[^"']*)\3""")
_PLACEHOLDER = "\x00"
# Scripts and styles are not read; code samples (the API page's requests) are the same in every language.
_NOT_READ_AS_TEXT = ("script", "style", "code", "pre")


def _words(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.replace(_PLACEHOLDER, " ")) if word not in SAME_IN_EVERY_LANGUAGE]


class _UnmarkedText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in _NOT_READ_AS_TEXT:
            self._skipping += 1
        attributes = dict(attrs)
        for name, value in attrs:
            # An <input type="submit">'s value is its caption; a <button>'s value is never shown (its content is),
            # it is what the form sends ("server", "true"), which code compares and must stay as it is.
            reads = (name in VISIBLE_ATTRIBUTES or name.startswith("data-message")
                     or (name == "value" and tag == "input" and attributes.get("type") in ("submit", "button")))
            if reads and value and _words(value):
                self.found.append(f'{tag} {name}="{value.replace(_PLACEHOLDER, "…")}"')

    def handle_endtag(self, tag):
        if tag in _NOT_READ_AS_TEXT and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and _words(data):
            self.found.append(" ".join(data.replace(_PLACEHOLDER, "…").split()))


def unmarked_text(source: str) -> list[str]:
    """Each piece of text in a template's source that a user would read and that is not marked."""
    source = _COMMENT.sub("", source)
    found = []
    for literal in _LITERAL_FOR_READING.finditer(source):
        text = literal.group("a") if literal.group("a") is not None else literal.group("b")
        if text and _words(text):
            found.append(f"literal {literal.group(0)!r} (write _(\"…\") in the tag)")
    source = _BLOCK_TRANSLATE.sub(_PLACEHOLDER, source)
    source = _TAG_OR_VARIABLE.sub(_PLACEHOLDER, source)
    parser = _UnmarkedText()
    parser.feed(source)
    parser.close()
    return found + parser.found


def our_templates() -> list[Path]:
    return sorted(path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html"))
