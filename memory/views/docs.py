"""Our own documentation pages inside the panel."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from teams.panel import HtmxHttpRequest, panel_login_required

from ..memory_types import PROFILES


@panel_login_required
@require_GET
def memory_types_doc(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "memory/memory_types_doc.html", {"profiles": PROFILES})
