"""Fixtures of the API tests: a bot's client whose every answer is checked against the schema."""

from __future__ import annotations

import pytest

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.models import MemoryType, ModelEndpoint, ModelPurpose
from tests.factories import make_fact
from tests.model_server import FakeModelServer

from .helpers import Api, configure


@pytest.fixture
def api(client, bot_token) -> Api:
    """Our team's bot; `api.as_token(...)` for another token or none."""
    return Api(client, bot_token)


@pytest.fixture
def archive_server(server):
    """Our server on Searchable archive: context, the one search and every action are allowed."""
    configure(server, memory_type=MemoryType.ARCHIVE)
    return server


@pytest.fixture
def exchange(archive_server):
    """An exchange of our server that was shown one fact (#1)."""
    make_fact(archive_server, key="server_theme", content="This server is about retro gaming.")
    return exchange_open(server=archive_server, message=IncomingMessage(
        channel_id="111", author_id="222", author_name="Paul", content="hello")).exchange


@pytest.fixture
def model(server):
    """A scripted OpenAI-compatible model on 127.0.0.1, set as our server's reply model."""
    fake = FakeModelServer().start()
    ModelEndpoint.objects.create(server=server, purpose=ModelPurpose.REPLY, base_url=fake.base_url,
                                 model_name="fake")
    yield fake
    fake.stop()
