"""API v1 views: thin wrappers that authenticate, parse, call one service and answer JSON (API.md)."""

from __future__ import annotations

from uuid import UUID

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from config.api_errors import error_response
from memory.bot.actions import exchange_apply_actions
from memory.bot.exchanges import ExchangeRefused, ensure_run_by_bot, exchange_open, exchange_search
from memory.bot.reply import ReplyFailed, ReplyOverBudget, ReplyTimedOut, reply_to_message
from memory.bot.selectors import exchange_facts_in_force
from memory.configuration.directory import channels_report
from memory.configuration.selectors import ai_settings_for_server
from memory.facts.deletes import facts_purge
from memory.facts.forget_requests import forget_me
from memory.facts.selectors import member_facts
from memory.learning.deletions import messages_deleted
from memory.learning.ingest import messages_ingest
from memory.models import Exchange, ForgetRequestVia
from memory.retrieval.words import words_language
from memory.usage.budget import seconds_to_next_period
from teams.models import BotToken, Server

from .http import ApiError, answered_once, bot_api, idempotency_key, json_body, public_api
from .parsing import (parse_actions, parse_channels, parse_deleted, parse_forget, parse_history, parse_ingest, parse_member_id,
                      parse_message, parse_purge, parse_search)
from .schema import openapi_schema
from .selectors import bot_token_label, exchange_is_on_server, purge_source_named
from .serializers import exchange_as_json, facts_as_json, memory_summary, shown_why


def _exchange(found: Exchange | None, exchange_id: UUID) -> Exchange:
    """The exchange the token's query found (bot_api's finds_exchange), or a 404."""
    if found is None:
        raise ApiError(404, f"No exchange {exchange_id} is reachable with this token.")
    return found


def _exchange_run_by_bot(found: Exchange | None, exchange_id: UUID) -> Exchange:
    exchange = _exchange(found, exchange_id)
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
        "facts": facts_as_json(opened.facts),
        **shown_why(exchange),
        "prompt": exchange.memory_block,
    })


@bot_api(methods=["POST"], finds_exchange=True)
def search(request: HttpRequest, bot_token: BotToken, exchange: UUID, found: Exchange | None) -> JsonResponse:
    found = _exchange_run_by_bot(found, exchange)
    query = parse_search(json_body(request))
    try:
        outcome = exchange_search(exchange=found, query=query)
    except ExchangeRefused as refused:
        raise ApiError(409, str(refused)) from None
    language = words_language(found.server_id)
    return JsonResponse({"facts": facts_as_json(outcome.facts), "mode": outcome.mode,
                         "fallback_reason": outcome.fallback_reason, "language": language.code,
                         "language_note": language.note or None})


@bot_api(methods=["POST"], finds_exchange=True)
def actions(request: HttpRequest, bot_token: BotToken, exchange: UUID, found: Exchange | None) -> HttpResponse:
    key = idempotency_key(request)
    found = _exchange_run_by_bot(found, exchange)

    def apply() -> tuple[JsonResponse, UUID]:
        results = exchange_apply_actions(exchange=found, ops=parse_actions(json_body(request)))
        return JsonResponse({"results": [result.as_dict() for result in results]}), found.pk

    return answered_once(request, key, server_id=found.server_id, operation="actions", target=str(found.pk),
                         answer=apply, atomic=True)


