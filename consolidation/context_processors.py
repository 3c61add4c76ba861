"""The navigation's count of proposals waiting for the user (configure users and moderators)."""

from __future__ import annotations

from django.http import HttpRequest


def pending_proposals(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or getattr(request, "htmx", False):
        return {}  # fragments have no navigation: skip the query

    def first_waiting() -> dict:
        from .selectors import pending_summary_for

        return pending_summary_for(user)

    return {"waiting_proposals": first_waiting}
