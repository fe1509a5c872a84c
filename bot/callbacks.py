"""Answering interactions without asking Discord for the message the answer made or changed.

discord.py sends every interaction response (``interaction.response.edit_message``,
``send_message``, ``autocomplete``, ``defer``…) through the webhook adapter it takes from
its ``async_context``, and asks Discord for the message each one made or changed
(``?with_response=1``), which it then parses into a :class:`discord.Message` the bot never
reads. Every click on a turn prompt pays that, the floor of ``benchmarks/discord_floor.py``
as much as the bot. :class:`Callbacks` sends the same JSON without the question: Discord
answers ``204 No Content`` and discord.py records the answer as given, as before.

Only an answer that posts a new message with components still asks: discord.py keeps the
message's view by the new message's id, which only Discord's answer carries. Files go
through discord.py's own multipart path too (none of the game's answers to a click carry
one).
"""

from __future__ import annotations

from typing import Any

import aiohttp
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

CHANNEL_MESSAGE = 4
"""Discord's callback type that posts a new message in answer."""
DEFERRED_CHANNEL_MESSAGE = 5
"""Discord's callback type that shows "thinking…" until a follow-up fills it in."""
EPHEMERAL = 1 << 6
"""The message flag of an answer only its caller sees."""


class Callbacks(AsyncWebhookAdapter):
    """discord.py's webhook adapter, whose interaction callbacks leave out ``with_response``
    where discord.py would not use what it brings back (see the module)."""

    async def create_interaction_response(
        self,
        interaction_id: int,
        token: str,
        *,
        session: aiohttp.ClientSession,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        params: MultipartParameters,
    ) -> Any:
        payload = params.payload
        if params.files or payload is None or needs_new_message_id(payload):
            return await super().create_interaction_response(
                interaction_id,
                token,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                params=params,
            )
        route = Route(
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction_id,
            webhook_token=token,
        )
        # discord.py's own request: its retries, its errors (NotFound for a late answer).
        await self.request(
            route, session=session, proxy=proxy, proxy_auth=proxy_auth, payload=payload
        )
        flags = int((payload.get("data") or {}).get("flags") or 0)
        return {  # what discord.py reads of Discord's answer, but the message
            "interaction": {
                "id": str(interaction_id),
                "response_message_loading": payload["type"] == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": {"type": payload["type"]},
        }


def needs_new_message_id(payload: dict[str, Any]) -> bool:
    """Whether discord.py needs Discord's answer to keep the view of the message this
    callback posts (by the message's id)."""
    return payload.get("type") == CHANNEL_MESSAGE and bool(
        (payload.get("data") or {}).get("components")
    )


def answer_lean() -> None:
    """From here on (in this task and in the tasks it starts: discord.py's gateway loop and
    every handler) interaction callbacks go through :class:`Callbacks`."""
    async_context.set(Callbacks())  # type: ignore[no-untyped-call]
