"""A fake Slack for end-to-end tests: the Web API, response_url and Socket Mode on localhost.

`FakeSlack` is an aiohttp server on a free port. Point a client at it with
``AsyncWebClient(token="xoxb-…", base_url=slack.api_url)`` (or ``Settings(slack_api_url=slack.api_url)``)::

    async with FakeSlack() as slack:
        ...                                   # run the code under test
        await slack.wait_for_calls("chat.postMessage")
        call = slack.calls_to("chat.postMessage")[0]
        call.args["channel"], call.args["blocks"]

What it does:

- records every Web API call in ``slack.calls`` (`Call`: method, args, token, status) in order;
- answers ``auth.test`` for ``xoxb-`` tokens (``invalid_auth`` otherwise), ``apps.connections.open``
  with its own WebSocket URL for ``xapp-`` tokens, and ``{"ok": true}`` for anything else
  (``slack.answer(method, body)`` overrides an answer);
- keeps channels: ``chat.postMessage`` stores the message (with its metadata) under a fresh ``ts``,
  ``chat.update`` changes a stored message (``message_not_found`` otherwise),
  ``conversations.history`` returns the channel newest first (its top-level messages, within
  ``oldest``/``latest``), paginated, metadata only when asked (``slack.messages(channel)``,
  ``slack.parts(channel)`` and ``slack.message(ts)`` read them back); ``slack.user_message(…)``
  stores a person's message (a thread reply with ``thread_ts``), which ``conversations.replies``
  returns with its thread;
- streams messages as Slack does (`STREAM_METHODS`): ``chat.startStream`` stores a message in its
  thread (a DM's, or a channel's when ``recipient_team_id`` and ``recipient_user_id`` are given:
  Slack requires them outside a DM) from its ``markdown_text`` or ``markdown_text`` chunks;
  ``chat.appendStream`` (``channel``, ``ts`` and text required) adds to it; ``chat.stopStream`` adds
  the last text and the ``blocks`` shown under it and ends it. A message that is not streaming
  answers ``message_not_in_streaming_state``, missing arguments ``invalid_arguments``; the message
  then holds the streamed ``text``, ``streaming`` and ``blocks`` (a ``markdown`` block of the text,
  then the stop's blocks, as Slack renders it);
- injects failures for chosen methods: ``slack.fail(method, status=429, retry_after=1)``,
  ``slack.fail(method, status=500)``, ``slack.drop(method)`` (closes the connection without an
  answer), ``slack.hang(method)`` (answers only once ``slack.release`` is set); each applies to the
  next ``times`` calls of that method. For posts in particular:
  ``slack.lose_answer()`` stores the post and then drops the connection (``slack.lose(method)``
  does so for any method: the call is applied, the answer never arrives), ``slack.hold_post(n)``
  stores the n-th post and answers it only once ``slack.release`` is set (so a test can kill the
  poster between Slack's post and its record), ``slack.drop_post(n)`` drops the n-th post unstored;
- for ``sakuin doctor``: ``slack.granted_scopes`` (when not None) is sent as the ``x-oauth-scopes``
  header of ``auth.test``, as Slack does; ``conversations.info`` describes the channels in
  ``slack.channel_info`` (id → fields such as ``name``, ``is_member``) and answers
  ``channel_not_found`` for any other;
- for the wiki's inbox: ``chat.getPermalink`` answers a permalink, ``users.info`` the profile in
  ``slack.users`` (id → fields such as ``profile``), ``conversations.replies`` the thread in
  ``slack.threads`` ((channel, ts) → messages), else the stored messages of that thread;
- serves response URLs: ``slack.response_url("name")`` is a URL whose posts are recorded in
  ``slack.responses`` (`ResponsePost`: name, body); ``fail``/``drop`` with ``"response:<name>"``
  make its next posts fail the same ways;
- serves Socket Mode: clients get ``slack.socket_url`` from ``apps.connections.open``;
  ``await slack.push(kind, payload)`` sends an envelope to the newest connection and returns its
  envelope id; acknowledgements land in ``slack.socket_acks``; ``await slack.close_sockets()`` drops
  every connection from the server side; ``slack.hold_sockets()`` keeps new connections waiting
  (Slack unreachable) until ``slack.release_sockets()``.

`SlackSender` sends requests to the app exactly as Slack does: form-encoded slash commands, JSON
event callbacks, ``payload=`` form-encoded interactivity, each signed with the signing secret.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn
from urllib.parse import urlencode

import aiohttp
from aiohttp import web
from slack_sdk.signature import SignatureVerifier

from tests.conftest import eventually

TEAM_ID = "T0FAKE"
OTHER_TEAM_ID = "T0OTHER"
APP_ID = "A0SAKUIN"
BOT_USER_ID = "U0SAKUIN"
BOT_ID = "B0SAKUIN"
USER_ID = "U0ALICE"
CHANNEL_ID = "C0GENERAL"
DM_CHANNEL_ID = "D0ALICE"
HANG = -1
STREAM_METHODS = ("chat.startStream", "chat.appendStream", "chat.stopStream")
MAX_STREAM_TEXT = 12_000
"""Slack's limit on the ``markdown_text`` of one stream call."""
"""The status of a `FakeSlack.hang` fault: no answer until ``release``."""


