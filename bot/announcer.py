"""What the game tells Discord when no command is answering: boards, results, prompts, reminders.

The scheduler hands it the turns that resolved at their deadline and the reminders that are
due; the cogs hand it combats that just started and turns completed by a last order. In a
tournament's channel it posts only what everyone may know: the board, the narration of a
resolved turn, "k of n ready" and the deadline. Each player's turn prompt goes by DM, so
no order is seen by anyone else before its turn resolves (R-O4).

It only delivers: what it posts, and every prompt and reminder it sends, is a view of
:mod:`bot.views`; here is what goes where, and when.

A tournament's channel is posted in by the process whose shards hold its server (see
bot/shards.py; one process unless the host runs several). A combat's start, each resolved
turn and an end without a turn are written in the database by the same statement as the
change itself (migration 0007), whichever process makes it, and stay there until posted: the
process that resolved a turn of its own server posts it at once; :meth:`Announcer.follow`
posts the others (resolved by another process, or left by a process that stopped halfway)
from what the database holds. Boards and prompts carry a nonce, so Discord keeps one message
when a post is made again after a crash between posting and crossing it off.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

import discord

from bot.delivery import (
    CHANNEL_PERMISSIONS,
    NOT_ALLOWED,
    ChannelPace,
    message_nonce,
    missing_permissions,
    send_dm,
)
from bot.i18n import Message, Name, Param, Voice
from bot.replays import Replays
from bot.scheduler import Reminder
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import (
    DeploymentMenu,
    OrderMenu,
    Revealed,
    TournamentView,
    TurnPrompts,
    TurnResolved,
)
from bot.services.tournaments.deadlines import ClockChange
from bot.shards import Shards
from bot.views.boards import Boards, deployment_board
from bot.views.combat import (
    Shown,
    describe_effect,
    end_shown,
    follower_heading,
    forfeit_end_shown,
    reveal_shown,
    start_shown,
    turn_shown,
)
from bot.views.deployment import deployment_prompt
from bot.views.log import entry
from bot.views.markup import (
    BOARD_FILE,
    MESSAGE_LIMIT,
    NO_MENTIONS,
    REPLAY_FILE,
    attachment,
    clipped,
    png_file,
)
from bot.views.prompts import closed_dms_notice, reminder_notice, turn_prompt
from bot.views.substitutes import last_chance_dm, rules_offer_notice, take_seat_view
from bot.views.tournaments import host_told, pause_notice, ready_line, ready_line_again
from bot.worker import Worker
from data.errors import Refusal
from data.repositories import announcements as announcement_repo
from data.repositories import tournaments as tournament_repo
from data.repositories.announcements import Announcement, AnnouncementKind, TurnLine
from data.rows import (
    TournamentRow,
    TournamentStatus,
)
from engine import Dynasty, Position, Setup

log = logging.getLogger(__name__)

FOLLOWER_DMS_AT_ONCE = 5
"""Follower DMs sent at the same time (discord.py waits out Discord's rate limits itself)."""
READY_DELAY = 1.0
"""Seconds between edits of "k of n ready" lines in one channel: a burst of orders makes one
edit, and a channel hosting many tournaments stays under Discord's limit on message edits."""
DRAIN_SECONDS = 10.0
"""How long closing waits for announcements under way before cancelling them."""
FOLLOW_EVERY = 0.5
"""Seconds between two looks for announcements left in the database (see :meth:`follow`)."""
FOLLOW_AFTER = 1.0
"""Seconds an announcement is left to the process that made it before :meth:`follow` takes
it up: that process, when it speaks for the server, posts it at once from what it holds."""
RETRY_AFTER = 30.0
"""Seconds before an announcement that failed is tried again."""


class Announcer:
    """The Discord side of :class:`bot.scheduler.Notifier`, and of what cogs set off.

    Announcements of one tournament run one at a time, in the order they were asked for, so
    boards appear in turn order. Work that cogs start after answering a player runs as a
    background task (:meth:`later`); closing waits a little for it.
    """

    def __init__(
        self,
        client: discord.Client,
        services: Services,
        drawing: Worker,
        *,
        shards: Shards | None = None,
        public_url: str | None = None,
    ) -> None:
        self.client = client
        self.services = services
        self.drawing = drawing
        self.shards = shards or Shards()
        """Whose channels this process posts in: its shards' servers (all, by default)."""
        self.public_url = public_url
        """Where the game viewer is reached (``PUBLIC_URL``, while the bot serves it): every
        board post of a server that shares its combats links to its combat's page."""
        self._underway: set[tuple[int, int, str]] = set()  # announcements being posted here
        self.replays = Replays(services, drawing)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._stale_ready: dict[int, None] = {}  # tournaments, longest waiting first
        self._hosts_told: set[int] = set()  # tournaments whose channel refuses the bot
        self._reminded_privately: set[int] | None = None  # players; loaded on first use
        self._updating_ready = False
        self._following = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.pace = ChannelPace()
        """Every post in a channel waits its turn there, within Discord's rate."""

    # ------------------------------------------------------------ started by cogs

    def later(self, work: Coroutine[Any, Any, None], what: str) -> None:
        """Run ``work`` once the player has been answered; a failure is logged with ``what``."""
        task = asyncio.create_task(self._logged(work, what))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def announce_start(self, tournament_id: int) -> None:
        self.later(self.combat_started(tournament_id), f"announcing tournament #{tournament_id}")

    def announce_turn(self, resolved: TurnResolved) -> None:
        tournament = resolved.tournament
        self.later(
            self.turn_resolved(resolved),
            f"announcing turn {resolved.report.turn} of tournament #{tournament.id}",
        )

    def resolve_later(self, tournament_id: int, turn: int) -> None:
        """Resolve a turn its last order completed, then announce it (the player is answered)."""
        self.later(
            self._resolve_and_announce(tournament_id, turn),
            f"resolving turn {turn} of tournament #{tournament_id}",
        )

    def reveal_later(self, tournament_id: int) -> None:
        """Reveal a deployment step its last deployment completed, then announce it (the
        player is answered)."""
        self.later(
            self._reveal_and_announce(tournament_id),
            f"revealing the deployments of tournament #{tournament_id}",
        )

    def announce_reveal(self, revealed: Revealed) -> None:
        self.later(
            self.deployment_revealed(revealed),
            f"announcing the deployments of tournament #{revealed.tournament.id}",
        )

    def play_computers(self, tournament_id: int) -> None:
        """Let the tournament's computer players order for its open turn, in the background
        (they think in their own process, R-T7); a turn they complete resolves at once and is
        announced, whoever plays it, and otherwise the ready line shows their orders."""
        self.later(
            self._computers_play(tournament_id),
            f"ordering for the computers of tournament #{tournament_id}",
        )

    def announce_end(self, tournament_id: int) -> None:
        self.later(self.combat_ended(tournament_id), f"announcing the end of #{tournament_id}")

    def announce_clock(self, change: ClockChange, *, in_channel: bool) -> None:
        """A host paused or resumed a tournament: its channel (``in_channel``: unless the
        command's own answer was posted there) and every seated player who orders are told,
        and its ready line shows the clock as it now stands."""
        self.later(
            self._tell_clock(change, in_channel=in_channel),
            f"announcing the clock of tournament #{change.tournament.id}",
        )

    def announce_text(self, tournament: TournamentRow, text: str) -> None:
        """Post ``text`` (the bot's words, players' names escaped) in the tournament's channel."""
        self.later(self._say(tournament, text), f"telling the channel of #{tournament.id}")

    def announce_dm(self, player_id: int, notice: Message) -> None:
        """DM ``notice`` to a player in their language, if their DMs let the bot (the channel
        was told too)."""
        self.later(self._tell_player(player_id, notice), f"telling user {player_id}")

    def announce_offer(self, tournament: TournamentRow, letter: str, text: str) -> None:
        """Post ``text`` (a seat offered to a substitute, R-T10a) in the tournament's channel,
        with the button that takes the seat."""
        self.later(self._offer(tournament, letter, text), f"offering a seat of #{tournament.id}")

    def prompt_seat(self, tournament_id: int, player_id: int) -> None:
        """A player orders for a seat from the open turn on (a substitute sat down, a seat was
        taken back): its prompt for that turn by DM."""
        self.later(
            self._prompt_player(tournament_id, player_id),
            f"prompting user {player_id} in tournament #{tournament_id}",
        )

    def announce_ready(self, tournament_id: int) -> None:
        """Show the new "k of n ready" soon: a burst of orders makes one edit, not one each,
        and a channel sees one edit per :data:`READY_DELAY`, whatever it hosts. Another
        server's is left to its process (see :meth:`follow`)."""
        if not self.shards.all:
            self.later(self._ready_elsewhere(tournament_id), "passing on a ready count")
            return
        self._show_ready_soon(tournament_id)

    def _show_ready_soon(self, tournament_id: int) -> None:
        self._stale_ready.setdefault(tournament_id)
        if self._updating_ready:
            return
        self._updating_ready = True
        self.later(self._update_ready(), "updating ready counts")

    async def settle(self, timeout: float | None = None) -> bool:
        """Wait until no announcement is under way (or ``timeout``); whether none is left."""
        while self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=timeout)
            if pending:
                return False
        return True

    async def close(self) -> None:
        """Let announcements under way finish (a few seconds at most), then cancel the rest."""
        self._following = False
        if await self.settle(DRAIN_SECONDS):
            return
        pending = set(self._tasks)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    # ------------------------------------------------------------ Notifier

    async def combat_started(self, tournament_id: int) -> None:
        """Turn 1 is open: the starting board and the seats in the channel, prompts by DM."""
        tournament = await tournament_repo.get_tournament(self.services.database, tournament_id)
        key = (tournament_id, 0, AnnouncementKind.START)
        await self._once(key, tournament, self._show_start(tournament_id))

    async def _show_start(self, tournament_id: int) -> None:
        async with self._locks[tournament_id]:
            view = await self.services.tournaments.view(tournament_id)
            tournament = view.tournament
            if tournament.allow_computers:
                self.play_computers(tournament_id)
            if view.game is None:
                return
            if tournament.ruleset.setup is Setup.HIDDEN:  # the deployment step first (R-V1c)
                await self._open_deployment(view)
                return
            # Posted late (its process stopped first), the start shows the start all the same.
            start = view.game
            if start.turn != 0:
                start = await tournament_repo.get_game(self.services.database, tournament_id, 0)
            boards = Boards.at(self.drawing, tournament, start, view.names)
            shown = start_shown(tournament, view.seats, view.names)
            shown = shown.linked(await self._page(tournament))
            nonce = ("start", tournament_id)
            await self._open_first_turn(tournament, boards, shown, nonce)

    async def _open_first_turn(
        self, tournament: TournamentRow, boards: Boards, shown: Shown, nonce: tuple[object, ...]
    ) -> None:
        """The opening board (the start, or the reveal) with turn 1's prompts; only the board
        if turn 1 has resolved since (its own board follows)."""
        prompts = await self.services.orders.turn_prompts(tournament.id, 1)
        if prompts is None:
            locale = await self._channel_locale(tournament)
            images = [(await boards.drawn(locale), BOARD_FILE)]
            await self._post(tournament, None, shown.embed(locale), images, nonce=nonce)
            return
        await self._open_turn(prompts, boards, shown, nonce=nonce)

    async def turn_resolved(self, resolved: TurnResolved) -> None:
        """The board and narration in the channel; at the end the results and the replay;
        otherwise each player's prompt for the next turn by DM."""
        tournament = resolved.tournament
        key = (tournament.id, resolved.report.turn, AnnouncementKind.TURN)
        await self._once(key, tournament, self._show_turn(resolved))

    async def _show_turn(self, resolved: TurnResolved, changes: list[Param] | None = None) -> None:
        """``changes``: what the end changed, as logged (the effects are not at hand)."""
        tournament = resolved.tournament
        report = resolved.report
        if not resolved.finished:  # computer seats, or seats handed to a computer (issue #14)
            self.play_computers(tournament.id)  # they think while the board is drawn
            self.later(self._last_chances(tournament.id), f"warning the seats of #{tournament.id}")
        nonce = ("turn", tournament.id, report.turn)
        async with self._locks[tournament.id]:
            boards = Boards.of_turn(self.drawing, resolved)
            shown = turn_shown(resolved).linked(await self._page(tournament))
            if report.outcome is not None:
                if changes is None:
                    view = await self.services.tournaments.view(tournament.id)
                    emperors = {
                        seat.emperor_id: resolved.names[seat.dynasty]
                        for seat in view.seats
                        if seat.emperor_id is not None
                    }
                    changes = [describe_effect(effect, emperors) for effect in resolved.effects]
                await self._post_end(tournament, resolved.names, boards, shown, changes, nonce)
                return
            prompts = await self.services.orders.turn_prompts(tournament.id, report.turn + 1)
            if prompts is None:
                # The turn this one opened has resolved too: its own board will follow.
                locale = await self._channel_locale(tournament)
                images = [(await boards.drawn(locale), BOARD_FILE)]
                await self._post(tournament, None, shown.embed(locale), images, nonce=nonce)
                await self._tell_followers(tournament, None, shown, images, nonce=nonce)
                return
            await self._open_turn(prompts, boards, shown, nonce=nonce)

    async def deployment_revealed(self, revealed: Revealed) -> None:
        """Every deployment revealed at once (R-V1c): the first board in the channel, with turn
        1's ready line, and each player's prompt for turn 1 by DM."""
        tournament = revealed.tournament
        key = (tournament.id, 0, AnnouncementKind.TURN)
        await self._once(key, tournament, self._show_reveal(tournament.id))

    async def _show_reveal(self, tournament_id: int) -> None:
        async with self._locks[tournament_id]:
            view = await self.services.tournaments.view(tournament_id)
            tournament = view.tournament
            self.play_computers(tournament_id)  # turn 1's orders, while the board is drawn
            start = await tournament_repo.get_game(self.services.database, tournament_id, 0)
            boards = Boards.at(self.drawing, tournament, start, view.names, revealed=True)
            shown = reveal_shown(tournament, start, view.names)
            nonce = ("reveal", tournament_id)
            await self._open_first_turn(tournament, boards, shown, nonce)

    async def _open_deployment(self, view: TournamentView) -> None:
        """The deployment step has begun (R-V1c): the seats and the empty battlefield in the
        channel with "0 of n deployed", and each player's deployment prompt by DM. A start
        posted after the reveal shows the seats only (the reveal has its own board)."""
        tournament = view.tournament
        assert view.game is not None
        prompts = await self.services.deployments.prompts(tournament.id)
        empty = Position(view.game.position.battlefield, {})
        boards = Boards(self.drawing, tournament, Message("board-deploying"), empty, view.names)
        shown = start_shown(tournament, view.seats, view.names).with_field(
            Message("deploy-field"), Message("deploy-explained")
        )
        locale = await self._channel_locale(tournament)
        content = None if prompts is None else ready_line(tournament, prompts.ready)
        board = await boards.drawn(locale)
        message_id = await self._post(
            tournament,
            None if content is None else content.text(locale),
            shown.embed(locale),
            [(board, BOARD_FILE)],
            nonce=("start", tournament.id),
        )
        if prompts is None:
            return
        channel = self._channel(tournament)
        if message_id is not None and channel is not None:
            line = TurnLine(tournament.id, tournament.turn, channel.id, message_id)
            await announcement_repo.keep_turn_line(self.services.database, line)
        await asyncio.gather(
            *(self._deployment_prompt(menu, view, channel) for menu in prompts.menus)
        )

    async def _deployment_prompt(
        self,
        menu: DeploymentMenu,
        view: TournamentView,
        channel: discord.PartialMessageable | None,
    ) -> None:
        """One player's secret deployment prompt, by DM, with the board of its own arrangement;
        a player whose DMs are closed is asked in the channel, once per combat, to use /deploy
        there (before anyone deploys: it tells nothing about deployments)."""
        tournament = menu.tournament
        player_id = menu.seat.player_id
        assert player_id is not None
        try:
            locale = await self.services.locales.of_player(player_id)
            board = await deployment_board(self.drawing, menu, view.names, locale)
            delivered = await send_dm(
                self.client,
                player_id,
                file=png_file(board, BOARD_FILE),
                nonce=message_nonce("deploy", tournament.id, player_id),
                **deployment_prompt(menu, locale),
            )
            if delivered or channel is None:
                return
            if await announcement_repo.claim_closed_dms_notice(
                self.services.database, tournament.id, player_id, now=self.services.clock()
            ):
                await channel.send(**closed_dms_notice(player_id, tournament.id, deploying=True))
        except discord.HTTPException as error:
            log.warning(
                "Could not send user %s the deployment prompt of tournament #%d: %s",
                player_id,
                tournament.id,
                error,
            )

    async def combat_ended(self, tournament_id: int) -> None:
        """A combat that ended without a turn (the last rival forfeited): board, result, replay."""
        tournament = await tournament_repo.get_tournament(self.services.database, tournament_id)
        key = (tournament_id, tournament.turn, AnnouncementKind.END)
        await self._once(key, tournament, self._show_end(tournament_id))

    async def _show_end(self, tournament_id: int) -> None:
        async with self._locks[tournament_id]:
            view = await self.services.tournaments.view(tournament_id)
            tournament = view.tournament
            if view.game is None or tournament.outcome is None:
                return
            game = view.game
            boards = Boards.at(self.drawing, tournament, game, view.names, end=True)
            shown = forfeit_end_shown(tournament).linked(await self._page(tournament))
            changes = await self._logged_changes(tournament_id)
            nonce = ("end", tournament_id)
            await self._post_end(tournament, view.names, boards, shown, changes, nonce)

    # ------------------------------------------------------------ several processes

    def owns(self, tournament: TournamentRow) -> bool:
        """Whether this process posts in the tournament's channel (its server is on one of
        this process's shards)."""
        return self.shards.owns(tournament.guild_id)

    async def follow(self) -> None:
        """Until :meth:`close`: post what the database says this process's servers are still
        to be shown (turns resolved by other processes, or left by a process that stopped),
        every :data:`FOLLOW_EVERY` seconds; each tournament's in turn order, tournaments side
        by side."""
        self._following = True
        while self._following:
            try:
                await self.post_waiting()
            except Exception:
                log.exception("looking for announcements to post failed; trying again")
            await asyncio.sleep(FOLLOW_EVERY)

    async def post_waiting(self) -> None:
        """One look at what this process's servers are still to be shown, and post it."""
        shards = self.shards
        waiting = await announcement_repo.waiting_announcements(
            self.services.database,
            due_by=self.services.clock() - FOLLOW_AFTER,
            shard_count=None if shards.all else shards.count,
            shard_ids=shards.ids or (),
        )
        by_tournament: dict[int, list[Announcement]] = {}
        for announcement in waiting:
            if announcement.key not in self._underway:
                by_tournament.setdefault(announcement.tournament_id, []).append(announcement)
        await asyncio.gather(*(self._post_waiting(found) for found in by_tournament.values()))

    async def _post_waiting(self, announcements: list[Announcement]) -> None:
        """One tournament's waiting announcements, in order; a failed one is tried later."""
        for announcement in announcements:
            try:
                await self._post_one(announcement)
            except Exception:
                log.exception(
                    "Posting %s %d of tournament #%d failed; trying again in %.0f s",
                    announcement.kind,
                    announcement.turn,
                    announcement.tournament_id,
                    RETRY_AFTER,
                )
                await announcement_repo.postpone_announcement(
                    self.services.database,
                    announcement.key,
                    until=self.services.clock() + RETRY_AFTER,
                )
                return

    async def _post_one(self, announcement: Announcement) -> None:
        tournament_id, kind = announcement.tournament_id, announcement.kind
        database = self.services.database
        if kind is AnnouncementKind.READY:
            await announcement_repo.announced(database, announcement.key)
            self._show_ready_soon(tournament_id)
            return
        tournament = await tournament_repo.get_tournament(self.services.database, tournament_id)
        if kind is AnnouncementKind.START:
            await self._once(announcement.key, tournament, self._show_start(tournament_id))
        elif kind is AnnouncementKind.TURN and announcement.turn == 0:  # the reveal (R-V1c)
            await self._once(announcement.key, tournament, self._show_reveal(tournament_id))
        elif kind is AnnouncementKind.END:
            await self._once(announcement.key, tournament, self._show_end(tournament_id))
        else:
            resolved = await self.services.tournaments.resolved_turn(
                tournament_id, announcement.turn
            )
            changes = await self._logged_changes(tournament_id) if resolved.finished else None
            await self._once(announcement.key, tournament, self._show_turn(resolved, changes))

    async def _once(
        self,
        key: tuple[int, int, str],
        tournament: TournamentRow,
        work: Coroutine[Any, Any, None],
    ) -> None:
        """Post an announcement of this process's server once: not while it is being posted
        here, nor after it was crossed off (posted before a restart, or by :meth:`follow`).
        A tournament without a channel has nothing kept (its prompts go by DM)."""
        if not self.owns(tournament) or key in self._underway:
            work.close()
            return
        self._underway.add(key)
        try:
            kept = tournament.channel_id is not None
            database = self.services.database
            if kept and not await announcement_repo.announcement_waiting(database, key):
                work.close()
                return
            await work
            if kept:
                await announcement_repo.announced(database, key)
        finally:
            self._underway.discard(key)

    async def _ready_elsewhere(self, tournament_id: int) -> None:
        """A ready count changed here: show it if this process speaks for the tournament's
        server, else leave it to that server's process."""
        tournament = await tournament_repo.get_tournament(self.services.database, tournament_id)
        if self.owns(tournament):
            self._show_ready_soon(tournament_id)
            return
        await announcement_repo.ask_for_ready_line(
            self.services.database, tournament_id, tournament.guild_id, now=self.services.clock()
        )

    async def _logged_changes(self, tournament_id: int) -> list[Param]:
        """What the end of a combat changed for its emperors, as publicly logged, in each
        reader's language (bot/views/log.py)."""
        outcome = await self.services.tournaments.outcome_log(tournament_id)
        return [entry(event.reason) for event in outcome]

    async def pause_ended(self, change: ClockChange) -> None:
        """A pause lasted its 7 days and ended by itself: everyone concerned is told."""
        await self._tell_clock(change, in_channel=True, by_itself=True)

    async def remind(self, reminder: Reminder) -> None:
        """DM a player who has not ordered yet. If their DMs are closed, the reminder waits
        for their next command and is shown to them privately: a mention in the channel would
        tell everyone who has not ordered (R-O4)."""
        tournament = reminder.tournament
        locale = await self.services.locales.of_player(reminder.player_id)
        said = reminder_notice(tournament.id, tournament.turn, reminder.deadline).text(locale)
        try:
            delivered = await send_dm(self.client, reminder.player_id, content=said)
        except discord.HTTPException as error:
            log.warning(
                "Could not remind user %s of tournament #%d: %s",
                reminder.player_id,
                tournament.id,
                error,
            )
            return
        if not delivered:
            await announcement_repo.keep_private_reminder(
                self.services.database,
                reminder.player_id,
                tournament.id,
                tournament.turn,
                reminder.deadline,
            )
            (await self._privately_reminded()).add(reminder.player_id)

    async def _privately_reminded(self) -> set[int]:
        """Players with reminders waiting: read from the database once, then kept up here,
        so that a command need not ask the database whether its player has any."""
        if self._reminded_privately is None:
            self._reminded_privately = await announcement_repo.players_with_private_reminders(
                self.services.database
            )
        return self._reminded_privately

    async def private_reminders(self, player_id: int, locale: str) -> list[str]:
        """The reminders a player's closed DMs refused, still true now (the turn is open and
        they have not ordered), each handed out once: for their next command to show, in the
        language of that command (``locale``)."""
        waiting = await self._privately_reminded()
        if player_id not in waiting:
            return []
        waiting.discard(player_id)
        texts = []
        taken = await announcement_repo.take_private_reminders(self.services.database, player_id)
        for reminder in taken:
            try:
                menu = await self.services.orders.menu(
                    Request(player_id), reminder.tournament_id, turn=reminder.turn
                )
            except Refusal:
                continue  # the turn resolved, or the combat ended, since
            if menu.current is None:
                texts.append(
                    reminder_notice(
                        reminder.tournament_id, reminder.turn, reminder.deadline, private=True
                    ).text(locale)
                )
        return texts

    # ------------------------------------------------------------ helpers

    async def _channel_locale(self, tournament: TournamentRow) -> str:
        """The language of the tournament's channel: its server's choice, else the server's
        preferred locale on Discord, else English."""
        guild = self.client.get_guild(tournament.guild_id) if tournament.guild_id else None
        preferred = str(guild.preferred_locale) if guild is not None else None
        return await self.services.locales.of_server(tournament.guild_id, preferred)

    async def _tell_clock(
        self, change: ClockChange, *, in_channel: bool, by_itself: bool = False
    ) -> None:
        tournament = change.tournament
        notice = pause_notice(change, by_itself=by_itself)
        if in_channel:
            await self._say(tournament, notice.text(await self._channel_locale(tournament)))
        await asyncio.gather(*(self._tell_player(player, notice) for player in change.players))
        self.announce_ready(tournament.id)

    async def _say(self, tournament: TournamentRow, text: str) -> None:
        """A line of the bot's in the tournament's channel (no board)."""
        channel = self._channel(tournament)
        if channel is None:
            return
        try:
            async with self.pace.turn(channel.id):
                await channel.send(clipped(text, MESSAGE_LIMIT), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("Could not post in the channel of tournament #%d: %s", tournament.id, error)
            if isinstance(error, discord.Forbidden) and error.code in NOT_ALLOWED:
                await self._tell_host(tournament)

    async def _offer(self, tournament: TournamentRow, letter: str, text: str) -> None:
        channel = self._channel(tournament)
        if channel is None:
            return
        say = Voice(await self._channel_locale(tournament))
        try:
            async with self.pace.turn(channel.id):
                await channel.send(
                    clipped(text, MESSAGE_LIMIT),
                    view=take_seat_view(tournament.id, letter, say),
                    allowed_mentions=NO_MENTIONS,
                )
        except discord.HTTPException as error:
            log.warning("Could not post in the channel of tournament #%d: %s", tournament.id, error)

    async def _prompt_player(self, tournament_id: int, player_id: int) -> None:
        async with self._locks[tournament_id]:
            view = await self.services.tournaments.view(tournament_id)
            if view.game is None:
                return
            prompts = await self.services.orders.turn_prompts(tournament_id, view.tournament.turn)
            if prompts is None:
                return
            boards = Boards.at(self.drawing, view.tournament, view.game, view.names)
            for menu in prompts.menus:
                if menu.seat.player_id == player_id:
                    await self._prompt(menu, boards, None)

    async def _last_chances(self, tournament_id: int) -> None:
        """R-G4 defeats at the next miss: each such player is warned by DM (R-T12), and the
        channel learns that the rules offer the seat to a substitute (R-T10a)."""
        chances = await self.services.substitutes.last_chances(tournament_id)
        for chance in chances:
            player = chance.seat.player_id
            assert player is not None
            letter = chance.seat.dynasty.letter
            await self._tell_player(player, last_chance_dm(tournament_id, letter))
            if chance.offered:
                tournament = chance.tournament
                notice = rules_offer_notice(tournament_id, letter, chance.name)
                await self._offer(
                    tournament, letter, notice.text(await self._channel_locale(tournament))
                )

    async def _tell_player(self, player_id: int, notice: Message) -> None:
        """A DM that matters little if it cannot arrive (the channel was told too), in the
        player's language."""
        try:
            locale = await self.services.locales.of_player(player_id)
            await send_dm(self.client, player_id, content=notice.text(locale))
        except discord.HTTPException as error:
            log.warning("Could not send user %s a notice: %s", player_id, error)

    async def _tell_followers(
        self,
        tournament: TournamentRow,
        content: Message | None,
        shown: Shown,
        images: Sequence[tuple[bytes, str]],
        *,
        nonce: tuple[object, ...],
    ) -> None:
        """What the channel was shown, by DM to each follower in the follower's language: the
        very board drawn for the channel, never drawn again (its words are the channel's). A
        follower whose DMs refuse the bot stops following. Each DM carries a nonce of the
        channel's post and the follower, so a post taken up again after a crash does not reach
        a follower twice."""
        followers = await self.services.following.followers(tournament.id)
        if not followers:
            return
        sending = asyncio.Semaphore(FOLLOWER_DMS_AT_ONCE)

        async def send(player_id: int) -> None:
            locale = await self.services.locales.of_player(player_id)
            heading = follower_heading(tournament, content).text(locale)
            embed = shown.embed(locale)
            files = [attachment(data, name) for data, name in images]
            async with sending:
                try:
                    delivered = await send_dm(
                        self.client,
                        player_id,
                        content=clipped(heading, MESSAGE_LIMIT),
                        embed=embed,
                        files=files,
                        nonce=message_nonce("follower", *nonce, player_id),
                    )
                except discord.HTTPException as error:
                    log.warning(
                        "Could not send follower %s the board of tournament #%d: %s",
                        player_id,
                        tournament.id,
                        error,
                    )
                    return
            if not delivered:
                await self.services.following.drop_follower(tournament.id, player_id)

        await asyncio.gather(*(send(player_id) for player_id in followers))

    async def _resolve_and_announce(self, tournament_id: int, turn: int) -> None:
        resolved = await self.services.turns.resolve(tournament_id, turn=turn)
        if resolved is not None:
            await self.turn_resolved(resolved)

    async def _computers_play(self, tournament_id: int) -> None:
        resolved = await self.services.turns.play_computers(tournament_id)
        if isinstance(resolved, Revealed):
            await self.deployment_revealed(resolved)
        elif resolved is not None:
            await self.turn_resolved(resolved)
        else:
            self.announce_ready(tournament_id)

    async def _page(self, tournament: TournamentRow) -> str | None:
        """The combat's page in the game viewer, if its server shares its combats on the web
        and the bot has a public address."""
        links = await self.services.viewing.links(
            self.public_url, tournament.guild_id, [tournament.id]
        )
        return links.get(tournament.id)

    async def _reveal_and_announce(self, tournament_id: int) -> None:
        revealed = await self.services.turns.reveal(tournament_id)
        if revealed is not None:
            await self.deployment_revealed(revealed)

    async def _logged(self, work: Coroutine[Any, Any, None], what: str) -> None:
        try:
            await work
        except Exception:
            log.exception("Failed %s", what)

    def _channel(self, tournament: TournamentRow) -> discord.PartialMessageable | None:
        if tournament.channel_id is None:
            return None
        return self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )

    async def _open_turn(
        self, prompts: TurnPrompts, boards: Boards, shown: Shown, *, nonce: tuple[object, ...]
    ) -> None:
        """The board with the new turn's ready line in the channel, then every player's prompt
        (each with the board in the player's language)."""
        tournament = prompts.tournament
        content = ready_line(tournament, prompts.ready)
        locale = await self._channel_locale(tournament)
        board = await boards.drawn(locale)
        message_id = await self._post(
            tournament,
            content.text(locale),
            shown.embed(locale),
            [(board, BOARD_FILE)],
            nonce=nonce,
        )
        channel = self._channel(tournament)
        database = self.services.database
        if message_id is not None and channel is not None:
            line = TurnLine(tournament.id, tournament.turn, channel.id, message_id)
            await announcement_repo.keep_turn_line(database, line)
        else:  # no board: the first order posts a line of its own
            await announcement_repo.forget_turn_line(database, tournament.id)
        await asyncio.gather(*(self._prompt(menu, boards, channel) for menu in prompts.menus))
        await self._tell_followers(tournament, content, shown, [(board, BOARD_FILE)], nonce=nonce)

    async def _post(
        self,
        tournament: TournamentRow,
        content: str | None,
        embed: discord.Embed,
        images: Sequence[tuple[bytes, str]],
        *,
        nonce: tuple[object, ...],
    ) -> int | None:
        """Post a board in the tournament's channel; the message id, None if it failed.
        Posted again with the same ``nonce`` (after a crash), Discord keeps the first."""
        channel = self._channel(tournament)
        if channel is None:
            return None
        files = [attachment(data, name) for data, name in images]
        try:
            async with self.pace.turn(channel.id):
                message = await channel.send(
                    content,
                    embed=embed,
                    files=files,
                    allowed_mentions=NO_MENTIONS,
                    nonce=message_nonce(*nonce),
                )
        except discord.HTTPException as error:
            log.warning("Could not post in the channel of tournament #%d: %s", tournament.id, error)
            if isinstance(error, discord.Forbidden) and error.code in NOT_ALLOWED:
                await self._tell_host(tournament)
            return None
        self._hosts_told.discard(tournament.id)
        return message.id

    async def _tell_host(self, tournament: TournamentRow) -> None:
        """The channel refuses the bot: tell the host by DM what to grant (once, until a board
        is posted again), since nobody in the channel can see that anything is wrong."""
        if tournament.host_player_id is None or tournament.id in self._hosts_told:
            return
        self._hosts_told.add(tournament.id)
        needed = CHANNEL_PERMISSIONS
        found = self.client.get_channel(tournament.channel_id or 0)
        if isinstance(found, discord.abc.GuildChannel | discord.Thread):
            granted = found.permissions_for(found.guild.me)
            lacking = missing_permissions(granted, in_thread=isinstance(found, discord.Thread))
            needed = lacking if lacking.value else needed
        locale = await self.services.locales.of_player(tournament.host_player_id)
        said = host_told(tournament, needed).text(locale)
        try:
            delivered = await send_dm(self.client, tournament.host_player_id, content=said)
        except discord.HTTPException as error:
            delivered = False
            log.warning("Could not tell the host of tournament #%d: %s", tournament.id, error)
        if not delivered:
            log.warning(
                "The host of tournament #%d cannot be told that its channel refuses the bot",
                tournament.id,
            )

    async def _post_end(
        self,
        tournament: TournamentRow,
        names: Mapping[Dynasty, Name],
        boards: Boards,
        shown: Shown,
        changes: Sequence[Param],
        nonce: tuple[object, ...],
    ) -> None:
        """The final board with the result, what it changed for the emperors (``changes``, in
        Discord's markdown), and the replay."""
        assert tournament.outcome is not None
        payouts = await self.services.tournaments.payouts(tournament.id)
        chests = await self.services.chests.chest_results(tournament.id)
        shown, over = end_shown(
            tournament.id, shown, tournament.outcome, names, changes, payouts, chests
        )
        replay = await self.replays.replay(tournament.id, for_channel=True)
        locale = await self._channel_locale(tournament)
        images = [(await boards.drawn(locale), BOARD_FILE), (replay.gif, REPLAY_FILE)]
        await self._post(
            tournament,
            clipped(over.text(locale), MESSAGE_LIMIT),
            shown.embed(locale),
            images,
            nonce=nonce,
        )
        await self._tell_followers(tournament, over, shown, images, nonce=nonce)
        await announcement_repo.forget_turn_line(self.services.database, tournament.id)
        # Its end is posted: a training combat is forgotten now (R-T4); if the bot stops
        # before this, the scheduler forgets it a little later.
        await self.services.turns.forget_training(tournament.id)
        self._hosts_told.discard(tournament.id)
        self._locks.pop(tournament.id, None)

    async def _prompt(
        self, menu: OrderMenu, boards: Boards, channel: discord.PartialMessageable | None
    ) -> None:
        """One player's secret prompt for the open turn, by DM. A player whose DMs are closed
        is asked in the channel, once per combat, to use /order there instead; this happens
        only as a turn opens, before anyone has ordered, so it tells the channel nothing about
        orders (R-O4)."""
        tournament = menu.tournament
        player_id = menu.seat.player_id
        assert player_id is not None
        try:
            locale = await self.services.locales.of_player(player_id)
            board = await boards.drawn(locale)
            delivered = await send_dm(
                self.client,
                player_id,
                file=png_file(board, BOARD_FILE),
                nonce=message_nonce("prompt", tournament.id, tournament.turn, player_id),
                **turn_prompt(menu, locale),
            )
            if delivered or channel is None:
                return
            if await announcement_repo.claim_closed_dms_notice(
                self.services.database, tournament.id, player_id, now=self.services.clock()
            ):
                async with self.pace.turn(channel.id):
                    await channel.send(**closed_dms_notice(player_id, tournament.id))
        except discord.HTTPException as error:
            log.warning(
                "Could not send user %s the prompt of tournament #%d: %s",
                player_id,
                tournament.id,
                error,
            )

    async def _update_ready(self) -> None:
        """Every :data:`READY_DELAY`, edit the line of the longest-waiting tournament of each
        channel; the others of a channel wait their turn, still marked."""
        try:
            while self._stale_ready:
                await asyncio.sleep(READY_DELAY)
                channels: set[int] = set()
                due = []
                for tournament_id in list(self._stale_ready):
                    line = await announcement_repo.turn_line(self.services.database, tournament_id)
                    if line is not None and line.channel_id in channels:
                        continue
                    if line is not None:
                        channels.add(line.channel_id)
                    due.append(tournament_id)
                for tournament_id in due:
                    del self._stale_ready[tournament_id]
                await asyncio.gather(
                    *(
                        self._logged(
                            self._show_ready(tournament_id),
                            f"updating the ready count of tournament #{tournament_id}",
                        )
                        for tournament_id in due
                    )
                )
        finally:
            self._updating_ready = False

    async def _show_ready(self, tournament_id: int) -> None:
        """Edit the open turn's line; after a restart (no line known) post a new one."""
        async with self._locks[tournament_id]:
            await self._show_ready_now(tournament_id)

    async def _show_ready_now(self, tournament_id: int) -> None:
        """Edit the open turn's line. Its message id is in the database, so this holds after
        a restart too: a second line would tell the channel that an order changed. Only if
        that message is gone, or was never posted, is a new line posted."""
        progress = await self.services.tournaments.progress(tournament_id)
        tournament = progress.tournament
        channel = self._channel(tournament)
        if channel is None or tournament.status is not TournamentStatus.RUNNING:
            return
        locale = await self._channel_locale(tournament)
        line_text = ready_line(tournament, progress.ready).text(locale)
        database = self.services.database
        line = await announcement_repo.turn_line(database, tournament_id)
        if line is not None and line.turn != tournament.turn:
            return  # the turn has just resolved: its board, with a fresh line, is on its way
        try:
            if line is not None:
                try:
                    await channel.get_partial_message(line.message_id).edit(content=line_text)
                    return
                except discord.NotFound:
                    pass  # deleted by someone: post the line again
            again = ready_line_again(tournament_id, line_text).text(locale)
            async with self.pace.turn(channel.id):
                message = await channel.send(again, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as error:
            if error.code not in NOT_ALLOWED:
                raise
            log.warning(
                "Could not show the ready count of tournament #%d: %s", tournament_id, error
            )
            await self._tell_host(tournament)
            return
        await announcement_repo.keep_turn_line(
            database, TurnLine(tournament_id, tournament.turn, channel.id, message.id)
        )
