"""What the fake records: messages the bot posted and the life of each interaction it received.

Records are plain objects that tests assert on; the waiting helpers resolve as soon as the REST
handler that changes a record runs, so tests never poll or sleep.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .world import JSON

T = TypeVar("T")

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

PATIENCE = 15.0
"""How long a test waits for the bot before it fails: a passing test never waits this long, and a
2-core machine running the suite on every core (and CI beside it) needs more than a few
seconds now and then."""


class Waitlist:
    """Futures resolved when a condition over mutable state becomes true.

    ``check`` returns the awaited value, or None while the condition does not hold yet.
    """

    def __init__(self) -> None:
        self._entries: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []

    async def wait(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        value = check()
        if value is not None:
            return value
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        entry = (check, future)
        self._entries.append(entry)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None
        finally:
            if entry in self._entries:
                self._entries.remove(entry)

    def notify(self) -> None:
        for check, future in list(self._entries):
            if future.done():
                continue
            try:
                value = check()
            except Exception as exc:  # a failing predicate must fail the waiting test
                future.set_exception(exc)
            else:
                if value is not None:
                    future.set_result(value)


@dataclass(eq=False)
class AttachmentRecord:
    """A file the bot uploaded; ``data`` holds the exact bytes received."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self, url: str) -> JSON:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
            "description": self.description,
        }


@dataclass(eq=False)
class MessageRecord:
    """A message the bot posted (channel send, DM, interaction response or follow-up)."""

    id: int
    channel_id: int
    guild_id: int | None
    dm_user_id: int | None
    author_id: int
    created_at: str
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[AttachmentRecord] = field(default_factory=list)
    tts: bool = False
    interaction: InteractionRecord | None = None
    edited_at: str | None = None
    edits: int = 0
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    raw: JSON = field(default_factory=dict)

    @property
    def is_dm(self) -> bool:
        return self.dm_user_id is not None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking..." message nobody has filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for item in embed.get("fields", []):
                parts += [item.get("name", ""), item.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def iter_components(self) -> Iterator[JSON]:
        """Every component, depth first, through action rows, sections, containers and labels."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            yield component
            children = list(component.get("components", []))
            for key in ("accessory", "component"):
                if key in component:
                    children.append(component[key])
            stack.extend(reversed(children))

    def find_component(self, custom_id: str) -> JSON | None:
        for component in self.iter_components():
            if component.get("custom_id") == custom_id:
                return component
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def visible_to(self, user_id: int) -> bool:
        """Whether a user could see (and so click) this message."""
        if self.dm_user_id is not None and self.dm_user_id != user_id:
            return False
        return not (self.ephemeral and self.interaction and self.interaction.user_id != user_id)


@dataclass(eq=False)
class CallbackRecord:
    """The bot's answer to ``POST /interactions/{id}/{token}/callback``."""

    type: int
    data: JSON
    message: MessageRecord | None = None
    with_response: bool = False
    """Whether the bot asked for the message its answer made or changed (``?with_response``)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices", []))

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (type 9)."""
        return self.data if self.type == MODAL else None


@dataclass(eq=False)
class InteractionRecord:
    """One interaction sent to the bot, and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: JSON
    dispatched_at: float
    message: MessageRecord | None = None
    """For component and modal interactions: the message the user interacted with."""
    response: CallbackRecord | None = None
    original: MessageRecord | None = None
    """What ``@original`` points at: the response message, or the message a component is on."""
    followups: list[MessageRecord] = field(default_factory=list)
    settled: bool = False
    """True once the user sees a final answer (see :meth:`wait_done`)."""
    deliveries: int = 1
    """How many times the bot was sent this interaction (see :meth:`FakeDiscord.redeliver`)."""
    late_callbacks: list[JSON] = field(default_factory=list)
    """Callback bodies refused because the interaction was answered already (40060): what the
    other delivery of an interaction delivered twice tried to say."""
    _waitlist: Waitlist = field(default_factory=Waitlist, repr=False)

    @property
    def messages(self) -> list[MessageRecord]:
        """The response message (if any) then follow-ups, skipping deleted ones."""
        found = [] if self.original is None or self.original is self.message else [self.original]
        found += [m for m in self.followups if m is not self.original]
        return [m for m in found if not m.deleted]

    def changed(self) -> None:
        self._waitlist.notify()

    async def wait_for(
        self, predicate: Callable[[InteractionRecord], bool], timeout: float = PATIENCE
    ) -> InteractionRecord:
        """Wait until ``predicate(self)`` holds; rechecked on every change to this record."""
        return await self._waitlist.wait(
            lambda: self if predicate(self) else None, timeout, f"interaction {self.id}"
        )

    async def wait_response(self, timeout: float = PATIENCE) -> CallbackRecord:
        """The initial callback; for a defer, call :meth:`wait_done` to get the final text."""
        return await self._waitlist.wait(
            lambda: self.response, timeout, f"a response to interaction {self.id}"
        )

    async def wait_done(self, timeout: float = PATIENCE) -> MessageRecord:
        """The message this interaction finally produced or updated.

        Immediate answers settle at once; a defer settles on the first edit of ``@original``
        or the first follow-up, which is when the user stops seeing "thinking...".
        """

        def check() -> MessageRecord | None:
            if not self.settled:
                return None
            if self.original is None:
                kind = self.response.type if self.response else None
                raise ValueError(f"interaction {self.id} was answered without a message ({kind})")
            return self.original

        return await self._waitlist.wait(check, timeout, f"interaction {self.id} to settle")

    async def wait_late_callback(self, timeout: float = PATIENCE) -> JSON:
        """The first callback refused as a second answer (an interaction delivered twice)."""
        return await self._waitlist.wait(
            lambda: self.late_callbacks[0] if self.late_callbacks else None,
            timeout,
            f"a second answer to interaction {self.id}",
        )

    async def wait_followup(self, index: int = 0, timeout: float = PATIENCE) -> MessageRecord:
        """The ``index``-th follow-up (0-based)."""
        return await self._waitlist.wait(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"follow-up #{index} of interaction {self.id}",
        )
