"""Our own documentation pages inside the panel."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memory.types import PROFILES
from teams.panel import HtmxHttpRequest, panel_login_required


@panel_login_required
@require_GET
def memory_types_doc(request: HtmxHttpRequest) -> HttpResponse:
    """Each type is a section of its own, closed but for one: the type asked for (?type=), else the first."""
    asked = request.GET.get("type", "")
    open_type = asked if any(profile.value == asked for profile in PROFILES) else PROFILES[0].value
    return render(request, "memory/memory_types_doc.html", {"profiles": PROFILES, "open_type": open_type})
