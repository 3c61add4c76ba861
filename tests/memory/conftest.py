"""Fixtures for the reply pipeline: a real scripted model server on 127.0.0.1, configured as the
server's reply model, and small helpers to set memory types, channel rules and to call the API."""

from __future__ import annotations

import json
import socket

import pytest

from memory.bot.exchanges import IncomingMessage
from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.services import ChannelRule, ai_settings_update, memory_type_set
from memory.models import Audience, Fact, ModelPurpose
from tests.factories import make_fact
from tests.model_server import played_model

MODEL_API_KEY = "sk-reply-test-0123456789abcdef"
MODEL_NAME = "fake-reply-model"
CHANNEL = "111000000000000111"
OTHER_CHANNEL = "111000000000000999"
THREAD = "111000000000000555"
PAUL = "222000000000000222"
# The places of the audience tests: #general (public), #mod-chat (private) and a thread of #mod-chat.
GENERAL, MODS, MODS_THREAD = "111", "222", "333"


@pytest.fixture
def model_server(server, owner):
    """A FakeModelServer answering as the reply model of `server`, with an API key."""
    with played_model(server, owner, ModelPurpose.REPLY, model_name=MODEL_NAME, api_key=MODEL_API_KEY) as fake:
        yield fake


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def use_memory_type(server, actor, memory_type: str) -> None:
    memory_type_set(server=server, actor=actor, memory_type=memory_type)


def set_channel_rules(server, actor, *, read=None, write=None, include_threads: bool = False,
                      max_injected_items: int = 20) -> None:
    """read / write: None for every channel, or a list of channel ids."""
    ai_settings_update(
        server=server, actor=actor, max_injected_items=max_injected_items,
        weight_recency=1.0, weight_importance=1.0, weight_relevance=1.0,
        read=ChannelRule(all_channels=read is None, channel_ids=tuple(read or ())),
        write=ChannelRule(all_channels=write is None, channel_ids=tuple(write or ())),
        include_threads=include_threads,
    )


def use_endpoint_embeddings(server, actor) -> None:
    """Embeddings from the server's embedding endpoint instead of the built-in model; every channel open."""
    ai_settings_update(server=server, actor=actor, max_injected_items=server.ai_settings.max_injected_items,
                       weight_recency=1, weight_importance=1, weight_relevance=1,
                       read=ChannelRule(True, ()), write=ChannelRule(True, ()), include_threads=False,
                       embedding_provider="endpoint")


def paul_says(content: str = "Hello bot", *, channel_id: str = CHANNEL, thread_parent_id: str = "") -> IncomingMessage:
    return IncomingMessage(channel_id=channel_id, author_id=PAUL, author_name="Paul", content=content,
                           thread_parent_id=thread_parent_id)


def reply_body(content: str = "Hello bot", *, channel_id: str = CHANNEL, thread_parent_id: str | None = None,
               history: list[dict] | None = None) -> dict:
    body = {"channel_id": channel_id, "author_id": PAUL, "author_name": "Paul", "content": content,
            "history": history or []}
    if thread_parent_id:
        body["thread_parent_id"] = thread_parent_id
    return body


def api_post(client, url: str, token: str, body: dict):
    return client.post(url, data=json.dumps(body), content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {token}")


def reply_url(server) -> str:
    return f"/api/v1/servers/{server.guild_id}/reply"


def context_url(server) -> str:
    return f"/api/v1/servers/{server.guild_id}/context"


def facts_snapshot(*servers) -> dict:
    """Everything about every fact of the servers that a memory action could change."""
    return {
        (fact.server_id, fact.number): (fact.key, fact.content, fact.retracted_at, fact.retraction_reason,
                                        fact.superseded_by_id, fact.version, fact.changed_at)
        for fact in Fact.objects.filter(server__in=servers)
    }


@pytest.fixture
def channels(server):
    """#general reported public, #mod-chat private, and a thread of #mod-chat."""
    channels_report(server=server, channels=[
        ReportedChannel(channel_id=GENERAL, name="general", public=True),
        ReportedChannel(channel_id=MODS, name="mod-chat", public=False),
        ReportedChannel(channel_id=MODS_THREAD, name="ban talk", parent_id=MODS, is_thread=True),
    ])


@pytest.fixture
def learned(server):
    """Facts learned in #mod-chat, in its thread and in #general, and one by staff (learned nowhere)."""
    return {
        "mods": make_fact(server, key="ban_plan", content="We ban X on Friday.", audience=Audience.CHANNEL,
                          source_channel_id=MODS),
        "thread": make_fact(server, key="ban_reason", content="X spammed.", audience=Audience.CHANNEL,
                            source_channel_id=MODS, source_thread_id=MODS_THREAD),
        "general": make_fact(server, key="theme", content="Retro gaming.", source_channel_id=GENERAL),
        "staff": make_fact(server, key="rules", content="Be kind."),
    }
