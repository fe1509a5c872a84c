"""A server's settings for tournaments as a member with Manage Server is shown them."""

from __future__ import annotations

import discord

from bot.i18n import Named, Voice, lookup, speaks
from bot.i18n.commands import option_id
from bot.i18n.refusals import key
from bot.services.settings import LOCALES, TOURNAMENT_DEFAULTS, ServerSettings
from bot.views.markup import EMBED_COLOUR, FIELD_VALUE_LIMIT, clipped


def option_label(option: str, say: Voice) -> str:
    """A /tournament create option as the reader types it (``duracion_turno`` in Spanish)."""
    return lookup(say.locale, option_id(CREATE, option)) or option


def value_label(label: str, say: Voice) -> str:
    """A default's value as the reader reads it (``1 día``): its name, translated."""
    return say("setting-value", value=f"v-{key(label)}", label=label)


def settings_embed(
    settings: ServerSettings, say: Voice, preferred: str | None = None, *, shared: bool = False
) -> discord.Embed:
    """Every setting of the server, and whether each default is the server's or built in;
    ``preferred``: the server's preferred locale on Discord; ``shared``: whether anyone with a
    link may watch its combats in the game viewer."""
    defaults = [
        say(
            "settings-default-line",
            option=option_label(option, say),
            value=value_label(described.label(settings.default(option)), say),
            whose="server" if option in settings.defaults else "built-in",
        )
        for option, described in TOURNAMENT_DEFAULTS.items()
    ]
    defaults += [
        say("settings-ignored-line", option=option_label(option, say))
        for option in settings.ignored
    ]
    channels = (
        ", ".join(f"<#{channel}>" for channel in settings.channel_ids)
        if settings.channel_ids
        else say("settings-any-channel")
    )
    role = (
        say("settings-role", role=f"<@&{settings.announce_role_id}>")
        if settings.announce_role_id is not None
        else say("settings-no-role")
    )
    if settings.locale is not None:
        language = say("settings-language", code=settings.locale, name=LOCALES[settings.locale])
    else:
        spoken = speaks(preferred)
        language = say("settings-language-unchosen", code=spoken, name=LOCALES.get(spoken, spoken))
    embed = discord.Embed(title=say("settings-title"), colour=EMBED_COLOUR)
    embed.add_field(
        name=say("settings-defaults"),
        value=clipped("\n".join(defaults), FIELD_VALUE_LIMIT),
        inline=False,
    )
    embed.add_field(name=say("settings-channels"), value=clipped(channels, FIELD_VALUE_LIMIT))
    embed.add_field(name=say("settings-announcement-role"), value=role)
    embed.add_field(name=say("settings-language-name"), value=language)
    embed.add_field(
        name=say("settings-viewer-name"),
        value=say("settings-viewer", shared="yes" if shared else "no", command=VIEWER),
        inline=False,
    )
    embed.add_field(
        name=say("settings-pace-name"),
        value=say(
            "settings-pace",
            seconds=settings.computer_pace,
            whose="server" if settings.pace_chosen else "built-in",
        ),
    )
    embed.set_footer(text=say("settings-footer"))
    return embed


def viewer_done(shared: bool, address: str | None, say: Voice) -> str:
    """What a manager who shares the server's combats on the web, or stops, is told;
    ``address``: the bot's public address (without one, boards carry no link)."""
    return say(
        "settings-viewer-done",
        shared="yes" if shared else "no",
        links="yes" if address else "no",
        history=Named("tournament history"),
    )


VIEWER = Named("settings viewer")
CREATE = "tournament create"
"""The command whose options a server gives defaults."""
