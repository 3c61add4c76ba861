"""JSON errors, bearer-token authentication and request-body rules shared by every API view."""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_errors import error_response
from memory.bot.idempotency import (KEY_MAX_LENGTH, WAIT_SECONDS, Answer, KeyBusy, KeyReused, answer_once,
                                    request_fingerprint)
from memory.bot.selectors import bot_token_and_exchange, bot_token_and_server
from memory.retrieval.audience import Reader
from memory.retrieval.context import ContextFor, speaking_members
from memory.models import Exchange
from teams.models import SNOWFLAKE_REGEX, BotToken, Server
from teams.selectors import bot_token_active_by_hash
from teams.services import bot_token_hash, bot_token_mark_used

logger = logging.getLogger(__name__)


class ApiError(Exception):
    """Raised anywhere below a view to answer with one JSON error and change nothing."""

    def __init__(self, status: int, error: str, field: str | None = None, headers: dict | None = None):
        super().__init__(error)
        self.status, self.error, self.field, self.headers = status, error, field, headers or {}


def _bearer_token_hash(request: HttpRequest) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "Send a bot token as 'Authorization: Bearer <token>'.")
    return bot_token_hash(token.strip())


def _accepted(bot_token: BotToken | None) -> BotToken:
    if bot_token is None:
        raise ApiError(401, "This bot token is not valid or has been revoked.")
    bot_token_mark_used(token=bot_token)
    return bot_token


def authenticate_bot(request: HttpRequest) -> BotToken:
    return _accepted(bot_token_active_by_hash(_bearer_token_hash(request)))


def authenticate_bot_for_exchange(request: HttpRequest, exchange_id: UUID) -> tuple[BotToken, Exchange | None]:
    """The token, as authenticate_bot checks it, and the exchange when one of its team's servers has it (None
    otherwise), read together (memory.bot.selectors.bot_token_and_exchange)."""
    bot_token, exchange = bot_token_and_exchange(_bearer_token_hash(request), exchange_id)
    return _accepted(bot_token), exchange


def authenticate_bot_for_guild(request: HttpRequest, guild_id: str, *, with_context: bool = False
                               ) -> tuple[BotToken, Server | None]:
    """The token, as authenticate_bot checks it, and the server of this guild when the token's team has
    it (None otherwise): read together, because the calls that name a guild are the bot's busiest
    (with_context: memory.bot.selectors.bot_token_and_server)."""
    # Only a snowflake can name a server (a database constraint); anything else, NUL bytes included,
    # is not sent to PostgreSQL and finds no server.
    looked_up = guild_id if re.fullmatch(SNOWFLAKE_REGEX, guild_id) else ""
    bot_token, server = bot_token_and_server(_bearer_token_hash(request), looked_up,
                                             context_for=_context_for(request) if with_context else None)
    return _accepted(bot_token), server


