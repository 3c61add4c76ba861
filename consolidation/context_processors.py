"""The navigation's count of proposals waiting for the user (configure users and moderators)."""

from __future__ import annotations

from django.http import HttpRequest

from .selectors import pending_summary_for


def pending_proposals(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or getattr(request, "htmx", False):
        return {}  # fragments have no navigation: skip the query

    def first_waiting() -> dict:  # called by the template that shows the badge, so other pages skip the query
        return pending_summary_for(user)

    return {"waiting_proposals": first_waiting}
