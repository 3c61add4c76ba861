"""The bot API's one error shape, {"error": "<one sentence>", "field": <name or null>}: answered by the API's views
(memory.bot.api) and by the project's error handlers under /api/ (config.views), which know nothing else of memory."""

from __future__ import annotations

from django.http import JsonResponse


def error_response(status: int, error: str, field: str | None = None, headers: dict | None = None) -> JsonResponse:
    response = JsonResponse({"error": error, "field": field}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response