@dataclass(frozen=True)
class Call:
    """One Web API call as the fake received it, and the HTTP status it answered (0: dropped)."""

    method: str
    args: dict[str, Any]
    token: str | None
    status: int
    at: float


@dataclass(frozen=True)
class ResponsePost:
    name: str
    body: dict[str, Any]
    at: float


@dataclass
class _Fault:
    status: int
    retry_after: int | None
    times: int


@dataclass
class FakeSlack:
    host: str = "127.0.0.1"
    calls: list[Call] = field(default_factory=list)
    responses: list[ResponsePost] = field(default_factory=list)
    socket_acks: list[dict[str, Any]] = field(default_factory=list)
    socket_connections: int = 0
    granted_scopes: tuple[str, ...] | None = None
    channel_info: dict[str, dict[str, Any]] = field(default_factory=dict)
    latency: float = 0.0
    """Seconds every Web API call takes (0: none), for benchmarks that want Slack's round trip."""
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    threads: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._faults: dict[str, list[_Fault]] = {}
        self._answers: dict[str, dict[str, Any]] = {}
        self._ts = itertools.count(1)
        self._messages: dict[str, dict[str, Any]] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._sockets_open = asyncio.Event()
        self._sockets_open.set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.channels: dict[str, list[dict[str, Any]]] = {}
        self._lose = 0
        self._lost: dict[str, int] = {}
        self._hold: int | None = None
        self._drop: int | None = None
        self._posts = 0
        self._last_ts = 0.0
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> FakeSlack:
        app = web.Application(middlewares=[self._scopes_header])
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/response/{name}", self._response)
        app.router.add_get("/link", self._socket)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        self.release.set()
        self._sockets_open.set()
        await self.close_sockets()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeSlack:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    @property
    def socket_url(self) -> str:
        return f"ws://{self.host}:{self.port}/link"

    def response_url(self, name: str = "response") -> str:
        return f"{self.base_url}/response/{name}"

    # -- configuring answers --------------------------------------------------------------

    def fail(self, method: str, *, status: int = 429, retry_after: int | None = 1, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` with ``status`` (429 carries ``Retry-After``)."""
        self._faults.setdefault(method, []).append(_Fault(status, retry_after, times))

    def drop(self, method: str, *, times: int = 1) -> None:
        """Close the connection of the next ``times`` calls of ``method`` without answering."""
        self._faults.setdefault(method, []).append(_Fault(0, None, times))

    def hang(self, method: str, *, times: int = 1) -> None:
        """Keep the next ``times`` calls of ``method`` waiting until ``release`` is set (Slack hangs)."""
        self._faults.setdefault(method, []).append(_Fault(HANG, None, times))

    def answer(self, method: str, body: dict[str, Any]) -> None:
        self._answers[method] = body

    def lose(self, method: str, *, times: int = 1) -> None:
        """Apply the next ``times`` calls of ``method``, then drop their connections before answering."""
        self._lost[method] = self._lost.get(method, 0) + times

    def lose_answer(self, times: int = 1) -> None:
        """Store the next ``times`` posts, then drop their connections before answering."""
        self._lose += times

    def hold_post(self, number: int) -> None:
        """Store the ``number``-th post (1-based) but answer it only after ``release`` is set."""
        self._hold = number

    def drop_post(self, number: int) -> None:
        """Drop the connection of the ``number``-th post request (1-based) before storing it."""
        self._drop = number

    def hold_sockets(self) -> None:
        """Slack is unreachable: new Socket Mode connections wait until `release_sockets`."""
        self._sockets_open.clear()

    def release_sockets(self) -> None:
        self._sockets_open.set()

    # -- reading what happened ------------------------------------------------------------

    def calls_to(self, method: str, *, answered: bool = True) -> list[Call]:
        """Calls of ``method``; by default only those answered with 200 (not the injected failures)."""
        return [c for c in self.calls if c.method == method and (not answered or c.status == 200)]

    def message(self, ts: str) -> dict[str, Any]:
        """The message posted as ``ts`` as it stands now: as posted, then as updated."""
        return self._messages[ts]

    def responses_to(self, name: str) -> list[ResponsePost]:
        return [post for post in self.responses if post.name == name]

    def messages(self, channel: str) -> list[dict[str, Any]]:
        """What the channel holds, oldest first (as posted, with metadata)."""
        return self.channels.get(channel, [])

    def parts(self, channel: str) -> list[tuple[str, int]]:
        """(day, part) of each digest message in the channel, from its metadata."""
        return [
            (m["metadata"]["event_payload"]["day"], m["metadata"]["event_payload"]["part"])
            for m in self.messages(channel)
        ]

    async def wait_for_calls(self, method: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        await eventually(
            lambda: len(self.calls_to(method)) >= count, timeout=timeout, what=f"{count} x {method}"
        )
        return self.calls_to(method)

    async def wait_for_responses(
        self, name: str, count: int = 1, timeout: float = 10.0
    ) -> list[ResponsePost]:
        await eventually(
            lambda: len(self.responses_to(name)) >= count, timeout=timeout, what=f"{count} posts to {name}"
        )
        return self.responses_to(name)

    async def wait_for_ack(self, envelope_id: str, timeout: float = 10.0) -> dict[str, Any]:
        def acked() -> bool:
            return any(ack.get("envelope_id") == envelope_id for ack in self.socket_acks)

        await eventually(acked, timeout=timeout, what=f"ack of {envelope_id}")
        return next(ack for ack in self.socket_acks if ack.get("envelope_id") == envelope_id)

    async def wait_for_sockets(self, count: int = 1, timeout: float = 10.0) -> None:
        await eventually(
            lambda: self.socket_connections >= count, timeout=timeout, what=f"{count} connections"
        )

    # -- Socket Mode ----------------------------------------------------------------------

    async def push(self, kind: str, payload: dict[str, Any], *, retry_attempt: int = 0) -> str:
        """Send an envelope (``events_api``, ``slash_commands``, ``interactive``) to the newest connection."""
        open_sockets = [ws for ws in self._sockets if not ws.closed]
        if not open_sockets:
            raise AssertionError("no Socket Mode connection is open")
        envelope_id = str(uuid.uuid4())
        envelope = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != "events_api",
            "retry_attempt": retry_attempt,
            "retry_reason": "timeout" if retry_attempt else "",
        }
        await open_sockets[-1].send_str(json.dumps(envelope))
        return envelope_id

    async def close_sockets(self) -> None:
        for ws in list(self._sockets):
            if not ws.closed:
                await ws.close()

    # -- handlers -------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        args = await _read_args(request)
        if self.latency:
            await asyncio.sleep(self.latency)
        token = _bearer(request) or args.get("token")
        if method == "chat.postMessage":
            self._posts += 1
            if self._posts == self._drop:
                self.calls.append(Call(method, args, token, 0, time.monotonic()))
                _abort(request)
        fault = self._next_fault(method)
        if fault is not None and fault.status == HANG:
            await self.release.wait()
            fault = None
        status = fault.status if fault else 200
        self.calls.append(Call(method, args, token, status, time.monotonic()))
        if fault is not None and fault.status == 0:
            _abort(request)
        if fault is not None:
            headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            error = "ratelimited" if fault.status == 429 else "fatal_error"
            return web.json_response({"ok": False, "error": error}, status=fault.status, headers=headers)
        stored = sum(len(messages) for messages in self.channels.values())
        response = web.json_response(self._answer(method, args, token))
        if self._lost.get(method):
            self._lost[method] -= 1
            _abort(request)
        if method == "chat.postMessage" and sum(len(m) for m in self.channels.values()) > stored:
            if self._lose:
                self._lose -= 1
                _abort(request)
            if self._hold == stored + 1:
                self.held.set()
                await self.release.wait()
        return response

    def _next_fault(self, method: str) -> _Fault | None:
        queue = self._faults.get(method)
        if not queue:
            return None
        fault = queue[0]
        fault.times -= 1
        if fault.times <= 0:
            queue.pop(0)
        return fault

    def _answer(self, method: str, args: dict[str, Any], token: str | None) -> dict[str, Any]:
        if method in self._answers:
            return self._answers[method]
        if method == "conversations.info":
            return self._conversation_info(args)
        if method == "auth.test":
            if not token or not token.startswith("xoxb-"):
                return {"ok": False, "error": "invalid_auth"}
            return {
                "ok": True,
                "url": "https://fake.slack.com/",
                "team": "Fake",
                "user": "sakuin",
                "team_id": TEAM_ID,
                "user_id": BOT_USER_ID,
                "bot_id": BOT_ID,
                "is_enterprise_install": False,
            }
        if method == "apps.connections.open":
            if not token or not token.startswith("xapp-"):
                return {"ok": False, "error": "invalid_auth"}
            return {"ok": True, "url": self.socket_url}
        if method == "chat.postMessage":
            return self._store(args)
        if method == "chat.update":
            if args.get("ts") not in self._messages:
                return {"ok": False, "error": "message_not_found"}
            self._messages[args["ts"]].update(args)
            return {"ok": True, "channel": args.get("channel"), "ts": args["ts"], "text": args.get("text")}
        if method in STREAM_METHODS:
            return self._stream(method, args)
        if method == "conversations.history":
            return self._history(args)
        if method == "conversations.replies":
            return self._replies(args)
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": f"{1700000000 + next(self._ts)}.000200"}
        if method == "chat.getPermalink":
            ts = str(args.get("message_ts") or "")
            link = f"https://fake.slack.com/archives/{args.get('channel')}/p{ts.replace('.', '')}"
            return {"ok": True, "channel": args.get("channel"), "permalink": link}
        if method == "users.info":
            user = str(args.get("user") or "")
            return {"ok": True, "user": {"id": user, **self.users.get(user, {})}}
        if method == "conversations.replies":
            return self._replies(args)
        if method == "views.publish":
            return {"ok": True, "view": {"id": "V0HOME", **(args.get("view") or {})}}
        return {"ok": True}

    def _store(self, args: dict[str, Any]) -> dict[str, Any]:
        self._last_ts = max(time.time(), self._last_ts + 0.000001)
        message = {
            "type": "message",
            "ts": f"{self._last_ts:.6f}",
            "bot_id": BOT_ID,
            "text": args.get("text"),
            "blocks": args.get("blocks"),
            "metadata": args.get("metadata"),
        }
        self.channels.setdefault(args["channel"], []).append(message)
        self._messages[message["ts"]] = message
        return {"ok": True, "channel": args["channel"], "ts": message["ts"], "message": message}

    def _stream(self, method: str, args: dict[str, Any]) -> dict[str, Any]:
        """``chat.startStream``, ``chat.appendStream`` and ``chat.stopStream``, checked as Slack's
        reference pages describe their arguments."""
        channel = args.get("channel")
        text = _stream_text(args)
        if not channel or (text is not None and len(text) > MAX_STREAM_TEXT):
            return {"ok": False, "error": "invalid_arguments"}
        if method == "chat.startStream":
            recipient = args.get("recipient_team_id") and args.get("recipient_user_id")
            if not channel.startswith("D") and not recipient:
                return {"ok": False, "error": "invalid_arguments"}
            stored = self._store({"channel": channel, "text": text or ""})
            message = self._messages[stored["ts"]]
            message.update(thread_ts=args.get("thread_ts"), streaming=True, blocks=None)
            return {"ok": True, "channel": channel, "ts": stored["ts"]}
        if not args.get("ts") or (method == "chat.appendStream" and not text):
            return {"ok": False, "error": "invalid_arguments"}
        message = self._messages.get(args["ts"])
        if message is None:
            return {"ok": False, "error": "message_not_found"}
        if not message.get("streaming"):
            return {"ok": False, "error": "message_not_in_streaming_state"}
        message["text"] += text or ""
        if method == "chat.stopStream":
            message["streaming"] = False
            message["blocks"] = [{"type": "markdown", "text": message["text"]}, *(args.get("blocks") or [])]
            message["metadata"] = args.get("metadata")
        return {"ok": True, "channel": channel, "ts": args["ts"]}

    def _history(self, args: dict[str, Any]) -> dict[str, Any]:
        with_metadata = str(args.get("include_all_metadata")).lower() in ("1", "true")
        newest_first = [
            m
            for m in reversed(self.messages(args["channel"]))
            if _in_range(m, args) and (m.get("thread_ts") in (None, m["ts"]) or m.get("subtype"))
        ]
        start = int(args.get("cursor") or 0)
        limit = int(args.get("limit") or 100)
        page = [
            {key: value for key, value in m.items() if with_metadata or key != "metadata"}
            for m in newest_first[start : start + limit]
        ]
        more = start + limit < len(newest_first)
        return {
            "ok": True,
            "messages": page,
            "has_more": more,
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    def _replies(self, args: dict[str, Any]) -> dict[str, Any]:
        """A thread, its parent first, whichever of its messages ``ts`` names; the time range
        applies to the replies (as Slack's ``oldest``/``latest``/``inclusive``). A thread a test
        set in ``threads`` is returned as it is."""
        given = self.threads.get((str(args.get("channel")), str(args.get("ts"))))
        if given is not None:
            return {"ok": True, "messages": given, "has_more": False}
        messages = self.messages(args["channel"])
        named = next((m for m in messages if m["ts"] == args.get("ts")), None)
        if named is None:
            return {"ok": False, "error": "thread_not_found"}
        parent_ts = named.get("thread_ts") or named["ts"]
        parent = next(m for m in messages if m["ts"] == parent_ts)
        replies = [m for m in messages if m.get("thread_ts") == parent_ts and m["ts"] != parent_ts]
        thread = [parent, *(m for m in replies if _in_range(m, args))]
        return {"ok": True, "messages": thread[: int(args.get("limit") or 1000)], "has_more": False}

    def user_message(
        self, text: str, ts: str, *, channel: str = CHANNEL_ID, user: str = USER_ID, **fields: Any
    ) -> dict[str, Any]:
        """A message a person posted (``thread_ts`` in ``fields`` for a thread reply), stored for
        ``conversations.history`` and ``conversations.replies`` to return; returns its event."""
        message = {"type": "message", "user": user, "text": text, "ts": ts, **fields}
        self.channels.setdefault(channel, []).append(message)
        self.channels[channel].sort(key=lambda m: float(m["ts"]))
        return {**message, "channel": channel, "channel_type": "channel", "event_ts": ts}

    @web.middleware
    async def _scopes_header(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response = await handler(request)
        if request.match_info.get("method") == "auth.test" and self.granted_scopes is not None:
            response.headers["x-oauth-scopes"] = ",".join(self.granted_scopes)
        return response

    def _conversation_info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = args.get("channel")
        if channel not in self.channel_info:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": {"id": channel, "is_channel": True, **self.channel_info[channel]}}

    async def _response(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        fault = self._next_fault(f"response:{name}")
        if fault is not None and fault.status == 0:
            _abort(request)
        if fault is not None:
            return web.Response(status=fault.status, text="failed")
        body = await request.json()
        self.responses.append(ResponsePost(name, body, time.monotonic()))
        return web.Response(text="ok")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        await self._sockets_open.wait()
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        self.socket_connections += 1
        await ws.send_str(
            json.dumps({"type": "hello", "num_connections": 1, "connection_info": {"app_id": APP_ID}})
        )
        async for message in ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.socket_acks.append(json.loads(message.data))
        return ws


@dataclass(frozen=True)
class Sent:
    """The app's answer to one request: HTTP status, body, and how long it took."""

    status: int
    text: str
    seconds: float

    def json(self) -> Any:
        return json.loads(self.text)


class SlackSender:
    """Sends signed requests to the app's ``/slack/events`` exactly as Slack does."""

    def __init__(self, url: str, signing_secret: str, *, team_id: str = TEAM_ID) -> None:
        self.url = url
        self.verifier = SignatureVerifier(signing_secret)
        self.team_id = team_id
        self._session: aiohttp.ClientSession | None = None
        self._event_ids = itertools.count(1)

    async def __aenter__(self) -> SlackSender:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def post(
        self,
        body: str,
        content_type: str,
        *,
        timestamp: int | None = None,
        signature: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Sent:
        """POST ``body`` signed for ``timestamp`` (now by default); ``signature`` overrides the signature."""
        assert self._session is not None, "use `async with SlackSender(...)`"
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        sent_headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": stamp,
            "X-Slack-Signature": signature or self.verifier.generate_signature(timestamp=stamp, body=body),
            **(headers or {}),
        }
        started = time.monotonic()
        async with self._session.post(self.url, data=body.encode("utf-8"), headers=sent_headers) as response:
            text = await response.text()
            return Sent(response.status, text, time.monotonic() - started)

    async def command(
        self,
        command: str,
        text: str,
        *,
        response_url: str,
        user_id: str = USER_ID,
        channel_id: str = CHANNEL_ID,
        team_id: str | None = None,
    ) -> Sent:
        form = {
            "token": "legacy-verification-token",
            "team_id": team_id or self.team_id,
            "team_domain": "fake",
            "channel_id": channel_id,
            "channel_name": "general",
            "user_id": user_id,
            "user_name": "alice",
            "command": command,
            "text": text,
            "api_app_id": APP_ID,
            "is_enterprise_install": "false",
            "response_url": response_url,
            "trigger_id": f"{next(self._event_ids)}.1.trigger",
        }
        return await self.post(urlencode(form), "application/x-www-form-urlencoded")

    def event_body(
        self, event: dict[str, Any], *, event_id: str | None = None, team_id: str | None = None
    ) -> dict:
        team = team_id or self.team_id
        return {
            "token": "legacy-verification-token",
            "team_id": team,
            "api_app_id": APP_ID,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or f"Ev{next(self._event_ids):08d}",
            "event_time": int(time.time()),
            "authorizations": [
                {"enterprise_id": None, "team_id": team, "user_id": BOT_USER_ID, "is_bot": True}
            ],
            "is_ext_shared_channel": False,
        }

    async def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        team_id: str | None = None,
    ) -> Sent:
        """An Events API callback; ``retry_num`` adds the retry headers Slack sends (same ``event_id``)."""
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        body = json.dumps(self.event_body(event, event_id=event_id, team_id=team_id))
        return await self.post(body, "application/json", headers=headers)

    async def interaction(self, payload: dict[str, Any]) -> Sent:
        return await self.post(
            urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded"
        )

    async def click(
        self,
        blocks: list[dict[str, Any]],
        action_id: str,
        *,
        response_url: str,
        option_index: int = 0,
        ephemeral: bool = True,
        channel_id: str = CHANNEL_ID,
        user_id: str = USER_ID,
        team_id: str | None = None,
    ) -> Sent:
        """Click the element ``action_id`` of a message the app sent (a select picks ``option_index``).

        Like Slack, the payload of an ephemeral message carries no ``message``.
        """
        block, element = find_element(blocks, action_id)
        action: dict[str, Any] = {
            "type": element["type"],
            "action_id": action_id,
            "block_id": block.get("block_id", "b"),
            "action_ts": f"{time.time():.6f}",
        }
        if element["type"] == "static_select":
            action["selected_option"] = element["options"][option_index]
        else:
            action["value"] = element.get("value", "")
            action["text"] = element["text"]
        team = team_id or self.team_id
        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": {"id": user_id, "username": "alice", "team_id": team},
            "api_app_id": APP_ID,
            "token": "legacy-verification-token",
            "container": {
                "type": "message",
                "message_ts": "1700000000.000100",
                "channel_id": channel_id,
                "is_ephemeral": ephemeral,
            },
            "trigger_id": f"{next(self._event_ids)}.1.trigger",
            "team": {"id": team, "domain": "fake"},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": channel_id, "name": "general"},
            "state": {"values": {}},
            "response_url": response_url,
            "actions": [action],
        }
        if not ephemeral:
            payload["message"] = {"type": "message", "ts": "1700000000.000100", "blocks": blocks}
        return await self.interaction(payload)


def mention_event(text: str, ts: str = "1700000100.000100", **fields: Any) -> dict[str, Any]:
    """An ``app_mention`` event as Slack sends it, from the test user in the test channel."""
    return {
        "type": "app_mention",
        "user": USER_ID,
        "text": f"<@{BOT_USER_ID}> {text}",
        "ts": ts,
        "channel": CHANNEL_ID,
        "event_ts": ts,
        **fields,
    }


def direct_message(text: str, ts: str = "1700000200.000100", **fields: Any) -> dict[str, Any]:
    """A ``message`` event in the test user's DM with the bot, as Slack sends it."""
    return {
        "type": "message",
        "channel_type": "im",
        "user": USER_ID,
        "text": text,
        "ts": ts,
        "channel": DM_CHANNEL_ID,
        "event_ts": ts,
        **fields,
    }


def elements(blocks: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every interactive element of a message with its block: action rows and section accessories."""
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            yield block, element
        if block.get("type") == "section" and "accessory" in block:
            yield block, block["accessory"]


def find_element(blocks: list[dict[str, Any]], action_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for block, element in elements(blocks):
        if element.get("action_id") == action_id:
            return block, element
    raise AssertionError(f"no element {action_id!r} in the message")


def _in_range(message: dict[str, Any], args: dict[str, Any]) -> bool:
    """Within ``oldest`` … ``latest`` of a history call (the ends only when ``inclusive``)."""
    ts = float(message["ts"])
    inclusive = str(args.get("inclusive")).lower() in ("1", "true")
    oldest, latest = float(args.get("oldest") or 0), float(args.get("latest") or "inf")
    return (oldest <= ts <= latest) if inclusive else (oldest < ts < latest)


def _abort(request: web.Request) -> NoReturn:
    """Drop the connection without an answer, as a network failure would."""
    assert request.transport is not None
    request.transport.abort()
    raise asyncio.CancelledError


async def _read_args(request: web.Request) -> dict[str, Any]:
    if request.method == "GET":
        return dict(request.query)
    if request.content_type == "application/json":
        return await request.json()
    form = await request.post()
    args: dict[str, Any] = {}
    for key, value in form.items():
        text = value if isinstance(value, str) else str(value)
        json_keys = ("blocks", "view", "unfurls", "attachments", "chunks", "metadata")
        args[key] = _maybe_json(text) if key in json_keys else text
    return args


def _stream_text(args: dict[str, Any]) -> str | None:
    """The text a stream call adds: its ``markdown_text`` and its ``markdown_text`` chunks."""
    chunks = [c.get("text", "") for c in args.get("chunks") or [] if c.get("type") == "markdown_text"]
    if args.get("markdown_text") is None and not chunks:
        return None
    return (args.get("markdown_text") or "") + "".join(chunks)


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    return header.removeprefix("Bearer ").strip() or None


# -- conversations: thread messages, feedback votes, the assistant pane (issue 11) ---------


def thread_message_event(
    text: str, thread_ts: str, ts: str, *, user: str = USER_ID, channel: str = CHANNEL_ID, **fields: Any
) -> dict[str, Any]:
    """A ``message`` event in a channel thread (``message.channels``), from the test user by default."""
    return {
        "type": "message",
        "channel_type": "channel",
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel": channel,
        "event_ts": ts,
        **fields,
    }


def vote_payload(blocks: list[dict[str, Any]], vote: str, *, message_ts: str, **where: str) -> dict[str, Any]:
    """The ``block_actions`` payload of a click on the 👍 (``up``) or 👎 (``down``) of a posted answer."""
    block = next(b for b in blocks if b.get("type") == "context_actions")
    element = next(e for e in block["elements"] if e.get("type") == "feedback_buttons")
    button = element["positive_button" if vote == "up" else "negative_button"]
    action = {"type": "feedback_buttons", "action_id": element["action_id"], "value": button["value"]}
    return message_action_payload(blocks, block, action, message_ts=message_ts, **where)


def button_payload(
    blocks: list[dict[str, Any]], action_id: str, *, message_ts: str, **where: str
) -> dict[str, Any]:
    """The payload of a click on the button ``action_id`` of the public message ``message_ts``."""
    block, element = find_element(blocks, action_id)
    action = {"type": "button", "action_id": action_id, "value": element.get("value", "")}
    return message_action_payload(blocks, block, action, message_ts=message_ts, **where)


def message_action_payload(
    blocks: list[dict[str, Any]],
    block: dict[str, Any],
    action: dict[str, Any],
    *,
    message_ts: str,
    channel_id: str = CHANNEL_ID,
    user_id: str = USER_ID,
    team_id: str = TEAM_ID,
) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "user": {"id": user_id, "username": "alice", "team_id": team_id},
        "api_app_id": APP_ID,
        "token": "legacy-verification-token",
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel_id,
            "is_ephemeral": False,
        },
        "trigger_id": "1.1.trigger",
        "team": {"id": team_id, "domain": "fake"},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": channel_id, "name": "general"},
        "message": {"type": "message", "ts": message_ts, "blocks": blocks},
        "state": {"values": {}},
        "actions": [{**action, "block_id": block.get("block_id", "b"), "action_ts": f"{time.time():.6f}"}],
    }


def posted_ts(slack: FakeSlack, call: Call) -> str:
    """The ``ts`` the fake gave the message that ``call`` (a ``chat.postMessage``) posted."""
    blocks = call.args.get("blocks")
    return next(ts for ts, message in slack._messages.items() if message.get("blocks") == blocks)


def assistant_thread_started_event(
    thread_ts: str, *, channel: str = DM_CHANNEL_ID, user: str = USER_ID
) -> dict[str, Any]:
    """The user opened a new thread in the assistant pane (viewing the test channel)."""
    return {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": user,
            "context": {"channel_id": CHANNEL_ID, "team_id": TEAM_ID, "enterprise_id": None},
            "channel_id": channel,
            "thread_ts": thread_ts,
        },
        "event_ts": thread_ts,
    }


def assistant_message_event(
    text: str, thread_ts: str, ts: str, *, channel: str = DM_CHANNEL_ID, user: str = USER_ID
) -> dict[str, Any]:
    """A message the user typed in an assistant thread (``message.im`` with a ``thread_ts``)."""
    return {
        "type": "message",
        "channel_type": "im",
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel": channel,
        "event_ts": ts,
    }


# -- the wiki's inbox (issue 25) ------------------------------------------------------------------


def message_shortcut_payload(
    callback_id: str,
    message: dict[str, Any],
    *,
    response_url: str,
    channel_id: str = CHANNEL_ID,
    user_id: str = USER_ID,
    team_id: str = TEAM_ID,
) -> dict[str, Any]:
    """A message shortcut used on ``message``, as Slack sends it (``message_action``)."""
    return {
        "type": "message_action",
        "callback_id": callback_id,
        "trigger_id": "1.1.trigger",
        "action_ts": f"{time.time():.6f}",
        "team": {"id": team_id, "domain": "fake"},
        "user": {"id": user_id, "username": "alice", "team_id": team_id, "name": "alice"},
        "channel": {"id": channel_id, "name": "general"},
        "is_enterprise_install": False,
        "enterprise": None,
        "api_app_id": APP_ID,
        "token": "legacy-verification-token",
        "message_ts": message["ts"],
        "message": message,
        "response_url": response_url,
    }
