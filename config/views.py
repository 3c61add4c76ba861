"""Error pages: JSON under /api/, HTML everywhere else."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from memory.api.http import error_response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return error_response(404, "There is no API endpoint at this address.")
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return error_response(500, "Something went wrong on our side; nothing was changed.")
    return render(request, "500.html", status=500)
