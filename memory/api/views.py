"""API v1 views: thin wrappers that authenticate, call one selector or service, and answer JSON."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from memory.selectors import ai_settings_for_server
from teams.models import BotToken
from teams.selectors import server_for_token

from .http import ApiError, bot_api, error_response


@bot_api(methods=["GET"])
def server_detail(request: HttpRequest, bot_token: BotToken, guild_id: str) -> JsonResponse:
    """What the bot may check before it starts: the server is reachable with this token, and its type."""
    server = server_for_token(bot_token, guild_id)
    if server is None:
        raise ApiError(404, f"No server with guild id {guild_id} is reachable with this token.")
    return JsonResponse(
        {
            "guild_id": server.guild_id,
            "name": server.name,
            "memory_type": ai_settings_for_server(server).memory_type,
        }
    )


@csrf_exempt
def not_found(request: HttpRequest, unmatched: str = "") -> JsonResponse:
    return error_response(404, "There is no API endpoint at this address.")
