"""The chat client under a deadline (memory.clients.chat): it waits at most what remains, and past the deadline it
sends nothing at all."""

from __future__ import annotations

import time

import pytest

from memory.clients.chat import DeadlinePassed, ModelTimeout, chat_completion
from memory.models import ModelEndpoint
from tests.model_server import FakeModelServer, Slow


@pytest.fixture
def fake():
    server = FakeModelServer().start()
    yield server
    server.stop()


def test_a_call_waits_at_most_what_remains_of_the_deadline(fake):
    fake.script = [Slow(10)]
    endpoint = ModelEndpoint(base_url=fake.base_url, model_name="slow")
    started = time.monotonic()
    with pytest.raises(ModelTimeout):
        chat_completion(endpoint, [{"role": "user", "content": "hi"}], deadline=started + 0.8)
    assert 0.75 <= time.monotonic() - started < 2


def test_past_the_deadline_no_request_is_sent(fake):
    endpoint = ModelEndpoint(base_url=fake.base_url, model_name="any")
    with pytest.raises(DeadlinePassed):
        chat_completion(endpoint, [{"role": "user", "content": "hi"}], deadline=time.monotonic() - 0.01)
    assert fake.chat_calls == 0
