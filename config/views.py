"""Error pages: JSON under /api/, HTML everywhere else."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from config.api_errors import error_response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return error_response(404, "There is no API endpoint at this address.")
    return render(request, "404.html", status=404)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 that says nothing was changed: JSON under /api/, a page elsewhere, with Retry-After."""
    if request.path.startswith("/api/"):
        response = error_response(503, "The database is unavailable right now; nothing was changed. "
                                       "Try again in a few seconds.")
    else:  # no request context: its processors would query the unreachable database again
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = "5"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """500, or 503 when the database was unreachable (also outside views: sessions, authentication)."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    if request.path.startswith("/api/"):
        return error_response(500, "Something went wrong on our side; nothing was changed.")
    return render(request, "500.html", status=500)