@bot_api(methods=["POST"], finds_server=True)
def reply(request: HttpRequest, bot_token: BotToken, server: Server) -> HttpResponse:
    key = idempotency_key(request)

    def answer() -> tuple[JsonResponse, UUID]:
        body = json_body(request)
        message = parse_message(body, extra_fields={"history"})
        history = parse_history(body)
        try:
            outcome = reply_to_message(server=server, message=message, history=history, source="reply")
        except ReplyOverBudget as spent:
            raise ApiError(429, f"Nothing was asked and nothing was changed: {spent.reason}",
                           headers={"Retry-After": str(seconds_to_next_period())}) from None
        except ReplyTimedOut as late:
            raise ApiError(503, f"The reply was given up and nothing was changed: {late.reason}") from None
        except ReplyFailed as failed:
            raise ApiError(503, f"The reply model failed and nothing was changed: {failed.reason}") from None
        return JsonResponse({"reply": outcome.reply, "exchange": str(outcome.exchange.pk),
                             "model_calls": outcome.model_calls, "memory": memory_summary(outcome.exchange)}
                            ), outcome.exchange.pk

    # A reply asks its model between transactions: it is not applied in one (memory.bot.idempotency).
    return answered_once(request, key, server_id=server.pk, operation="reply", target=server.guild_id,
                         answer=answer, atomic=False)


@bot_api(methods=["GET"], finds_exchange=True)
def exchange_detail(request: HttpRequest, bot_token: BotToken, exchange: UUID, found: Exchange | None
                    ) -> JsonResponse:
    found = _exchange(found, exchange)
    return JsonResponse(exchange_as_json(found, exchange_facts_in_force(found)))


@bot_api(methods=["PUT"], finds_server=True)
def channels(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    """A bot that is not the built-in adapter reports channel names and whether @everyone can view them."""
    reported = parse_channels(json_body(request))
    return JsonResponse({"channels": channels_report(server=server, channels=reported)})


# 100 messages of Discord's longest (4,000 characters), as JSON escapes them: more than the other calls' 64 KiB.
@bot_api(methods=["POST"], finds_server=True, max_body_bytes=settings.API_MAX_MESSAGES_BODY_BYTES)
def messages(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    """Members' messages to learn from: stored where memory may be written, learned from in the background."""
    outcome = messages_ingest(server=server, messages=parse_ingest(json_body(request)))
    return JsonResponse({"accepted": outcome.accepted,
                         "ignored": [{"id": message_id, "reason": reason} for message_id, reason in outcome.ignored]},
                        status=202)


@bot_api(methods=["POST"], finds_server=True)
def messages_deleted_view(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    """Members deleted these Discord messages: what was learned from them is withdrawn, their words removed."""
    outcome = messages_deleted(server=server, message_ids=parse_deleted(json_body(request)),
                               actor_label=bot_token_label(bot_token))
    return JsonResponse({"withdrawn": outcome.withdrawn, "removed": outcome.messages_removed})


@bot_api(methods=["POST"], finds_server=True)
def purge(request: HttpRequest, bot_token: BotToken, server: Server) -> JsonResponse:
    source = parse_purge(json_body(request))
    if source.exchange_id is not None and not exchange_is_on_server(server, source.exchange_id):
        raise ApiError(404, f"No exchange {source.exchange_id} on this server is reachable with this token.")
    removed = facts_purge(server=server, source=purge_source_named(server, source),
                          actor_label=bot_token_label(bot_token))
    return JsonResponse({"removed": removed})


@bot_api(methods=["GET"], finds_server=True)
def member_facts_detail(request: HttpRequest, bot_token: BotToken, server: Server, member_id: str) -> JsonResponse:
    """What the bot knows about one member, every audience: for a bot to show that member privately."""
    about, learned_from = member_facts(server, parse_member_id(member_id))
    return JsonResponse({"about": facts_as_json(about), "learned_from": facts_as_json(learned_from)})


@bot_api(methods=["POST"], finds_server=True)
def member_forget(request: HttpRequest, bot_token: BotToken, server: Server, member_id: str) -> JsonResponse:
    """The member asks to be forgotten: wiped now or a request for staff, as the server's AI settings say."""
    member_id = parse_member_id(member_id)
    member_name = parse_forget(json_body(request))
    outcome = forget_me(server=server, member_id=member_id, member_name=member_name, via=ForgetRequestVia.API)
    if outcome.wiped:
        return JsonResponse({"wiped": True, "facts_removed": outcome.facts_removed})
    return JsonResponse({"wiped": False, "request": "open"})


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


