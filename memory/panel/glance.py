"""The memory page's strip *Memory at a glance*: the numbers of memory.facts.glance, each linking to its list, and
the new facts per week drawn as a server-rendered SVG bar chart (no script, no CDN) that stays readable at 390 px."""

from __future__ import annotations

from dataclasses import dataclass

from memory.facts.glance import MemoryAtAGlance

CHART_WIDTH, CHART_HEIGHT, AXIS = 520, 120, 18  # viewBox units; the SVG scales to the card's width


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    count: int
    week: object  # the week's first day (a datetime), for the label and the tooltip
    labelled: bool  # every fourth week, counted from this one, carries a date under the axis (none too far left
    # to fit): the labels never crowd at 390 px


def weekly_bars(glance: MemoryAtAGlance) -> tuple[list[Bar], int]:
    """The bars of the chart and the largest weekly count (the scale's top, at least 1)."""
    top = max([count for _, count in glance.weekly_new] + [1])
    slot = CHART_WIDTH / len(glance.weekly_new)
    usable = CHART_HEIGHT - AXIS
    bars = []
    for index, (week, count) in enumerate(glance.weekly_new):
        height = usable * count / top
        bars.append(Bar(x=round(index * slot + slot * 0.15, 2), y=round(usable - height, 2),
                        width=round(slot * 0.7, 2), height=round(height, 2), count=count, week=week,
                        labelled=index >= 3 and (len(glance.weekly_new) - 1 - index) % 4 == 0))
    return bars, top
