"""Our own documentation pages inside the panel."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.facts.confidence import (
    CONFIDENCE_IMPORTED,
    CONFIDENCE_INFERRED,
    CONFIDENCE_SELF,
    CONFIDENCE_STAFF,
    REINFORCEMENT_SHARE,
    reinforced_confidence,
)
from memory.types import PROFILES
from teams.panel import HtmxHttpRequest, panel_login_required

# How many mentions the page's example of reinforcement follows.
REINFORCEMENT_EXAMPLE_STEPS = 4


def _reinforced_steps(start: float, weight: float) -> list[str]:
    """A fact's confidence as other members say it again, by the code's own rule (so the page cannot drift)."""
    steps = [start]
    for _ in range(REINFORCEMENT_EXAMPLE_STEPS - 1):
        steps.append(reinforced_confidence(steps[-1], weight))
    return [f"{step:.2f}".rstrip("0").rstrip(".") for step in steps]


def confidence_rules() -> dict[str, object]:
    """The numbers the memory types page says about confidence, read from memory.facts.confidence."""
    return {
        "staff": CONFIDENCE_STAFF, "self": CONFIDENCE_SELF, "inferred": CONFIDENCE_INFERRED,
        "imported": CONFIDENCE_IMPORTED, "share": REINFORCEMENT_SHARE,
        "inferred_steps": _reinforced_steps(CONFIDENCE_INFERRED, CONFIDENCE_INFERRED),
    }


@panel_login_required
@require_GET
def memory_types_doc(request: HtmxHttpRequest) -> HttpResponse:
    """Each type is a section of its own, closed but for one: the type asked for (?type=), else the first."""
    asked = request.GET.get("type", "")
    open_type = asked if any(profile.value == asked for profile in PROFILES) else PROFILES[0].value
    return render(request, "memory/memory_types_doc.html", {"profiles": PROFILES, "open_type": open_type,
                                                             "confidence": confidence_rules()})
