"""API v1 views: thin wrappers that authenticate, parse, call one service and answer JSON (API.md)."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from config.api_errors import error_response
from memory.bot.actions import exchange_apply_actions
from memory.bot.exchanges import ExchangeRefused, ensure_run_by_bot, exchange_open, exchange_search
from memory.bot.reply import ReplyFailed, reply_to_message
from memory.bot.selectors import exchange_for_bot
from memory.configuration.selectors import ai_settings_for_server
from memory.models import Exchange
from teams.models import BotToken, Server

from .http import ApiError, bot_api, json_body, public_api
from .parsing import parse_actions, parse_history, parse_message, parse_search
from .schema import openapi_schema
from .serializers import exchange_as_json, fact_as_json, memory_summary


def _exchange(bot_token: BotToken, exchange_id: UUID) -> Exchange:
    exchange = exchange_for_bot(bot_token.team_id, exchange_id)
    if exchange is None:
        raise ApiError(404, f"No exchange {exchange_id} is reachable with this token.")
    return exchange


def _exchange_run_by_bot(bot_token: BotToken, exchange_id: UUID) -> Exchange:
    exchange = _exchange(bot_token, exchange_id)
    try:
        ensure_run_by_bot(exchange)
    except ExchangeRefused as refused:
        raise ApiError(409, str(refused)) from None
    return exchange


@bot_api(methods=["GET"], finds_server=True)
def server_detail(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    """What the bot may check before it starts: the server is reachable with this token, and its type."""
    return JsonResponse({"guild_id": server.guild_id, "name": server.name,
                         "memory_type": ai_settings_for_server(server).memory_type})


@bot_api(methods=["POST"], finds_server=True, opens_exchange=True)
def context(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    message = parse_message(json_body(request))
    opened = exchange_open(server=server, message=message, source="api")
    exchange = opened.exchange
    return JsonResponse({
        "exchange": str(exchange.pk),
        "memory_type": exchange.memory_type,
        "read_allowed": exchange.read_allowed,
        "write_allowed": exchange.write_allowed,
        "can_search": exchange.can_search,
        "summary": opened.summary,
        "facts": [fact_as_json(fact) for fact in opened.facts],
        "prompt": exchange.memory_block,
    })


@bot_api(methods=["POST"])
def search(request: HttpRequest, bot_token: BotToken, exchange: UUID) -> JsonResponse:
    found = _exchange_run_by_bot(bot_token, exchange)
    query = parse_search(json_body(request))
    try:
        outcome = exchange_search(exchange=found, query=query)
    except ExchangeRefused as refused:
        raise ApiError(409, str(refused)) from None
    return JsonResponse({"facts": [fact_as_json(fact) for fact in outcome.facts], "mode": outcome.mode,
                         "fallback_reason": outcome.fallback_reason})


@bot_api(methods=["POST"])
def actions(request: HttpRequest, bot_token: BotToken, exchange: UUID) -> JsonResponse:
    found = _exchange_run_by_bot(bot_token, exchange)
    ops = parse_actions(json_body(request))
    results = exchange_apply_actions(exchange=found, ops=ops)
    return JsonResponse({"results": [result.as_dict() for result in results]})


@bot_api(methods=["POST"], finds_server=True)
def reply(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    body = json_body(request)
    message = parse_message(body, extra_fields={"history"})
    history = parse_history(body)
    try:
        outcome = reply_to_message(server=server, message=message, history=history, source="reply")
    except ReplyFailed as failed:
        raise ApiError(503, f"The reply model failed and nothing was changed: {failed.reason}") from None
    return JsonResponse({"reply": outcome.reply, "exchange": str(outcome.exchange.pk),
                         "model_calls": outcome.model_calls, "memory": memory_summary(outcome.exchange)})


@bot_api(methods=["GET"])
def exchange_detail(request: HttpRequest, bot_token: BotToken, exchange: UUID) -> JsonResponse:
    return JsonResponse(exchange_as_json(_exchange(bot_token, exchange)))


@public_api
def schema(request: HttpRequest) -> JsonResponse:
    """The OpenAPI 3.1 description of this API (public: it holds no data)."""
    return JsonResponse(openapi_schema(request.build_absolute_uri("/api/v1")), json_dumps_params={"indent": 2})


@public_api
def docs(request: HttpRequest):
    return render(request, "memory/api_docs.html", {"schema": openapi_schema("/api/v1")})


@csrf_exempt
def not_found(request: HttpRequest, unmatched: str = "") -> JsonResponse:
    return error_response(404, "There is no API endpoint at this address.")


