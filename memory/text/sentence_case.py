"""A label written inside a sentence ("for maximum memory characters", "seen by staff only"): English and Dutch
write it in lower case there, German keeps its nouns capitalised ("für Maximale Gedächtniszeichen"), and Japanese
has no case. The panel's labels are translated first, so this decides by the language of the page."""

from __future__ import annotations

from django.utils.translation import get_language

# Languages whose nouns keep their capital letter inside a sentence.
_NOUNS_CAPITALISED = ("de",)


def in_sentence(label: str) -> str:
    language = (get_language() or "en").split("-")[0]
    return str(label) if language in _NOUNS_CAPITALISED else str(label).lower()
