"""`AsyncStateStore`'s methods for the wiki's inbox and page watches (bot/state/requests.py,
bot/state/watches.py): each the store's own, run on the store's threads and awaited."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.state.requests import InboxRequest, NewRequest
from bot.state.watches import PageWatch

T = TypeVar("T")


class AsyncInboxCalls:
    store: Any

    async def _call(self, method: Callable[..., T], /, *args: object, **kwargs: object) -> T:
        raise NotImplementedError

    async def add_request(self, request: NewRequest) -> tuple[InboxRequest, bool]:
        return await self._call(self.store.add_request, request)

    async def inbox_request(self, request_id: str) -> InboxRequest | None:
        return await self._call(self.store.inbox_request, request_id)

    async def inbox_requests(self, status: str | None = None) -> tuple[InboxRequest, ...]:
        return await self._call(self.store.inbox_requests, status)

    async def claim_deliveries(self, owner: str, lease_s: float, limit: int = 50) -> tuple[InboxRequest, ...]:
        return await self._call(self.store.claim_deliveries, owner, lease_s, limit)

    async def record_delivery(self, request_id: str, owner: str, content: str) -> None:
        await self._call(self.store.record_delivery, request_id, owner, content)

    async def fail_delivery(self, request_id: str, owner: str, error: str, retry_in_s: float) -> None:
        await self._call(self.store.fail_delivery, request_id, owner, error, retry_in_s)

    async def next_delivery_at(self) -> float | None:
        return await self._call(self.store.next_delivery_at)

    async def claim_answer(self, request_id: str, owner: str, lease_s: float) -> bool:
        return await self._call(self.store.claim_answer, request_id, owner, lease_s)

    async def mark_answered(self, request_id: str, owner: str, content: str) -> bool:
        return await self._call(self.store.mark_answered, request_id, owner, content)

    async def release_answer(self, request_id: str, owner: str) -> None:
        await self._call(self.store.release_answer, request_id, owner)

    async def expire_requests(self, asked_before: float) -> int:
        return await self._call(self.store.expire_requests, asked_before)

    async def watch_page(self, channel: str, path: str, title: str, snapshot: str) -> bool:
        return await self._call(self.store.watch_page, channel, path, title, snapshot)

    async def unwatch_page(self, channel: str, path: str) -> bool:
        return await self._call(self.store.unwatch_page, channel, path)

    async def page_watches(self, channel: str | None = None) -> tuple[PageWatch, ...]:
        return await self._call(self.store.page_watches, channel)

    async def note_page_changes(self, paths: Sequence[str]) -> int:
        return await self._call(self.store.note_page_changes, paths)

    async def claim_page_changes(
        self, owner: str, changed_before: float, lease_s: float
    ) -> tuple[PageWatch, ...]:
        return await self._call(self.store.claim_page_changes, owner, changed_before, lease_s)

    async def finish_page_change(
        self, watch: PageWatch, owner: str, *, path_now: str | None, title: str, snapshot: str
    ) -> None:
        await self._call(
            self.store.finish_page_change, watch, owner, path_now=path_now, title=title, snapshot=snapshot
        )

    async def release_page_change(self, watch: PageWatch, owner: str) -> None:
        await self._call(self.store.release_page_change, watch, owner)

    async def next_page_change(self) -> float | None:
        return await self._call(self.store.next_page_change)
