"""The names of weekdays and months in English, Dutch, German and Japanese, folded to one value each (saturday,
Saturdays, zaterdag, samstags: day6), so that two wordings of one day are one value and two days are two."""

from __future__ import annotations

import re

_WEEKDAYS = [("monday", "maandag", "montag"), ("tuesday", "dinsdag", "dienstag"), ("wednesday", "woensdag", "mittwoch"),
             ("thursday", "donderdag", "donnerstag"), ("friday", "vrijdag", "freitag"),
             ("saturday", "zaterdag", "samstag"), ("sunday", "zondag", "sonntag")]
_MONTHS = [("january", "januari", "januar"), ("february", "februari", "februar"), ("march", "maart", "märz"),
           ("april",), ("may", "mei", "mai"), ("june", "juni"), ("july", "juli"), ("august", "augustus"),
           ("september",), ("october", "oktober"), ("november",), ("december", "dezember")]
_NAMES = {word: f"{kind}{index}" for kind, table in (("day", _WEEKDAYS), ("month", _MONTHS))
          for index, words in enumerate(table, start=1) for word in words}
JAPANESE_WEEKDAY = re.compile(r"([月火水木金土日])曜")
JAPANESE_DAYS = {day: f"day{index}" for index, day in enumerate("月火水木金土日", start=1)}


def date_value(word: str) -> str | None:
    """day6 for saturday, saturdays, zaterdag, samstags; month3 for march, maart, märz; None for any other word
    (lower case)."""
    if word in _NAMES:
        return _NAMES[word]
    for suffix in ("s", "en", "e"):
        if word.endswith(suffix) and len(word) > 4 and word[: -len(suffix)] in _NAMES:
            return _NAMES[word[: -len(suffix)]]
    return None
