"""The monthly token budgets: the period (a calendar month, UTC), what it has used, and whether a budget is used up.

Over budget = the tokens recorded this period for the budget's purposes ≥ the budget. A call whose endpoint
reported no usage counts as 0, and is counted apart so the pages can say how many there were."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy

from memory.models import BACKGROUND_PURPOSES, REPLY_PURPOSES, AISettings
from memory.text.numbers import grouped

REPLY, BACKGROUND = "reply", "background"
_PURPOSES = {REPLY: REPLY_PURPOSES, BACKGROUND: BACKGROUND_PURPOSES}
_LABELS = {REPLY: gettext_lazy("Reply model"), BACKGROUND: gettext_lazy("Consolidation and learning models")}
# Whole sentences per budget (the API's 429 says it in English; the panel in the reader's language).
_USED_UP = {
    REPLY: gettext_lazy("The reply model's monthly budget of %(budget)s tokens is used up (%(used)s tokens recorded "
                        "this month); it is asked again from %(day)s 00:00 UTC."),
    BACKGROUND: gettext_lazy("The consolidation and learning models' monthly budget of %(budget)s tokens is used up "
                             "(%(used)s tokens recorded this month); they are asked again from %(day)s 00:00 UTC."),
}


def period_start(now: datetime | None = None) -> datetime:
    """The start of the calendar month (UTC) that holds `now`."""
    now = (now or timezone.now()).astimezone(dt_timezone.utc)
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def next_period_start(now: datetime | None = None) -> datetime:
    start = period_start(now)
    return start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)


def seconds_to_next_period(now: datetime | None = None) -> int:
    """Whole seconds until the next period starts, at least 1 (the API's Retry-After)."""
    now = now or timezone.now()
    return max(1, math.ceil((next_period_start(now) - now).total_seconds()))


_USED_SQL = """
    SELECT coalesce(sum(tokens), 0), coalesce(sum(unknown_calls), 0)
    FROM memory_usagemonth WHERE server_id = %s AND purpose = ANY(%s) AND month = %s
"""


def tokens_used(server_id: int, purposes: tuple[str, ...], now: datetime | None = None) -> tuple[int, int]:
    """The tokens recorded for these purposes in the period of `now`, and how many calls reported no usage: the
    month's rows (UsageMonth, one per purpose), not its calls — summing a month of calls took 8–14 ms at 33,000
    calls (docs/ARCHITECTURE.md), and a reply checks its budget every time."""
    with connection.cursor() as cursor:
        cursor.execute(_USED_SQL, [server_id, [str(purpose) for purpose in purposes], period_start(now).date()])
        used, unknown = cursor.fetchone()
    return int(used), int(unknown)


@dataclass(frozen=True)
class BudgetState:
    which: str  # REPLY | BACKGROUND
    budget: int | None  # None: no budget
    used: int  # tokens recorded this period
    unknown_calls: int  # calls this period whose endpoint reported no usage (counted as 0)
    resets_at: datetime  # when the next period starts

    @property
    def over(self) -> bool:
        return self.budget is not None and self.used >= self.budget

    @property
    def label(self) -> str:
        return str(_LABELS[self.which])

    @property
    def percent(self) -> int | None:
        """The share of the budget used, in whole percent (None without a budget)."""
        return None if self.budget is None else math.floor(self.used * 100 / self.budget)

    def sentence(self) -> str:
        """Why the model is not asked, in one sentence (for an over budget state)."""
        return str(_USED_UP[self.which]) % {"budget": grouped(self.budget), "used": grouped(self.used),
                                            "day": f"{self.resets_at:%Y-%m-%d}"}


def _budget_of(ai_settings: AISettings, which: str) -> int | None:
    return ai_settings.reply_token_budget if which == REPLY else ai_settings.background_token_budget


def budget_state(ai_settings: AISettings, which: str, now: datetime | None = None) -> BudgetState:
    """Where the server's budget of `which` stands this period (always counted, a budget set or not)."""
    now = now or timezone.now()
    used, unknown = tokens_used(ai_settings.server_id, _PURPOSES[which], now)
    return BudgetState(which, _budget_of(ai_settings, which), used, unknown, next_period_start(now))


def over_budget(ai_settings: AISettings, which: str, now: datetime | None = None) -> BudgetState | None:
    """The budget's state when it is used up, else None. Without a budget nothing is read."""
    if _budget_of(ai_settings, which) is None:
        return None
    state = budget_state(ai_settings, which, now)
    return state if state.over else None
