"""What /palette answers, in the caller's language (issue #38, item 8)."""

from __future__ import annotations

from bot.i18n import Message, Voice


def _name(palette: str) -> Message:
    return Message("palette-name", palette=palette)


def palette_chosen(palette: str, say: Voice, *, server: bool = False) -> str:
    """The palette just chosen, for the caller's boards or (``server``) the channels'."""
    return say(
        "palette-server-chosen" if server else "palette-own-chosen",
        palette=_name(palette),
        about=Message("palette-about", palette=palette),
    )


def palettes_shown(own: str, server: str | None, say: Voice) -> str:
    """The caller's palette and (in a server) the server's."""
    if server is None:
        return say("palette-shown-dm", own=_name(own))
    return say("palette-shown", own=_name(own), server=_name(server))
