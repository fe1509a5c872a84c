"""The bot's command tree: what Discord's client enforces, enforced again before any command runs.

Discord's client offers a command only where its contexts allow it, and fills each option only
with a value of its type, one of its choices, within its range or length. A forged interaction
(a modified client, a replayed payload) need not, and discord.py passes such values through as
they came. So before any command runs, :class:`GameTree` refuses, privately and saying what to
do instead:

- a server-only command used without a server (no ``guild_id``);
- a required option left out, or an option of the wrong type, not one of its choices, or
  outside its range or length (Discord's own limits where the command declares none);
- a ``tournament`` of this server announced in a channel the member cannot view: everything
  about a tournament is for those who see its channel, so it is refused as if it did not
  exist (issue #35 item 2).

The rules are read from the parameters the cogs declare (``@app_commands.choices``,
``app_commands.Range``…), so an option added tomorrow is checked the day it is added.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import AppCommandOptionType as OptionType
from discord import app_commands

from bot.i18n import Listing, Message, Named, Param
from data.errors import NotFound, Refusal

DISCORD_NUMBER_LIMIT = 2**53
"""Discord's bound on integer and number options (either sign) when a command declares none."""
DISCORD_STRING_LIMIT = 6000
"""Discord's limit on the length of a string option."""

_KINDS: dict[OptionType, tuple[tuple[type, ...], str]] = {
    OptionType.string: ((str,), "text"),
    OptionType.integer: ((int,), "integer"),
    OptionType.number: ((int, float), "number"),
    OptionType.boolean: ((bool,), "boolean"),
}
"""What Python type each plain option type arrives as, and how a refusal names it."""


class Refused(app_commands.CheckFailure):
    """A check's :class:`Refusal`, in the form discord.py's checks raise (``refused``)."""

    def __init__(self, kind: str, /, **params: Param) -> None:
        self.refused = Refusal(kind, **params)
        super().__init__(str(self.refused))

    @classmethod
    def of(cls, refusal: Refusal) -> Refused:
        """The refusal a lower layer would have raised, raised by the check instead."""
        refused = cls(refusal.kind)
        refused.refused = refusal
        return refused


class OutsideServer(Refused):
    """A server-only command arrived without a server."""

    def __init__(self, command: str) -> None:
        super().__init__("outside-server", command=Named(command))


class OptionRefused(Refused):
    """An option Discord's client would never have sent."""


class GameTree(app_commands.CommandTree[Any]):
    """Checks every command's context and options before it runs (see the module's docstring)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        if not self._allowed_here(command, interaction.guild_id is not None):
            if interaction.type is discord.InteractionType.autocomplete:
                return False  # nothing to offer there; the command itself explains
            raise OutsideServer(command.qualified_name)
        if interaction.type is discord.InteractionType.application_command:
            try:
                namespace = interaction.namespace
            except (TypeError, ValueError):
                raise OptionRefused(
                    "options-damaged", command=Named(command.qualified_name)
                ) from None
            check_options(command, namespace)
            await _check_tournament_seen(interaction, namespace)
        return True

    def _allowed_here(self, command: app_commands.Command[Any, ..., Any], in_server: bool) -> bool:
        """Whether the command's contexts (its own, else the tree's) allow where it was used."""
        root = command.root_parent or command
        contexts = (
            self.allowed_contexts.merge(root.allowed_contexts)
            if root.allowed_contexts is not None
            else self.allowed_contexts
        )
        if in_server:
            return contexts.guild
        return contexts.dm_channel or contexts.private_channel


def sees_channel(interaction: discord.Interaction[Any], channel_id: int | None) -> bool:
    """Whether the member asking may view the channel ``channel_id`` of the interaction's
    server, by Discord's permissions there (roles and overwrites; a thread as its parent).
    Outside a server, for a tournament made outside Discord (no channel) or a channel this
    server no longer has, nothing of it is hidden by a channel."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or channel_id is None or not isinstance(member, discord.Member):
        return True
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return True
    return channel.permissions_for(member).view_channel


async def member_sees_channel(
    client: discord.Client, guild_id: int | None, channel_id: int | None, player_id: int
) -> bool | None:
    """Whether ``player_id`` may view the channel ``channel_id`` of the server ``guild_id`` now,
    by Discord's permissions there, for what the bot sends unasked (a follower's boards). A
    player no longer in the server views nothing. Where the bot knows no such server or
    channel (a tournament made outside Discord), nothing is hidden; None when Discord could
    not say (try again later)."""
    if guild_id is None or channel_id is None:
        return True
    guild = client.get_guild(guild_id)
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if guild is None or channel is None:
        return True
    member = guild.get_member(player_id)
    if member is None:
        try:
            member = await guild.fetch_member(player_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return None
    return channel.permissions_for(member).view_channel


async def _check_tournament_seen(
    interaction: discord.Interaction[Any], namespace: app_commands.Namespace
) -> None:
    """Refuse a tournament of this server whose channel the member cannot view, in the words
    of a tournament that does not exist, so its number tells nothing."""
    tournament_id = namespace.__dict__.get("tournament")
    if interaction.guild_id is None or not isinstance(tournament_id, int):
        return
    services = getattr(interaction.client, "services", None)
    if services is None:
        return
    try:
        tournament = await services.tournaments.reachable(tournament_id, interaction.guild_id)
    except Refusal:
        return  # not found, or another server's: the command refuses it in its own words
    if not sees_channel(interaction, tournament.channel_id):
        raise Refused.of(NotFound("tournament", f"#{tournament_id}"))


def check_options(
    command: app_commands.Command[Any, ..., Any], namespace: app_commands.Namespace
) -> None:
    """Refuse (:class:`OptionRefused`) the first option Discord's client could not have sent."""
    for parameter in command.parameters:
        name = parameter.display_name
        if name not in namespace:
            if parameter.required:
                raise OptionRefused(
                    "option-missing",
                    command=Named(command.qualified_name),
                    option=Named(command.qualified_name, name),
                )
            continue
        _check_value(parameter, namespace[name])


def _check_value(parameter: app_commands.Parameter, value: object) -> None:
    name = Named(parameter.command.qualified_name, parameter.display_name)
    kind = _KINDS.get(parameter.type)
    if kind is None:
        return  # users, channels, roles, attachments: discord.py resolves them itself
    types, words = kind
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise OptionRefused("option-type", option=name, kind=words)
    if parameter.choices and not parameter.autocomplete:
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed:
            command = parameter.command.qualified_name
            listed = Listing(
                tuple(
                    Named(command, parameter.display_name, (str(choice.value), choice.name))
                    for choice in parameter.choices
                ),
                Message("economy-nothing"),
            )
            raise OptionRefused("option-choices", option=name, choices=listed)
    if isinstance(value, str):
        low = int(parameter.min_value) if parameter.min_value is not None else 0
        high = int(parameter.max_value) if parameter.max_value is not None else DISCORD_STRING_LIMIT
        if not low <= len(value) <= high:
            raise OptionRefused("option-length", option=name, low=low, high=high)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        lowest = parameter.min_value if parameter.min_value is not None else -DISCORD_NUMBER_LIMIT
        highest = parameter.max_value if parameter.max_value is not None else DISCORD_NUMBER_LIMIT
        finite = not isinstance(value, float) or math.isfinite(value)
        if not (finite and lowest <= value <= highest):
            raise OptionRefused("option-range", option=name, low=lowest, high=highest)
