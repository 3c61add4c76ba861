"""The usage page's charts: tokens per day for the last 90 days, one chart per budget (the reply model; consolidation
and learning together; embeddings, which no budget counts), drawn by the server as SVG.

The SVG has no viewBox: across it, every position is a percentage of its width, so 90 days fit a phone as well as
a desk and its text keeps its size; up and down, positions are pixels. A monthly budget is drawn as its daily share
(the budget over the days of its month) in each month the chart shows: bars above the line spend faster than the
budget lasts. Every day carries its numbers (data-* attributes and a title), the numbers the chart was drawn from.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone

from django.utils import dateformat
from django.utils.translation import gettext as _, ngettext, pgettext

from memory.models import UsagePurpose
from memory.text.numbers import grouped
from memory.text.sentence_case import in_sentence
from memory.usage.selectors import DayUsage

DAYS = 90
PLOT_TOP = 10  # px above the highest tick
PLOT_HEIGHT = 180  # px
AXIS_HEIGHT = 24  # px below the plot, for the months
SVG_HEIGHT = PLOT_TOP + PLOT_HEIGHT + AXIS_HEIGHT
_BAR_SHARE = 0.78  # of a day's width


@dataclass(frozen=True)
class Segment:
    purpose: str
    y: int
    height: int


@dataclass
class ChartDay:
    day: date
    x: str  # % of the width
    width: str
    values: dict[str, int]  # tokens by purpose
    unknown_calls: int
    segments: list[Segment] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.values.values())

    @property
    def title(self) -> str:
        parts = ", ".join(f"{in_sentence(UsagePurpose(purpose).label)} {grouped(tokens)}"
                          for purpose, tokens in self.values.items())
        if self.unknown_calls:
            return ngettext("%(day)s: %(parts)s tokens; %(count)s call with unknown usage",
                            "%(day)s: %(parts)s tokens; %(count)s calls with unknown usage", self.unknown_calls) % {
                "day": f"{self.day:%Y-%m-%d}", "parts": parts, "count": self.unknown_calls}
        return _("%(day)s: %(parts)s tokens") % {"day": f"{self.day:%Y-%m-%d}", "parts": parts}


@dataclass(frozen=True)
class BudgetLine:
    x1: str
    x2: str
    y: int
    daily: int  # tokens a day: the monthly budget over the days of that month
    month: str


@dataclass
class Chart:
    key: str  # reply | background | embedding
    title: str
    purposes: list[tuple[str, str]]  # (purpose, label), bottom of the stack first
    days: list[ChartDay]
    budget: int | None
    ticks: list[tuple[int, str]] = field(default_factory=list)  # (y px, label)
    months: list[tuple[str, str, str]] = field(default_factory=list)  # (x %, label, anchor) where a month starts
    budget_lines: list[BudgetLine] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(day.total for day in self.days)

    @property
    def unknown_calls(self) -> int:
        return sum(day.unknown_calls for day in self.days)

    height = SVG_HEIGHT
    plot_bottom = PLOT_TOP + PLOT_HEIGHT
    axis_y = PLOT_TOP + PLOT_HEIGHT + 17


def chart_days(today: date) -> list[date]:
    """The last 90 UTC days, today last."""
    return [today - timedelta(days=DAYS - 1 - index) for index in range(DAYS)]


def _percent(value: float) -> str:
    return f"{value:.3f}%"


def _nice_top(highest: float) -> int:
    """The top of the axis: four ticks of 1, 2 or 5 × 10^k tokens each, the first four that reach `highest`."""
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if step * 4 >= highest:
                return step * 4
        magnitude *= 10


def _budget_lines(days: list[date], budget: int | None, y_of) -> list[BudgetLine]:
    if budget is None:
        return []
    lines, start = [], 0
    for index in range(1, len(days) + 1):
        if index == len(days) or days[index].month != days[start].month:
            month = days[start]
            daily = round(budget / calendar.monthrange(month.year, month.month)[1])
            lines.append(BudgetLine(_percent(start * 100 / DAYS), _percent(index * 100 / DAYS), y_of(daily), daily,
                                    dateformat.format(month, "F Y")))  # the reader's month names
            start = index
    return lines


def build_chart(key: str, title: str, purposes: list[str], days: list[date],
                usage: dict[tuple[date, str], DayUsage], budget: int | None) -> Chart:
    chart_days_ = []
    for index, day in enumerate(days):
        values = {str(purpose): usage[(day, purpose)].tokens if (day, purpose) in usage else 0 for purpose in purposes}
        unknown = sum(usage[(day, purpose)].unknown_calls for purpose in purposes if (day, purpose) in usage)
        chart_days_.append(ChartDay(day, _percent((index + (1 - _BAR_SHARE) / 2) * 100 / DAYS),
                                    _percent(_BAR_SHARE * 100 / DAYS), values, unknown))
    chart = Chart(key, title, [(str(purpose), UsagePurpose(purpose).label) for purpose in purposes], chart_days_,
                  budget)
    daily_shares = [round(budget / 28)] if budget is not None else []  # the highest a line can be
    top = _nice_top(max([day.total for day in chart_days_] + daily_shares + [1]))

    def y_of(tokens: float) -> int:
        return PLOT_TOP + round(PLOT_HEIGHT * (1 - min(tokens, top) / top))

    for day in chart_days_:
        below = 0
        for purpose in purposes:
            tokens = day.values[str(purpose)]
            if tokens:
                y = y_of(below + tokens)
                day.segments.append(Segment(str(purpose), y, max(1, y_of(below) - y)))
                below += tokens
    chart.ticks = [(y_of(top * step / 4), grouped(round(top * step / 4))) for step in range(5)]
    # A month starting in the last days is labelled at the right edge, ending there, so that no label is cut off.
    month = pgettext("chart tick: a month, as a Django date format", "M")  # "aug" in Dutch, "8月" in Japanese
    chart.months = [(_percent(index * 100 / DAYS), dateformat.format(day, month), "start") if index < DAYS - 8
                    else ("100%", dateformat.format(day, month), "end")
                    for index, day in enumerate(days) if day.day == 1 or index == 0]
    chart.budget_lines = _budget_lines(days, budget, y_of)
    return chart


def usage_charts(usage: dict[tuple[date, str], DayUsage], today: date, reply_budget: int | None,
                 background_budget: int | None) -> list[Chart]:
    days = chart_days(today)
    return [
        build_chart("reply", _("Reply model"), [UsagePurpose.REPLY], days, usage, reply_budget),
        build_chart("background", _("Consolidation and learning models"),
                    [UsagePurpose.CONSOLIDATION, UsagePurpose.LEARNING], days, usage, background_budget),
        build_chart("embedding", _("Embedding endpoint"), [UsagePurpose.EMBEDDING], days, usage, None),
    ]


def chart_since(today: date) -> datetime:
    """The first moment the charts show (00:00 UTC of their first day)."""
    first = chart_days(today)[0]
    return datetime(first.year, first.month, first.day, tzinfo=dt_timezone.utc)
