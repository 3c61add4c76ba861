"""Helpers every panel view uses: the typed HTMX request and a login guard that never redirects HTMX."""

from __future__ import annotations

import functools
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def panel_login_required(view: Callable) -> Callable:
    """Like login_required, but an HTMX request gets 401 + HX-Redirect (a whole-page trip to the
    login page) instead of a login form swapped into a fragment."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if getattr(request, "htmx", False):
            current = request.htmx.current_url_abs_path or request.get_full_path()
            response = HttpResponse(gettext("Your session has ended; log in again."), status=401)
            response["HX-Redirect"] = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': current})}"
            return response
        return redirect_to_login(request.get_full_path())

    return wrapper
