"""Fixtures of the learning tests: a Ledger server (contradictions are caught at write) with #general public and
#mod-chat private, and its learning model played by a local HTTP server."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest

from memory.configuration.directory import ReportedChannel, channels_report
from memory.learning.ingest import IngestedMessage, messages_ingest
from memory.models import MemoryType, ModelPurpose
from tests.memory.bot.api.helpers import configure
from tests.memory.conftest import GENERAL, MODS
from tests.model_server import answer, played_model

PAUL, MIRA, ZED, BOT = "222", "333", "444", "999"
NAMES = {PAUL: "Paul", MIRA: "Mira", ZED: "Zed", BOT: "Lorekeeper"}
START = datetime(2026, 5, 3, 18, 0, tzinfo=dt_timezone.utc)


@pytest.fixture
def learning_server(server):
    configure(server, memory_type=MemoryType.LEDGER)
    channels_report(server=server, channels=[ReportedChannel(channel_id=GENERAL, name="general", public=True),
                                             ReportedChannel(channel_id=MODS, name="mod-chat", public=False)])
    return server


@pytest.fixture
def learning_model(learning_server, owner):
    with played_model(learning_server, owner, ModelPurpose.LEARNING, model_name="fake-learner",
                      api_key="sk-learn-0123456789abcdef") as fake:
        yield fake


def msg(message_id: int, author: str, content: str, channel: str = GENERAL, minutes: int | None = None
        ) -> IngestedMessage:
    return IngestedMessage(message_id=str(message_id), channel_id=channel, thread_parent_id="", author_id=author,
                           author_name=NAMES[author], is_bot=author == BOT, content=content,
                           sent_at=START + timedelta(minutes=message_id % 100 if minutes is None else minutes))


def ingest(server, *messages: IngestedMessage) -> None:
    outcome = messages_ingest(server=server, messages=list(messages))
    assert outcome.accepted == len(messages), outcome.ignored


def learned(facts: list[dict] | None = None, note: str | None = None, **extra) -> dict:
    """A learning model's answer: the facts it proposes and the channel's note."""
    body = {"facts": facts or [], **({"note": note} if note is not None else {}), **extra}
    return {**answer(json.dumps(body, ensure_ascii=False)), "usage": {"prompt_tokens": 900, "completion_tokens": 120}}


def fact(key: str, content: str, message_ids: list[int], op: str = "new", **fields) -> dict:
    return {"op": op, "key": key, "content": content, "message_ids": [str(m) for m in message_ids], **fields}