def _is_snowflake(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(SNOWFLAKE_REGEX, value) is not None


def _context_for(request: HttpRequest) -> ContextFor | None:
    """Whom the context call's body reads for (its channel, or a thread's parent) and the members it is about (the
    author and the members mentioned), looked at before the view so that what the context reads comes with the
    token and the server; None when the body names them badly (the view's parse_message then answers 400, and
    the context reads nothing ahead)."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, RecursionError):
        return None
    if not isinstance(body, dict):
        return None
    channel_id, thread_parent_id = body.get("channel_id"), body.get("thread_parent_id")
    if not _is_snowflake(channel_id) or not (thread_parent_id is None or _is_snowflake(thread_parent_id)):
        return None
    mentions = body.get("mentions", [])
    if not isinstance(mentions, list) or not all(isinstance(item, dict) for item in mentions):
        return None
    mentioned = [item.get("id") for item in mentions]
    if not _is_snowflake(body.get("author_id")) or not all(_is_snowflake(member) for member in mentioned):
        return None
    return ContextFor(Reader.for_message(channel_id, thread_parent_id or ""),
                      speaking_members(body["author_id"], mentioned))


def throttle(bot_token: BotToken) -> None:
    """Count the request against the token's per-minute budget (fixed one-minute windows in the cache);
    past the budget, 429 with Retry-After. A cache that is down lets the request through: the limit
    protects the service, and an outage of Redis must not take the bot API down with it."""
    limit = settings.LOREKEEPER_API_REQUESTS_PER_MINUTE
    if not limit:
        return
    now = time.time()
    key = f"api-requests:{bot_token.pk}:{int(now // 60)}"
    try:
        if cache.add(key, 1, timeout=120):
            count = 1
        else:
            count = cache.incr(key)
    except Exception:  # noqa: BLE001 - any cache failure: fail open, say so in the log
        logger.warning("rate limit skipped: the cache is unreachable", exc_info=True)
        return
    if count > limit:
        retry_after = max(1, 60 - int(now % 60))
        raise ApiError(429, f"This bot token sent more than {limit} request{'s' if limit != 1 else ''} this minute; "
                            f"try again in {retry_after} second{'s' if retry_after != 1 else ''}.",
                       headers={"Retry-After": str(retry_after)})


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request body as a JSON object, or a 400 that says what is wrong with it."""
    try:
        body = json.loads(request.body or b"null")
        # Lone surrogates (\udc00) are valid JSON escapes but not text a database can store.
        json.dumps(body, ensure_ascii=False).encode()
    except (ValueError, UnicodeError, RecursionError):  # ValueError covers JSONDecodeError, huge integers
        raise ApiError(400, "The request body is not valid JSON (or holds characters that are not text).") from None
    if not isinstance(body, dict):
        raise ApiError(400, "The request body must be a JSON object.")
    return body


IDEMPOTENCY_HEADER = "Idempotency-Key"
_IDEMPOTENCY_KEY = re.compile(f"[!-~]{{1,{KEY_MAX_LENGTH}}}")


def idempotency_key(request: HttpRequest) -> str | None:
    """The request's Idempotency-Key (None without one), or a 400 naming the header."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is not None and not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(400, f"The {IDEMPOTENCY_HEADER} header must be 1 to {KEY_MAX_LENGTH} visible ASCII characters "
                            "(letters, digits or punctuation, no spaces), such as a UUID.", IDEMPOTENCY_HEADER)
    return key


def answered_once(request: HttpRequest, key: str | None, *, server_id: int, operation: str, target: str,
                  answer: Callable[[], tuple[JsonResponse, UUID]], atomic: bool) -> HttpResponse:
    """`answer()`'s response (and the exchange it is about); with an Idempotency-Key, the first answer to that key
    on this server, given again byte for byte (memory.bot.idempotency)."""
    if key is None:
        return answer()[0]

    def computed() -> Answer:
        response, exchange_id = answer()
        return Answer(response.status_code, response.content.decode(), exchange_id)

    try:
        result = answer_once(server_id=server_id, key=key, atomic=atomic, answer=computed,
                             fingerprint=request_fingerprint(operation, target, request.body))
    except KeyReused:
        raise ApiError(409, f"This {IDEMPOTENCY_HEADER} was used in the last 24 hours for another request (another "
                            "exchange or body); use a new key for a new request.", IDEMPOTENCY_HEADER) from None
    except KeyBusy:
        raise ApiError(409, f"A request with this {IDEMPOTENCY_HEADER} is still being answered; send it again in a "
                            "few seconds to get its answer.", IDEMPOTENCY_HEADER,
                       headers={"Retry-After": str(int(WAIT_SECONDS))}) from None
    response = HttpResponse(result.body, status=result.status_code, content_type="application/json")
    if result.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _declared_length(request: HttpRequest) -> int:
    raw = request.headers.get("Content-Length") or "0"
    if not raw.isdigit():
        raise ApiError(400, "The Content-Length header must be a whole number of bytes.")
    return int(raw)


def public_api(view: Callable) -> Callable:
    """A GET-only page of the API that needs no token (schema, docs): other methods get a JSON 405."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, **kwargs: Any):
        if request.method not in ("GET", "HEAD"):
            return error_response(405, "Use GET on this address.", headers={"Allow": "GET"})
        return view(request, **kwargs)

    wrapper.csrf_exempt = True
    return wrapper


def bot_api(methods: list[str], *, finds_server: bool = False, opens_exchange: bool = False,
            finds_exchange: bool = False, max_body_bytes: int | None = None) -> Callable:
    """Wrap an API view: allowed methods, body size limit (settings.API_MAX_BODY_BYTES unless `max_body_bytes`),
    token authentication, JSON errors.

    The view receives (request, bot_token, **url_kwargs) and returns a JsonResponse or raises ApiError.
    With finds_server, the address's guild_id becomes the server: the view receives (request,
    bot_token, server, **other_url_kwargs), and a guild the token's team does not have is a 404.
    With opens_exchange (the context call), the server comes with what its context reads (the pinned facts, the
    speaker's share and, when its type shows the newest changes, the rest: read in the same query).
    With finds_exchange, the address's exchange is read with the token: the view receives (request, bot_token,
    exchange, found, **other_url_kwargs), `found` the Exchange with its server, or None when the token's team does
    not have it (the view answers the 404, after any check it makes first).
    """

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, **kwargs: Any) -> JsonResponse:
            try:
                if request.method not in methods:
                    raise ApiError(
                        405, f"Use {' or '.join(methods)} on this address.", headers={"Allow": ", ".join(methods)}
                    )
                limit = max_body_bytes or settings.API_MAX_BODY_BYTES
                if _declared_length(request) > limit:
                    raise ApiError(413, f"The request body is larger than the {limit // 1024:,} KiB limit.")
                if finds_exchange:
                    bot_token, found = authenticate_bot_for_exchange(request, kwargs["exchange"])
                    throttle(bot_token)
                    return view(request, bot_token, found=found, **kwargs)
                if not finds_server:
                    bot_token = authenticate_bot(request)
                    throttle(bot_token)
                    return view(request, bot_token, **kwargs)
                guild_id = kwargs.pop("guild_id")
                bot_token, server = authenticate_bot_for_guild(request, guild_id, with_context=opens_exchange)
                throttle(bot_token)
                if server is None:
                    raise ApiError(404, f"No server with guild id {guild_id} is reachable with this token.")
                return view(request, bot_token, server, **kwargs)
            except ApiError as exc:
                return error_response(exc.status, exc.error, exc.field, exc.headers)

        # The bot authenticates with its token, not a session cookie, so CSRF does not apply.
        wrapper.csrf_exempt = True
        return wrapper

    return decorator
