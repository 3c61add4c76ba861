"""What a change says it did: one short sentence in the page's status region (the messages of templates/_base.html),
with an Undo button where the change can really be undone. A full page shows it as it loads; a fragment answer
carries the region out of band, so the sentence appears without a reload."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from teams.panel import HtmxHttpRequest


@dataclass(frozen=True)
class Undo:
    """A form that puts the state back through the same view the change went through (so it is checked and audited
    like any change): where it posts, what it sends, and which element its answer replaces."""

    url: str
    fields: dict[str, str]
    target: str
    # "none" when the element may have left the page (a retracted row leaves the list): the view's out-of-band
    # notice and the list's reload still show what happened.
    swap: str = "outerHTML"


def notice_add(request: HttpRequest, text: str, undo: Undo | None = None) -> None:
    """Queue the sentence (and its Undo) for the page or fragment that shows the messages next: call it before the
    answer is drawn, so a full page drawn now shows it."""
    # Rendered now, while the request (and its CSRF token) is at hand; a message stores text, so the Undo form is
    # kept as safe HTML, which the message storage keeps safe across a redirect.
    messages.success(request, render_to_string("_notice.html", {"text": text, "undo": undo}, request=request))


def with_notices(request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
    """A fragment's answer with the page's status region after it, swapped in out of band. A whole page, or a
    redirect (plain or HTMX's), is left as it is: it shows the messages itself, or the page that loads next does."""
    if not request.htmx or _is_page(response):
        return response
    response.content += render_to_string("_messages.html", {"oob": True}, request=request).encode()
    return response


def _is_page(response: HttpResponse) -> bool:
    if response.status_code in (301, 302, 303) or "HX-Location" in response or "HX-Redirect" in response:
        return True
    return b"<html" in response.content[:300]
