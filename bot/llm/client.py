"""The model's answer, from any OpenAI-compatible server, through the official ``openai`` SDK.

`write_answer` sends the question and the passages (`bot.llm.grounding.chat_messages`), reads the
answer (streamed when the caller wants drafts, in one piece otherwise) and returns what survives
`bot.llm.grounding.ground`, or None. None covers every way it can fail, each with one log line and
nothing for the user to see: ``LLM_TIMEOUT`` passed (for the whole answer, retries included), a
429 (the SDK waits its ``Retry-After`` and retries, within that time), a 5xx, a refused key, a
server that is down, a malformed or cut stream, an answer with no valid citation. The key is never
logged, nor is the body of an error the server sends back.

The SDK reads ``OPENAI_*`` environment variables for whatever it is not given; everything is given
here (or explicitly left out of the request), so the environment never changes what is sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import language_for_question
from bot.llm.grounding import Grounding, NumberedPassage, chat_messages, ground
from config.settings import Settings

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

MAX_RETRIES = 2
"""Retries of a 429, 5xx or dropped connection (the SDK's own backoff, ``Retry-After`` honoured)."""
NO_KEY = "no-key"
"""The SDK insists on a key; with no ``LLM_API_KEY`` the Authorization header is left out instead."""
LEFT_OUT_HEADERS = (
    "OpenAI-Organization",
    "OpenAI-Project",
    "X-Stainless-OS",
    "X-Stainless-Arch",
    "X-Stainless-Runtime",
    "X-Stainless-Runtime-Version",
)
"""Headers the SDK would add from the environment or the platform: none of the server's business."""

OnDraft = Callable[[Grounding], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class WrittenAnswer:
    """The model's answer as checked: its kept sentences, the passages it was given, the model."""

    model: str
    grounding: Grounding
    passages: tuple[NumberedPassage, ...]


class ModelAnswerFailed(Exception):
    """The server answered, but not with a whole answer (cut stream, refusal, empty choices)."""


def model_configured(settings: Settings) -> bool:
    return settings.llm_base_url is not None and settings.llm_model is not None


async def write_answer(
    settings: Settings,
    question: str,
    passages: tuple[NumberedPassage, ...],
    *,
    on_draft: OnDraft | None = None,
) -> WrittenAnswer | None:
    """The model's grounded answer to ``question`` from ``passages``, or None (logged) on any failure.

    With ``on_draft`` the answer is streamed and ``on_draft`` is awaited with the checked complete
    sentences so far each time more text arrives; without it the answer comes in one response.
    """
    if not model_configured(settings) or not passages:
        return None
    import openai  # here, not at the top: the SDK is a third of the serving process without a model

    assert settings.llm_model is not None
    messages = chat_messages(question, passages, language_for_question(question, settings.ui_language))
    try:
        async with asyncio.timeout(settings.llm_timeout), model_client(settings) as client:
            request = _Request(client, settings.llm_model, messages, model_headers(settings), passages)
            answer, complete = await (request.stream(on_draft) if on_draft else request.complete())
    except TimeoutError:
        log.warning(
            "model answer took longer than LLM_TIMEOUT (%s s): the extractive answer stands",
            settings.llm_timeout,
        )
        return None
    except openai.APIStatusError as error:
        log.warning(
            "model server answered HTTP %s (%s): the extractive answer stands",
            error.status_code,
            type(error).__name__,
        )
        return None
    except Exception as error:  # anything the server or the stream can do wrong ends the same way
        log.warning(
            "model answer failed (%s: %s): the extractive answer stands",
            type(error).__name__,
            error,
            exc_info=log.isEnabledFor(logging.DEBUG),
        )
        return None
    grounding = ground(answer, passages, complete=complete)
    if grounding.unknown or grounding.dropped or grounding.unsourced:
        log.info(
            "model answer: %s sentences dropped for citing no passage sent, %s for a link in no"
            " passage sent; unknown citations %s",
            grounding.dropped,
            grounding.unsourced,
            list(grounding.unknown),
        )
    if not grounding.sentences:
        log.warning(
            "model answer discarded: no sentence cites a passage that was sent without a link from"
            " elsewhere (%s chars, %s sentences): the extractive answer stands",
            len(answer),
            grounding.dropped + grounding.unsourced,
        )
        return None
    return WrittenAnswer(settings.llm_model, grounding, passages)


@dataclass(frozen=True)
class _Request:
    client: openai.AsyncOpenAI
    model: str
    messages: list[dict[str, str]]
    headers: dict[str, object]
    passages: tuple[NumberedPassage, ...]

    async def complete(self) -> tuple[str, bool]:
        """One response: the answer's text, and whether it ended (not cut by the token limit)."""
        response = await self.client.chat.completions.create(
            model=self.model,
            messages=self.messages,
            extra_headers=self.headers,  # type: ignore[arg-type]
        )
        if not response.choices:
            raise ModelAnswerFailed("the response holds no answer")
        choice = response.choices[0]
        return choice.message.content or "", _ended(choice.finish_reason)

    async def stream(self, on_draft: OnDraft) -> tuple[str, bool]:
        """Server-sent events, parsed by the SDK; drafts go out as sentences complete."""
        stream = await self.client.chat.completions.create(
            model=self.model,
            messages=self.messages,
            extra_headers=self.headers,
            stream=True,  # type: ignore[arg-type]
        )
        text, finish = "", None
        async with stream:
            async for chunk in stream:
                for choice in chunk.choices:
                    if choice.index != 0:
                        continue
                    if choice.delta is not None and choice.delta.content:
                        text += choice.delta.content
                        await on_draft(ground(text, self.passages, complete=False))
                    finish = choice.finish_reason or finish
        return text, _ended(finish)


def _ended(finish_reason: str | None) -> bool:
    """True for a whole answer, False for one cut by the token limit; anything else is a failure."""
    if finish_reason == "stop":
        return True
    if finish_reason == "length":
        return False
    raise ModelAnswerFailed(
        "the stream ended before the answer did"
        if finish_reason is None
        else f"finish_reason {finish_reason}"
    )


def model_client(settings: Settings, *, max_retries: int = MAX_RETRIES) -> openai.AsyncOpenAI:
    """The SDK's client for ``LLM_BASE_URL``; every request it sends carries `model_headers`."""
    import openai

    return openai.AsyncOpenAI(
        base_url=settings.llm_base_url,
        api_key=_key(settings) or NO_KEY,
        timeout=settings.llm_timeout,
        max_retries=max_retries,
    )


def model_headers(settings: Settings) -> dict[str, object]:
    """The ``extra_headers`` of every request: `LEFT_OUT_HEADERS` omitted, and Authorization too
    when there is no key."""
    import openai

    headers: dict[str, object] = {name: openai.Omit() for name in LEFT_OUT_HEADERS}
    if not _key(settings):
        headers["Authorization"] = openai.Omit()
    return headers


def _key(settings: Settings) -> str:
    return settings.llm_api_key.get_secret_value().strip() if settings.llm_api_key else ""
