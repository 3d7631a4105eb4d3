"""A fake OpenAI-compatible server for tests: ``POST /v1/chat/completions`` on localhost.

`FakeOpenAI` is an aiohttp server on a free port; point ``LLM_BASE_URL`` at ``fake.base_url``::

    async with FakeOpenAI() as model:
        model.reply("Minder は ByteDance が開発した [1]。")
        ...                                   # run the code under test
        request = model.requests[0]
        request.stream, request.system, request.user, request.headers

It answers streamed (server-sent events, ``stream: true``) and whole requests alike, as OpenAI does:
chunks of ``chat.completion.chunk`` with the content in pieces, a last chunk with the
``finish_reason``, then ``data: [DONE]``. What the next requests get is scripted, in order (each
script applies to the next ``times`` requests; afterwards the standing ``reply`` is given):

- ``reply(text, finish_reason="stop", hold_at=None)``: the standing answer; with ``hold_at`` a
  streamed answer stops after that many characters until ``release()`` is called;
- ``fail(status, retry_after=None)``: an OpenAI-style error body (429 with ``Retry-After``);
- ``slow()``: no answer at all until the server stops (a model that never finishes);
- ``cut()``: half of the answer streamed, then the connection is dropped;
- ``malformed()``: a stream whose first event is not JSON.

A streamed answer can be paced like a real model's: ``first_delay`` seconds before its first piece of
content (time to first token), then ``delay`` seconds before each further piece (of `CHUNK_CHARS`).

``GET /v1/models`` lists ``models`` (default: ``MODEL``). With ``key`` set, a request without
``Authorization: Bearer <key>`` gets 401, as a refused key does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.conftest import eventually

MODEL = "fake-model-1"
CHUNK_CHARS = 6


@dataclass(frozen=True)
class ChatRequest:
    """One request as the fake received it."""

    body: dict[str, Any]
    headers: dict[str, str]
    at: float

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    @property
    def system(self) -> str:
        return "\n".join(m["content"] for m in self.body["messages"] if m["role"] == "system")

    @property
    def user(self) -> str:
        return "\n".join(m["content"] for m in self.body["messages"] if m["role"] == "user")


@dataclass
class _Script:
    kind: str
    times: int
    status: int = 200
    retry_after: str | None = None


@dataclass
class FakeOpenAI:
    key: str | None = None
    host: str = "127.0.0.1"
    requests: list[ChatRequest] = field(default_factory=list)
    models: tuple[str, ...] = (MODEL,)
    listings: list[dict[str, str]] = field(default_factory=list)
    """The headers of each ``GET /v1/models``."""
    first_delay: float = 0.0
    delay: float = 0.0

    def __post_init__(self) -> None:
        self._scripts: list[_Script] = []
        self._text = "Minder は ByteDance が開発した [1]。"
        self._finish_reason = "stop"
        self._hold_at: int | None = None
        self._released = asyncio.Event()
        self._closing = asyncio.Event()
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, 0).start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closing.set()
        self._released.set()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    # -- scripting ------------------------------------------------------------------------

    def reply(self, text: str, *, finish_reason: str = "stop", hold_at: int | None = None) -> None:
        self._text, self._finish_reason, self._hold_at = text, finish_reason, hold_at

    def release(self) -> None:
        self._released.set()

    def fail(self, status: int, *, retry_after: float | None = None, times: int = 1) -> None:
        retry = None if retry_after is None else f"{retry_after:g}"
        self._scripts.append(_Script("fail", times, status, retry))

    def slow(self, *, times: int = 1) -> None:
        self._scripts.append(_Script("slow", times))

    def cut(self, *, times: int = 1) -> None:
        self._scripts.append(_Script("cut", times))

    def malformed(self, *, times: int = 1) -> None:
        self._scripts.append(_Script("malformed", times))

    async def wait_for_requests(self, count: int = 1, timeout: float = 10.0) -> list[ChatRequest]:
        await eventually(lambda: len(self.requests) >= count, timeout=timeout, what=f"{count} model requests")
        return self.requests

    # -- the endpoint ---------------------------------------------------------------------

    async def _models(self, request: web.Request) -> web.Response:
        """``GET /v1/models`` (``sakuin doctor``): the models in ``self.models``, for the key."""
        self.listings.append(dict(request.headers))
        if self.key is not None and request.headers.get("Authorization") != f"Bearer {self.key}":
            return _error(401, "invalid_api_key", "Incorrect API key provided")
        return web.json_response(
            {
                "object": "list",
                "data": [{"id": name, "object": "model", "owned_by": "fake"} for name in self.models],
            }
        )

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(ChatRequest(body, dict(request.headers), time.monotonic()))
        if self.key is not None and request.headers.get("Authorization") != f"Bearer {self.key}":
            return _error(401, "invalid_api_key", "Incorrect API key provided")
        script = self._next_script()
        kind = script.kind if script else "answer"
        if kind == "fail":
            assert script is not None
            headers = {"Retry-After": script.retry_after} if script.retry_after else {}
            return _error(
                script.status,
                "rate_limit_exceeded" if script.status == 429 else "server_error",
                "scripted failure",
                headers,
            )
        if kind == "slow":
            await self._closing.wait()
            return _error(503, "server_error", "shutting down")
        if not body.get("stream"):
            return web.json_response(self._completion(body))
        return await self._stream(request, body, kind)

    async def _stream(self, request: web.Request, body: dict[str, Any], kind: str) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        if kind == "malformed":
            await response.write(b'data: {"choices": [{"delta": \n\n')
            await response.write_eof()
            return response
        created, ident = int(time.time()), f"chatcmpl-{next(self._ids)}"
        text = self._text
        pieces = [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)]
        await response.write(_event(_chunk(ident, created, {"role": "assistant", "content": ""})))
        sent = 0
        for index, piece in enumerate(pieces):
            pause = self.first_delay if index == 0 else self.delay
            if pause:
                await asyncio.sleep(pause)
            if kind == "cut" and index >= len(pieces) // 2:
                assert request.transport is not None
                request.transport.abort()
                return response
            await response.write(_event(_chunk(ident, created, {"content": piece})))
            sent += len(piece)
            if self._hold_at is not None and sent >= self._hold_at and sent - len(piece) < self._hold_at:
                await self._released.wait()
        await response.write(_event(_chunk(ident, created, {}, self._finish_reason)))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    def _completion(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", MODEL),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": self._text},
                    "finish_reason": self._finish_reason,
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }

    def _next_script(self) -> _Script | None:
        if not self._scripts:
            return None
        script = self._scripts[0]
        script.times -= 1
        if script.times <= 0:
            self._scripts.pop(0)
        return script


def _chunk(ident: str, created: int, delta: dict[str, Any], finish_reason: str | None = None) -> dict:
    return {
        "id": ident,
        "object": "chat.completion.chunk",
        "created": created,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _event(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> web.Response:
    body = {"error": {"message": message, "type": code, "param": None, "code": code}}
    return web.json_response(body, status=status, headers=headers)
