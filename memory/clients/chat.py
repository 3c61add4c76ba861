"""A small client for OpenAI-compatible chat endpoints (OpenAI, Ollama, vLLM, llama.cpp server …).

Only what the reply pipeline needs: one POST to `{base_url}/chat/completions` with tools, timeouts,
one retry on a connection error, and a parsed answer. Every failure becomes ModelError, which the
caller turns into a 503 with nothing changed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import httpx
from django.conf import settings

from config.crypto import decrypt_secret
from memory.models import ModelEndpoint

from .http import model_http

CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 60.0
MAX_RESPONSE_BYTES = 2 * 1024 * 1024


class ModelError(Exception):
    """The model endpoint failed: unreachable, timed out, answered an error or something unreadable."""


class ModelTimeout(ModelError):
    """The model endpoint did not answer within the time allowed."""


class DeadlinePassed(ModelTimeout):
    """The caller's deadline had passed before the endpoint was asked: no request was sent."""


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict | None  # None: the model sent arguments that are not a JSON object
    raw_arguments: str = ""


@dataclass(frozen=True)
class Usage:
    """The tokens the endpoint says the call used; None where it said nothing (never guessed)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True)
class ModelAnswer:
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    raw_message: dict = field(default_factory=dict)
    usage: Usage = Usage()


def _tokens(usage: object, name: str) -> int | None:
    value = usage.get(name) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _parse_tool_call(raw: object, index: int) -> ToolCall | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("function"), dict):
        return None
    function = raw["function"]
    name = function.get("name")
    if not isinstance(name, str):
        return None
    raw_arguments = function.get("arguments", "")
    if isinstance(raw_arguments, dict):  # some servers send an object instead of a JSON string
        arguments: dict | None = raw_arguments
        raw_arguments = json.dumps(raw_arguments)
    else:
        try:
            arguments = json.loads(raw_arguments or "{}")
        except (TypeError, json.JSONDecodeError):
            arguments = None
        if not isinstance(arguments, dict):
            arguments = None
    call_id = raw.get("id") if isinstance(raw.get("id"), str) else f"call_{index}"
    return ToolCall(id=call_id, name=name, arguments=arguments, raw_arguments=str(raw_arguments)[:2000])


def parse_answer(body: object) -> ModelAnswer:
    try:
        message = body["choices"][0]["message"]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        raise ModelError("The model endpoint answered without a message.") from None
    if not isinstance(message, dict):
        raise ModelError("The model endpoint answered without a message.")
    content = message.get("content") or ""
    if not isinstance(content, str):
        raise ModelError("The model endpoint answered with content that is not text.")
    # A reply is stored and posted: drop NUL and replace lone surrogates, which no database stores.
    content = content.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")
    raw_calls = message.get("tool_calls") or []
    calls = [call for index, raw in enumerate(raw_calls if isinstance(raw_calls, list) else [])
             if (call := _parse_tool_call(raw, index)) is not None]
    usage = body.get("usage") if isinstance(body, dict) else None  # type: ignore[union-attr]
    return ModelAnswer(content=content, tool_calls=calls, raw_message=message,
                       usage=Usage(_tokens(usage, "prompt_tokens"), _tokens(usage, "completion_tokens")))


def chat_completion(
    endpoint: ModelEndpoint,
    messages: list[dict],
    tools: list[dict] | None = None,
    *,
    read_timeout_s: float | None = None,
    deadline: float | None = None,
) -> ModelAnswer:
    """One chat completion. Retries once when the connection itself fails (not on timeouts or errors).
    The read timeout defaults to settings.LOREKEEPER_MODEL_TIMEOUT_S (60 s); with a `deadline` (a time.monotonic()
    moment: the reply's), every attempt waits at most what remains of it, and none starts past it (ModelTimeout)."""
    if read_timeout_s is None:
        read_timeout_s = float(getattr(settings, "LOREKEEPER_MODEL_TIMEOUT_S", READ_TIMEOUT_S))
    headers = {"Content-Type": "application/json"}
    if endpoint.api_key_encrypted:
        headers["Authorization"] = f"Bearer {decrypt_secret(endpoint.api_key_encrypted)}"
    payload: dict = {"model": endpoint.model_name, "messages": messages}
    if tools:
        payload["tools"] = tools
        payload["tool_choice"] = "auto"
    url = endpoint.base_url.rstrip("/") + "/chat/completions"
    for attempt in (1, 2):
        allowed_s = read_timeout_s if deadline is None else min(read_timeout_s, deadline - time.monotonic())
        if allowed_s <= 0:
            raise DeadlinePassed("The reply deadline passed before the model was asked.")
        timeout = httpx.Timeout(allowed_s, connect=min(CONNECT_TIMEOUT_S, allowed_s))
        try:
            response = model_http().post(url, json=payload, headers=headers, timeout=timeout)
            break
        except httpx.ConnectError as error:
            if attempt == 2:
                raise ModelError(f"The model endpoint could not be reached ({error.__class__.__name__}).") from None
        except httpx.TimeoutException:
            raise ModelTimeout(f"The model endpoint did not answer within {allowed_s:.3g} seconds.") from None
        except httpx.HTTPError as error:
            raise ModelError(f"The model endpoint failed ({error.__class__.__name__}).") from None
    if response.status_code != 200:
        raise ModelError(f"The model endpoint answered HTTP {response.status_code}.")
    if len(response.content) > MAX_RESPONSE_BYTES:
        raise ModelError("The model endpoint answered with more than 2 MiB.")
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ModelError("The model endpoint answered with something that is not JSON.") from None
    return parse_answer(body)
