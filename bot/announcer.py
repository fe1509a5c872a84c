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

import aiohttp
import discord

from bot.command_tree import member_sees_channel
from bot.delivery import (
    CHANNEL_PERMISSIONS,
    NOT_ALLOWED,
    PROMPT_ATTEMPTS,
    ChannelPace,
    Undelivered,
    edit_content,
    message_nonce,
    missing_permissions,
    post_message,
    retry_delay,
    send_dm,
    transient,
)
from bot.i18n import Message, Name, Param, Voice
from bot.metrics import Metrics
from bot.narration import outcome_message
from bot.replays import Replays
from bot.scheduler import Reminder
from bot.services import Services
from bot.services.request import Request
from bot.services.series.service import SeriesNews
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
from bot.views.alt_text import replay_alt_text
from bot.views.boards import Boards, deployment_board, own_order_board
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
    MESSAGE_LIMIT,
    NO_MENTIONS,
    REPLAY_FILE,
    Picture,
    clipped,
)
from bot.views.prompts import closed_dms_notice, reminder_notice, turn_prompt
from bot.views.regents import regent_begun_dm
from bot.views.reminders import digest_notice
from bot.views.series import news_embed
from bot.views.substitutes import last_chance_dm, rules_offer_notice, take_seat_view
from bot.views.tournaments import host_told, pause_notice, ready_line, ready_line_again
from bot.worker import Worker
from data.errors import Refusal
from data.outages import is_outage
from data.repositories import announcements as announcement_repo
from data.repositories import deliveries as delivery_repo
from data.repositories import tournaments as tournament_repo
from data.repositories.announcements import Announcement, AnnouncementKind, TurnLine
from data.repositories.deliveries import PromptKind, UndeliveredPrompt
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
        self.metrics: Metrics | None = getattr(client, "metrics", None)
        """The bot's metrics (with ``METRICS_PORT``): failed deliveries are counted there."""

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

    def announce_reopened(self, tournament_id: int, undo_id: int, shown: Shown) -> None:
        """A turn undone (issue #38 item 6) is open again: the board as it now stands with
        ``shown`` in the channel and for followers, and every player's prompt by DM."""
        self.later(
            self._show_reopened(tournament_id, undo_id, shown),
            f"announcing the undo of a turn of tournament #{tournament_id}",
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

    def announce_text(
        self, tournament: TournamentRow, text: str, view: discord.ui.View | None = None
    ) -> None:
        """Post ``text`` (the bot's words, players' names escaped) in the tournament's channel,
        with ``view``'s buttons if given (answered from their custom ids alone)."""
        self.later(self._say(tournament, text, view), f"telling the channel of #{tournament.id}")

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
            if any(seat.computer_strategy is not None for seat in view.seats):
                self.play_computers(tournament_id)  # computers, and regents (R-T11)
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
            images = [await boards.picture(locale, await self._channel_palette(tournament))]
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
            self.later(self._regents_begun(tournament.id), f"regents of #{tournament.id}")
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
                palette = await self._channel_palette(tournament)
                images = [await boards.picture(locale, palette)]
                await self._post(tournament, None, shown.embed(locale), images, nonce=nonce)
                await self._tell_followers(tournament, None, shown, images, nonce=nonce)
                return
            await self._open_turn(prompts, boards, shown, nonce=nonce)

    async def _show_reopened(self, tournament_id: int, undo_id: int, shown: Shown) -> None:
        async with self._locks[tournament_id]:
            view = await self.services.tournaments.view(tournament_id)
            tournament, game = view.tournament, view.game
            if game is None:
                return
            self.play_computers(tournament_id)
            prompts = await self.services.orders.turn_prompts(tournament_id, tournament.turn)
            if prompts is None:
                return  # resolved again already: its own board follows
            boards = Boards(
                self.drawing,
                tournament,
                Message("board-undone", turn=tournament.turn),
                game.position,
                view.names,
                chests=game.chests,
                ruleset=game.ruleset,
                painted=game.domains,
            )
            shown = shown.linked(await self._page(tournament))
            await self._open_turn(prompts, boards, shown, nonce=("undo", tournament_id, undo_id))

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
        board = await boards.picture(locale, await self._channel_palette(tournament))
        message_id = await self._post(
            tournament,
            None if content is None else content.text(locale),
            shown.embed(locale),
            [board],
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
        """One player's secret deployment prompt, by DM, with the board of its own arrangement
        (see :meth:`_deliver_prompt`)."""
        player_id = menu.seat.player_id
        assert player_id is not None
        locale = await self.services.locales.of_player(player_id)
        palette = await self.services.palettes.of_player(player_id)
        board = await deployment_board(self.drawing, menu, view.names, locale, palette=palette)
        prompt = deployment_prompt(menu, locale)
        await self._deliver_prompt(
            menu.tournament, player_id, PromptKind.DEPLOY, prompt, board, channel
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
            except Exception as error:
                if not is_outage(error):  # an outage is logged once, by the database
                    log.exception("looking for announcements to post failed; trying again")
            await asyncio.sleep(FOLLOW_EVERY)

    async def post_waiting(self) -> None:
        """One look at what this process's servers are still to be shown, and post it; and
        at the DM prompts that are due to be sent again."""
        shards = self.shards
        now = self.services.clock()
        waiting = await announcement_repo.waiting_announcements(
            self.services.database,
            due_by=now - FOLLOW_AFTER,
            shard_count=None if shards.all else shards.count,
            shard_ids=shards.ids or (),
        )
        prompts = await delivery_repo.due_prompts(
            self.services.database,
            due_by=now,
            shard_count=None if shards.all else shards.count,
            shard_ids=shards.ids or (),
        )
        by_tournament: dict[int, list[Announcement]] = {}
        for announcement in waiting:
            if announcement.key not in self._underway:
                by_tournament.setdefault(announcement.tournament_id, []).append(announcement)
        await asyncio.gather(
            *(self._post_waiting(found) for found in by_tournament.values()),
            *(self._prompt_again(prompt) for prompt in prompts),
        )

    async def _prompt_again(self, prompt: UndeliveredPrompt) -> None:
        """Send again a DM prompt that failed in passing (or that a restore asks for), if its
        turn is still open and its player has not ordered (or deployed) meanwhile."""
        database = self.services.database
        try:
            found = await self._prompt_of(prompt)
            if found is None:
                await delivery_repo.prompt_delivered(database, prompt)
                return
            tournament, message, board = found
            done = await self._deliver_prompt(
                tournament,
                prompt.player_id,
                prompt.kind,
                message,
                board,
                self._channel(tournament),
                attempts=prompt.attempts,
            )
        except Exception:
            log.exception(
                "Sending user %s the prompt of tournament #%d again failed",
                prompt.player_id,
                prompt.tournament_id,
            )
            attempts = prompt.attempts + 1
            later = self.services.clock() + retry_delay(attempts)
            await delivery_repo.keep_undelivered(
                database,
                UndeliveredPrompt(
                    prompt.tournament_id,
                    prompt.player_id,
                    prompt.kind,
                    prompt.turn,
                    prompt.guild_id,
                    attempts,
                    later,
                ),
            )
            return
        if done:
            await delivery_repo.prompt_delivered(database, prompt)

    async def _prompt_of(
        self, prompt: UndeliveredPrompt
    ) -> tuple[TournamentRow, dict[str, Any], Picture] | None:
        """The prompt to send again, drawn afresh (the player's arrangement or stored order as
        it stands, in the player's palette); None if it is no longer wanted."""
        locale = await self.services.locales.of_player(prompt.player_id)
        palette = await self.services.palettes.of_player(prompt.player_id)
        tournament_id = prompt.tournament_id
        if prompt.kind is PromptKind.ORDER:
            turn = await self.services.orders.turn_prompts(tournament_id, prompt.turn)
            menus = [] if turn is None else turn.menus
            menu = next((m for m in menus if m.seat.player_id == prompt.player_id), None)
            if menu is None or menu.current is not None:
                return None
            names = (await self.services.tournaments.view(tournament_id)).names
            board = await own_order_board(self.drawing, menu, names, Voice(locale), palette)
            return menu.tournament, turn_prompt(menu, locale), board
        step = await self.services.deployments.prompts(tournament_id)
        deploying = [] if step is None or step.tournament.turn != prompt.turn else step.menus
        found = next((m for m in deploying if m.seat.player_id == prompt.player_id), None)
        if found is None or found.current is not None:
            return None
        names = (await self.services.tournaments.view(tournament_id)).names
        board = await deployment_board(self.drawing, found, names, locale, palette=palette)
        return found.tournament, deployment_prompt(found, locale), board

    async def prompt_everyone_again(self) -> int:
        """After a restore: every player of every open turn (or deployment step) who has not
        ordered (or deployed) is to be prompted again, as the turn's first prompt may have been
        sent from a database that is gone. How many prompts were asked for."""
        database = self.services.database
        now = self.services.clock()
        running = await tournament_repo.list_tournaments(
            database, statuses=(TournamentStatus.RUNNING,), limit=10_000
        )
        asked = 0
        for tournament in running:
            kind = PromptKind.DEPLOY if tournament.deploying else PromptKind.ORDER
            if kind is PromptKind.DEPLOY:
                step = await self.services.deployments.prompts(tournament.id)
                waiting = [] if step is None else [m.seat for m in step.menus if m.current is None]
            else:
                turn = await self.services.orders.turn_prompts(tournament.id, tournament.turn)
                waiting = [] if turn is None else [m.seat for m in turn.menus if m.current is None]
            for seat in waiting:
                if seat.player_id is None:
                    continue
                await delivery_repo.keep_undelivered(
                    database,
                    UndeliveredPrompt(
                        tournament.id,
                        seat.player_id,
                        kind,
                        tournament.turn,
                        tournament.guild_id,
                        0,
                        now,
                    ),
                )
                asked += 1
        return asked

    async def _post_waiting(self, announcements: list[Announcement]) -> None:
        """One tournament's waiting announcements, in order; a failed one is tried later, and
        the ones after it wait for it."""
        for announcement in announcements:
            try:
                if not await self._post_one(announcement):
                    return
            except Exception as error:
                if is_outage(error):
                    return  # told once by the database; the next look tries again
                log.exception(
                    "Posting %s %d of tournament #%d failed",
                    announcement.kind,
                    announcement.turn,
                    announcement.tournament_id,
                )
                await self._postpone(announcement.key, error)
                return

    async def _post_one(self, announcement: Announcement) -> bool:
        """Post one waiting announcement; False if it failed in passing (see :meth:`_once`)."""
        tournament_id, kind = announcement.tournament_id, announcement.kind
        database = self.services.database
        if kind is AnnouncementKind.READY:
            await announcement_repo.announced(database, announcement.key)
            self._show_ready_soon(tournament_id)
            return True
        tournament = await tournament_repo.get_tournament(self.services.database, tournament_id)
        if kind is AnnouncementKind.START:
            return await self._once(announcement.key, tournament, self._show_start(tournament_id))
        if kind is AnnouncementKind.TURN and announcement.turn == 0:  # the reveal (R-V1c)
            return await self._once(announcement.key, tournament, self._show_reveal(tournament_id))
        if kind is AnnouncementKind.END:
            return await self._once(announcement.key, tournament, self._show_end(tournament_id))
        resolved = await self.services.tournaments.resolved_turn(tournament_id, announcement.turn)
        changes = await self._logged_changes(tournament_id) if resolved.finished else None
        return await self._once(announcement.key, tournament, self._show_turn(resolved, changes))

    async def _once(
        self,
        key: tuple[int, int, str],
        tournament: TournamentRow,
        work: Coroutine[Any, Any, None],
    ) -> bool:
        """Post an announcement of this process's server once: not while it is being posted
        here, nor after it was crossed off (posted before a restart, or by :meth:`follow`).
        A tournament without a channel has nothing kept (its prompts go by DM).

        False if its board failed to post in passing (:class:`Undelivered`): it stays in the
        database, due again after a delay that grows with each failure, and is posted then,
        here or after a restart; the tournament's later announcements wait for it."""
        if not self.owns(tournament) or key in self._underway:
            work.close()
            return True
        self._underway.add(key)
        try:
            kept = tournament.channel_id is not None
            database = self.services.database
            if kept and not await announcement_repo.announcement_waiting(database, key):
                work.close()
                return True
            await work
            if kept:
                await announcement_repo.announced(database, key)
        except Undelivered as failure:
            await self._postpone(key, failure)
            return False
        finally:
            self._underway.discard(key)
        return True

    async def _postpone(self, key: tuple[int, int, str], failure: Exception) -> None:
        """An announcement failed: try it again later, each time after a longer wait."""
        attempts = await announcement_repo.postpone_announcement(
            self.services.database, key, now=self.services.clock(), delay=retry_delay
        )
        tournament_id, turn, kind = key
        if self.metrics is not None:
            self.metrics.delivery_failed("post")
        log.warning(
            "Could not post %s %d of tournament #%d (%s); trying again in %.0f s (attempt %d)",
            kind,
            turn,
            tournament_id,
            failure,
            retry_delay(attempts),
            attempts,
        )

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

    async def series_news(self, news: SeriesNews) -> None:
        """A series' round begun (its pairings, its duels' boards follow) or its final table,
        in the series' channel, in the channel's language. Told once: a post Discord refuses
        for a passing reason is tried again at the next tick; a channel gone or closed to
        the bot is given up (its duels' own boards meet the same fate, and say so)."""
        series = news.view.series
        if not self.shards.owns(series.guild_id):
            return
        if series.channel_id is not None:
            locale = await self.services.locales.of_server(series.guild_id)
            channel = self.client.get_partial_messageable(series.channel_id)
            try:
                async with self.pace.turn(channel.id):
                    await channel.send(
                        embed=news_embed(news, Voice(locale)),
                        allowed_mentions=NO_MENTIONS,
                        nonce=message_nonce("series", series.id, news.round),
                    )
            except discord.HTTPException as error:
                log.warning(
                    "Could not post round %d of series #%d: %s", news.round, series.id, error
                )
                if not isinstance(error, discord.Forbidden | discord.NotFound):
                    return
        await self.services.series.told(news)
        for tournament_id in news.tournament_ids:
            self.announce_start(tournament_id)

    async def pause_ended(self, change: ClockChange) -> None:
        """A pause lasted its 7 days and ended by itself: everyone concerned is told."""
        await self._tell_clock(change, in_channel=True, by_itself=True)

    async def remind(self, reminder: Reminder) -> None:
        """DM a player who has not ordered yet. If their DMs are closed, the reminder waits
        for their next command and is shown to them privately: a mention in the channel would
        tell everyone who has not ordered (R-O4)."""
        tournament = reminder.tournament
        locale = await self.services.locales.of_player(reminder.player_id)
        notice = (
            digest_notice(reminder.digest)
            if reminder.digest
            else reminder_notice(tournament.id, tournament.turn, reminder.deadline)
        )
        said = clipped(notice.text(locale), MESSAGE_LIMIT)
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
            waiting = [
                (combat.tournament_id, combat.turn, combat.deadline)
                for combat in reminder.digest
                if combat.deadline is not None
            ] or [(tournament.id, tournament.turn, reminder.deadline)]
            for tournament_id, turn, deadline in waiting:
                await announcement_repo.keep_private_reminder(
                    self.services.database, reminder.player_id, tournament_id, turn, deadline
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

    async def _channel_palette(self, tournament: TournamentRow) -> str:
        """The palette of the boards posted in the tournament's channel: its server's."""
        return await self.services.palettes.of_server(tournament.guild_id)

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

    async def _say(
        self, tournament: TournamentRow, text: str, view: discord.ui.View | None = None
    ) -> None:
        """A line of the bot's in the tournament's channel (no board)."""
        channel = self._channel(tournament)
        if channel is None:
            return
        extra: dict[str, Any] = {} if view is None else {"view": view}
        try:
            async with self.pace.turn(channel.id):
                await channel.send(
                    clipped(text, MESSAGE_LIMIT), allowed_mentions=NO_MENTIONS, **extra
                )
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

    async def _regents_begun(self, tournament_id: int) -> None:
        """A regent took a seat over as the turn resolved (its player missed it and chose
        that, R-T11): the player is told privately how to take it back."""
        for begun in await self.services.regents.begun(tournament_id):
            player = begun.seat.player_id
            if player is not None:
                await self._tell_player(player, regent_begun_dm(begun))

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
        images: Sequence[Picture],
        *,
        nonce: tuple[object, ...],
    ) -> None:
        """What the channel was shown, by DM to each follower in the follower's language: the
        very board drawn for the channel, never drawn again (its words are the channel's). A
        follower whose DMs refuse the bot, who left the server or who can no longer view the
        channel stops following. Each DM carries a nonce of the
        channel's post and the follower, so a post taken up again after a crash does not reach
        a follower twice."""
        followers = await self.services.following.followers(tournament.id)
        if not followers:
            return
        sending = asyncio.Semaphore(FOLLOWER_DMS_AT_ONCE)

        async def send(player_id: int) -> None:
            seen = await member_sees_channel(
                self.client, tournament.guild_id, tournament.channel_id, player_id
            )
            if not seen:
                # Gone from the server or the channel hidden from them (issue #35): the
                # channel's boards are not theirs to see. If Discord could not say, this
                # board waits for no one and the follower stays.
                if seen is False:
                    await self.services.following.drop_follower(tournament.id, player_id)
                return
            locale = await self.services.locales.of_player(player_id)
            heading = follower_heading(tournament, content).text(locale)
            embed = shown.embed(locale)
            files = [image.file() for image in images]
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
        except Exception as error:
            if is_outage(error):
                log.info("Not done while the database is unavailable: %s", what)
            else:
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
        board = await boards.picture(locale, await self._channel_palette(tournament))
        message_id = await self._post(
            tournament,
            content.text(locale),
            shown.embed(locale),
            [board],
            nonce=nonce,
        )
        channel = self._channel(tournament)
        database = self.services.database
        if message_id is not None and channel is not None:
            line = TurnLine(tournament.id, tournament.turn, channel.id, message_id)
            await announcement_repo.keep_turn_line(database, line)
        else:  # no board: the first order posts a line of its own
            await announcement_repo.forget_turn_line(database, tournament.id)
        players = [menu.seat.player_id for menu in prompts.menus]
        palettes = await self.services.palettes.of_players(p for p in players if p is not None)
        await asyncio.gather(
            *(self._prompt(menu, boards, channel, palettes) for menu in prompts.menus)
        )
        await self._tell_followers(tournament, content, shown, [board], nonce=nonce)

    async def _post(
        self,
        tournament: TournamentRow,
        content: str | None,
        embed: discord.Embed,
        images: Sequence[Picture],
        *,
        nonce: tuple[object, ...],
    ) -> int | None:
        """Post a board in the tournament's channel; the message id, None if Discord refused
        it (the host is told); :class:`Undelivered` if it failed in passing. Posted again with
        the same ``nonce`` (after a crash), Discord keeps the first."""
        channel = self._channel(tournament)
        if channel is None:
            return None
        files = [image.file() for image in images]
        try:
            async with self.pace.turn(channel.id):
                message_id = await post_message(
                    self.client,
                    channel.id,
                    content,
                    embed=embed,
                    files=files,
                    allowed_mentions=NO_MENTIONS,
                    nonce=message_nonce(*nonce),
                )
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if transient(error):  # its announcement is tried again (see _once)
                raise Undelivered(error) from error
            assert isinstance(error, discord.HTTPException)
            log.warning("Could not post in the channel of tournament #%d: %s", tournament.id, error)
            if isinstance(error, discord.Forbidden) and error.code in NOT_ALLOWED:
                await self._tell_host(tournament)
            return None
        self._hosts_told.discard(tournament.id)
        return message_id

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
        palette = await self._channel_palette(tournament)
        replay_text = replay_alt_text(
            locale, boards.caption(locale), replay.turns, outcome_message(tournament.outcome, names)
        )
        images = [
            await boards.picture(locale, palette),
            Picture(replay.gif, REPLAY_FILE, replay_text),
        ]
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
        self,
        menu: OrderMenu,
        boards: Boards,
        channel: discord.PartialMessageable | None,
        palettes: Mapping[int, str] | None = None,
    ) -> None:
        """One player's secret prompt for the open turn, by DM (see :meth:`_deliver_prompt`);
        ``palettes``: the turn's players' palettes, read at once (else the player's is read)."""
        player_id = menu.seat.player_id
        assert player_id is not None
        locale = await self.services.locales.of_player(player_id)
        palette = palettes.get(player_id) if palettes is not None else None
        if palette is None:
            palette = await self.services.palettes.of_player(player_id)
        board = await boards.picture(locale, palette)
        await self._deliver_prompt(
            menu.tournament, player_id, PromptKind.ORDER, turn_prompt(menu, locale), board, channel
        )

    async def _deliver_prompt(
        self,
        tournament: TournamentRow,
        player_id: int,
        kind: PromptKind,
        prompt: dict[str, Any],
        board: Picture,
        channel: discord.PartialMessageable | None,
        *,
        attempts: int = 0,
    ) -> bool:
        """Send one player's secret prompt (to order, or to deploy) by DM. Whether it is done
        with: it arrived, or Discord refused it for good (closed DMs: the channel is asked to
        tell the player, once per combat). One that failed in passing (:func:`transient`) is
        kept in the database to be sent again after a growing delay (:meth:`_prompt_again`),
        until :data:`PROMPT_ATTEMPTS` tries; it carries the same nonce each time."""
        if kind is PromptKind.ORDER:
            # The deadline tells a turn reopened by an undo from its first opening.
            nonce = message_nonce(
                "prompt", tournament.id, tournament.turn, player_id, tournament.deadline
            )
        else:
            nonce = message_nonce("deploy", tournament.id, player_id)
        try:
            delivered = await send_dm(
                self.client, player_id, file=board.file(), nonce=nonce, **prompt
            )
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if not transient(error):
                log.warning(
                    "Could not send user %s the prompt of tournament #%d: %s",
                    player_id,
                    tournament.id,
                    error,
                )
                return True
            return await self._prompt_later(tournament, player_id, kind, attempts + 1, error)
        if not delivered and channel is not None:
            await self._ask_in_channel(tournament, player_id, kind, channel)
        return True

    async def _prompt_later(
        self,
        tournament: TournamentRow,
        player_id: int,
        kind: PromptKind,
        attempts: int,
        error: BaseException,
    ) -> bool:
        """Keep a prompt that failed in passing to send it again; True if it is given up."""
        if self.metrics is not None:
            self.metrics.delivery_failed("prompt")
        if attempts >= PROMPT_ATTEMPTS:
            if self.metrics is not None:
                self.metrics.prompts_given_up.inc()
            log.warning(
                "Gave up sending user %s the prompt of tournament #%d after %d tries: %s",
                player_id,
                tournament.id,
                attempts,
                error,
            )
            return True
        delay = retry_delay(attempts)
        await delivery_repo.keep_undelivered(
            self.services.database,
            UndeliveredPrompt(
                tournament.id,
                player_id,
                kind,
                tournament.turn,
                tournament.guild_id,
                attempts,
                self.services.clock() + delay,
            ),
        )
        log.warning(
            "Could not send user %s the prompt of tournament #%d (%s: %s); trying again in "
            "%.0f s (attempt %d)",
            player_id,
            tournament.id,
            type(error).__name__,
            error,
            delay,
            attempts,
        )
        return False

    async def _ask_in_channel(
        self,
        tournament: TournamentRow,
        player_id: int,
        kind: PromptKind,
        channel: discord.PartialMessageable,
    ) -> None:
        """A player's DMs are closed: the channel asks them, once per combat, to use /order (or
        /deploy) there instead. This happens only as a turn (or the step) opens, before anyone
        has ordered, so it tells the channel nothing about orders (R-O4)."""
        try:
            if await announcement_repo.claim_closed_dms_notice(
                self.services.database, tournament.id, player_id, now=self.services.clock()
            ):
                deploying = kind is PromptKind.DEPLOY
                async with self.pace.turn(channel.id):
                    await channel.send(
                        **closed_dms_notice(player_id, tournament.id, deploying=deploying)
                    )
        except discord.HTTPException as error:
            log.warning(
                "Could not ask user %s in the channel of tournament #%d: %s",
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
                    await edit_content(self.client, channel.id, line.message_id, line_text)
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
