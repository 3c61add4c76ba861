"""Embedding endpoints record each call's tokens as they report them (None where they report none); the built-in
local model has no endpoint and costs nothing: it records nothing."""

from __future__ import annotations

import pytest

from memory.configuration.services import ai_settings_update
from memory.indexing.vectors import embed_facts_now, provider_for
from memory.models import ModelCall, ModelPurpose
from tests.factories import make_fact
from tests.model_server import embedding_answer, played_model

pytestmark = pytest.mark.django_db


@pytest.fixture
def embedding_model(server, owner):
    ai_settings_update(server=server, actor=owner, embedding_provider="endpoint")
    with played_model(server, owner, ModelPurpose.EMBEDDING, model_name="fake-embedder",
                      api_key="sk-embed-0123456789abcdef") as fake:
        yield fake


def test_an_endpoint_records_the_tokens_it_reports_and_unknown_where_it_reports_none(server, embedding_model):
    provider, _ = provider_for(server)
    embedding_model.embedding_script = [{**embedding_answer({"input": ["raids"]}),
                                         "usage": {"prompt_tokens": 3, "total_tokens": 3}}]
    provider.query("raids")  # reports its usage
    provider.query("movie night")  # the played endpoint's usual answer reports none
    calls = list(ModelCall.objects.filter(server=server).order_by("id").values_list(
        "purpose", "model_name", "prompt_tokens", "completion_tokens"))
    assert calls == [("embedding", "fake-embedder", 3, None), ("embedding", "fake-embedder", None, None)]


def test_the_built_in_local_model_records_nothing(server):
    fact = make_fact(server, key="raid_time", content="Raids start at 8 pm on Fridays.")
    provider, _ = provider_for(server)  # the default: the built-in model
    assert embed_facts_now(server, [fact.pk], provider).embedded == 1
    assert not ModelCall.objects.exists()
