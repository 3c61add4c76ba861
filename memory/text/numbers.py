"""A count as the page's language writes it: 1,000,000 in English, 1.000.000 in Dutch and German (where "1,000"
reads as one), 1,000,000 in Japanese. The bot API answers in English, so its sentences keep the comma."""

from __future__ import annotations

from django.utils.formats import number_format


def grouped(count: int) -> str:
    return number_format(count, force_grouping=True)
