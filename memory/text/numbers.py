"""A count as the page's language writes it: 1,000,000 in English, 1.000.000 in Dutch and German (where "1,000"
reads as one), 1,000,000 in Japanese. The bot API answers in English, so its sentences keep the comma."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _


def grouped(count: int) -> str:
    return number_format(count, force_grouping=True)


def past_the_count(limit: int, estimate: int) -> str:
    """What a count that stopped at `limit` says instead of a number: the planner's estimate ("about 1,000,000"), or
    "more than 5,000" when the planner guesses no more than was counted."""
    return (_("about %(count)s") % {"count": grouped(estimate)} if estimate > limit
            else _("more than %(count)s") % {"count": grouped(limit)})
