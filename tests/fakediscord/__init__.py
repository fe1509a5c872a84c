"""A fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client runs against.

Typical use in a test::

    async def test_hello(fake_discord: FakeDiscord) -> None:
        bot = make_bot()  # a commands.Bot built with guild_ready_timeout=0.05
        async with fake_discord.running(bot):
            record = await fake_discord.slash(fake_discord.alice, "tournament create", {"name": "x"})
            response = await record.wait_response()
            assert response.ephemeral
"""

from .commands import ImpossibleInteraction
from .records import (
    AttachmentRecord,
    CallbackRecord,
    InteractionRecord,
    MessageRecord,
)
from .server import FakeDiscord, Installation, Rejection, Upload
from .world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

__all__ = [
    "AttachmentRecord",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "ImpossibleInteraction",
    "Installation",
    "InteractionRecord",
    "MessageRecord",
    "Rejection",
    "Upload",
]
