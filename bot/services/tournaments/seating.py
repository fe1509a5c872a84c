"""Announcing a tournament and seating its players: create, join, leave, start, cancel (R-T1, R-T2)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace

from bot.i18n import Message, Named
from bot.i18n.refusals import refusal, thing
from bot.services.changes import Changes
from bot.services.economy import EconomyService
from bot.services.programs import program_seat_names
from bot.services.request import Request
from bot.services.settings import NO_COMPUTERS, CreateOptions
from bot.services.tournaments.base import (
    COMPUTER_LEVELS,
    DEFAULT_STRATEGY,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Joined,
    NotSeated,
    check_host,
    check_server,
    emperor_of_player,
    level_of_strategy,
    strategy_for_level,
    unknown_level,
)
from bot.services.variants import VariantRefused, check_battlefield, ruleset_options, variant_words
from data.catalog import battlefield_locks, battlefield_names, load_battlefield
from data.db import Database
from data.errors import ConstraintBroken, InsufficientFunds, InvalidValue, NotFound, Refusal
from data.repositories import chests as chest_repo
from data.repositories import economy as economy_repo
from data.repositories import players as player_repo
from data.repositories import programs as program_repo
from data.repositories import requests
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as repo
from data.rows import (
    MAX_AMOUNT,
    ChestRow,
    ChestTerms,
    Prize,
    ProgramRow,
    SeatRow,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Battlefield,
    ConflictPolicy,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    EngineError,
    Goal,
    GoalKind,
    Ruleset,
    Setup,
)
from engine.rules import DEFAULT_DOMAINS_PERCENT, choice, turn_limit_for

PROGRAM_NUMBER = re.compile(r"#?([0-9]{1,18})")
"""A program named by its number (``#12``): how the choices of /tournament seat give it."""


@dataclass(frozen=True)
class Terms:
    """A tournament as its host chose it in /tournament create, option by option: those a
    server gives defaults for (``options``: the host's, else the server's, else built in) and
    the others as given (None: left out). :meth:`Seating.announce` makes the ruleset, the
    goal, the stakes, the prize and the chests of them."""

    battlefield: str
    options: CreateOptions
    kind: TournamentKind = TournamentKind.TRAINING
    survive_pieces: int | None = None
    survive_turns: int | None = None
    domains_percent: int | None = None
    """The domains goal's percentage as the host gave it (R-V6c); its default is an option."""
    turn_limit: int | None = None
    stake: int = 0
    wealth_stake: str | None = None
    """Wealth every dynasty stakes, as the host wrote it (``"50 silver"``)."""
    prize_reputation: int = 0
    prize_wealth: str | None = None
    """Wealth the host's dynasty puts up, as the host wrote it (``"100 gold"``)."""
    chests: bool = False
    chest_minimum: int | None = None
    chest_maximum: int | None = None
    chest_reputation: int | None = None
    programs: bool = False
    """Open to players' programs: their owners may enter them (issue #37)."""
    min_reliability: int | None = None
    """The least reliability (percent) a player needs to join (R-T12); None: anyone."""


@dataclass(frozen=True)
class ProgramSeated:
    """A program given a seat: the seat (and the start, if it was the last free one), what
    boards call it, and whether its owner entered it (else a host seated it)."""

    joined: Joined
    name: Message
    by_owner: bool


class Seating:
    """A tournament from its announcement to its start (or its cancellation).

    Every change is a player's :class:`Request`: the same request delivered twice changes the
    game once (see :mod:`data.repositories.requests`), and a tournament is reached from its
    own server only (:func:`check_server`).
    """

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        economy: EconomyService,
        changes: Changes | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self.economy = economy
        """Reads the wealth a host writes for a prize or a stake, as a trade's is read."""
        self.changes = changes or Changes()
        """Told each tournament whose seats changed, that began or was cancelled."""

    async def announce(self, request: Request, terms: Terms) -> TournamentRow:
        """Announce the tournament a host chose (:class:`Terms`) in the request's channel.

        A rule the battlefield cannot offer, when the server's defaults chose it, is refused
        naming those defaults, so the host knows which option to give instead."""
        try:
            return await self._announce(request, terms)
        except (InvalidValue, EngineError, VariantRefused) as error:
            if not terms.options.from_server:
                raise
            said = refusal(error)
            raise Refusal(
                "server-chose",
                refusal=said if isinstance(said, Message) else str(error),
                choices=terms.options.server_choices(),
            ) from error

    async def _announce(self, request: Request, terms: Terms) -> TournamentRow:
        options = terms.options
        wealth_stake = await self._wealth(terms.wealth_stake, "wealth_stake")
        chests = chest_terms(terms)
        prize = Prize(
            reputation=terms.prize_reputation,
            wealth=await self._wealth(terms.prize_wealth, "prize_wealth"),
        )
        level = str(options["computers"])
        strategy = strategy_for_level(level) if level != NO_COMPUTERS else DEFAULT_STRATEGY
        ruleset = self.ruleset_of(terms)
        return await self.create(
            request,
            battlefield=terms.battlefield,
            ruleset=ruleset,
            kind=terms.kind,
            turn_seconds=int(options["turn_length"]),
            stake=terms.stake,
            prize=prize,
            wealth_stake=wealth_stake,
            allow_computers=level != NO_COMPUTERS,
            computer_strategy=strategy,
            chests=chests,
            allow_programs=terms.programs,
            min_reliability=terms.min_reliability,
        )

    def ruleset_of(self, terms: Terms) -> Ruleset:
        """The rules a host's options (else the server's defaults) make: policy, emperors,
        goal, turn limit and the variants of section 10 (R-V0a)."""
        options = terms.options
        goal = chosen_goal(
            str(options["goal"]),
            terms.survive_pieces,
            terms.survive_turns,
            terms.domains_percent,
            int(options["domains_percent"]),
        )
        variants = ruleset_options(variant_words(str(options["variants"])))
        ruleset = Ruleset(
            policy=choice(ConflictPolicy, options["policy"], "conflict policy"),
            emperor_taken=choice(EmperorTaken, options["emperor_taken"], "emperor-taken option"),
            emperor_takes=choice(EmperorTakes, options["emperor_takes"], "emperor-takes option"),
            emperor_duel=choice(EmperorDuel, options["emperor_duel"], "emperor-duel option"),
            goal=goal,
            turn_limit=turn_limit_for(
                self.shipped_battlefield(terms.battlefield), terms.turn_limit
            ),
        )
        if variants:  # the variants of section 10 (R-V0a), checked by variant_words
            ruleset = Ruleset.from_options({**ruleset.to_dict(), **variants})
        return ruleset

    async def _wealth(self, text: str | None, option: str) -> dict[str, int]:
        """Assets a host wrote for a prize or a stake ("100 gold"), read as a trade's are (the
        same names and bounds); keys are not wealth that can be shared."""
        if text is None:
            return {}
        bundle = await self.economy.bundle(text)
        if bundle.items:
            raise Refusal("not-wealth", option=Named("tournament create", option))
        return dict(bundle.assets)

    def shipped_battlefield(self, name: str) -> Battlefield:
        """The shipped battlefield ``name``; another name is refused with the shipped ones."""
        if name not in battlefield_names():
            raise Refusal(
                "no-battlefield",
                battlefield=name,
                battlefields=", ".join(battlefield_names()),
            )
        return load_battlefield(name)

    async def create(
        self,
        request: Request,
        *,
        battlefield: str,
        ruleset: Ruleset,
        kind: TournamentKind,
        turn_seconds: int,
        stake: int = 0,
        prize: Prize | None = None,
        wealth_stake: Mapping[str, int] | None = None,
        allow_computers: bool = False,
        chests: ChestTerms | None = None,
        computer_strategy: str = DEFAULT_STRATEGY,
        allow_programs: bool = False,
        min_reliability: int | None = None,
    ) -> TournamentRow:
        """Announce a tournament in the request's channel, hosted by its player. A gift's wealth prize is paid by the host's dynasty into
        escrow now (R-T4); an honour tournament's ``wealth_stake`` is paid by each dynasty as
        it takes its seat; ``chests`` announces the chests variant (R-T9, serious tournaments
        only). Training takes none of them (nor a reputation prize). With ``allow_computers``,
        empty seats get ``computer_strategy`` players when the host starts it (R-T7); with
        ``allow_programs``, players may enter their programs (:meth:`seat_program`); with
        ``min_reliability``, a player whose reliability is lower may not join (R-T12)."""
        host_player_id = request.player_id
        prize = prize or Prize()
        check_terms(kind, stake, prize, wealth_stake, chests)
        shipped = self.shipped_battlefield(battlefield)
        check_battlefield(ruleset, shipped)
        try:
            ruleset.check_battlefield(shipped)
        except EngineError:  # the one thing a battlefield refuses of a ruleset
            raise InvalidValue("no-treasure-tile", battlefield=battlefield) from None
        if computer_strategy not in COMPUTER_LEVELS.values():
            raise unknown_level(level_of_strategy(computer_strategy))
        if allow_programs and ruleset.setup is Setup.HIDDEN:
            raise Refusal("programs-hidden-setup")
        if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise Refusal("turn-length")
        if min_reliability is not None and not 1 <= min_reliability <= 100:
            raise Refusal("min-reliability-range")
        if battlefield in battlefield_locks():
            key = economy_repo.battlefield_key(battlefield)
            host = await player_repo.dynasty_of_player(self.database, host_player_id)
            if host is None or key not in await economy_repo.items_of(self.database, host.id):
                raise Refusal("battlefield-locked", battlefield=battlefield, key=key)
        if (
            prize.wealth
            and await player_repo.dynasty_of_player(self.database, host_player_id) is None
        ):
            raise Refusal("prize-needs-dynasty")
        try:
            async with requests.once(
                self.database, request.id, "tournament create", now=self.clock()
            ):
                await player_repo.ensure_player(self.database, host_player_id, now=self.clock())
                tournament = await repo.create_tournament(
                    self.database,
                    battlefield=shipped,
                    ruleset=ruleset,
                    kind=kind,
                    turn_seconds=turn_seconds,
                    host_player_id=host_player_id,
                    guild_id=request.guild_id,
                    channel_id=request.channel_id,
                    stake=stake,
                    prize=prize,
                    wealth_stake=wealth_stake,
                    allow_computers=allow_computers,
                    chests=chests,
                    computer_strategy=computer_strategy,
                    now=self.clock(),
                )
                if allow_programs:
                    await program_repo.open_to_programs(self.database, tournament.id)
                    tournament = replace(tournament, allow_programs=True)
                if min_reliability is not None:
                    await term_repo.require_reliability(
                        self.database, tournament.id, min_reliability
                    )
                    tournament = replace(tournament, min_reliability=min_reliability)
                return tournament
        except InsufficientFunds as short:
            raise Refusal(
                "prize-unpaid",
                needed=short.needed,
                what=thing(short.what),
                available=short.available,
            ) from None

    async def join(
        self,
        request: Request,
        tournament_id: int,
        emperor_name: str,
        *,
        deposit: int | None = None,
    ) -> Joined:
        """Seat the player with one of its emperors (R-T1); a full tournament starts at once.

        In a chests tournament (R-T9) the seat and its secret ``deposit`` of gold coins are
        taken together or not at all: there is never a seat without its chest."""
        player_id = request.player_id
        emperor = await emperor_of_player(self.database, player_id, emperor_name)
        chest: ChestRow | None = None

        async def take(tournament: TournamentRow) -> SeatRow:
            nonlocal chest
            seat = await repo.add_player_seat(
                self.database,
                tournament_id,
                None,
                player_id=player_id,
                emperor_id=emperor.id,
                now=self.clock(),
            )
            if deposit is not None:
                chest = await chest_repo.deposit(
                    self.database,
                    tournament_id,
                    seat.seat,
                    emperor.dynasty_id,
                    deposit,
                    now=self.clock(),
                )
            return seat

        try:
            joined = await self._take_seat(request, tournament_id, take, deposit)
        except InsufficientFunds as short:
            raise Refusal(
                "stake-unpaid",
                tournament=str(tournament_id),
                needed=short.needed,
                what=thing(short.what),
                available=short.available,
            ) from None
        return replace(joined, chest=chest)

    async def join_casual(self, request: Request, tournament_id: int) -> Joined:
        """A casual player: an anonymous emperor, nothing recorded (R-T2; training only)."""
        player_id = request.player_id
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        if tournament.kind.is_serious:
            raise Refusal(
                "casual-training-only",
                tournament=str(tournament_id),
                kind=tournament.kind.value,
            )
        await player_repo.ensure_player(self.database, player_id, now=self.clock())
        return await self._take_seat(
            request,
            tournament_id,
            lambda _: repo.add_casual_seat(
                self.database, tournament_id, None, player_id=player_id, now=self.clock()
            ),
        )

    async def seat_program(
        self, request: Request, tournament_id: int, program: str
    ) -> ProgramSeated:
        """Seat a player's program (issue #37) on the next free seat, like a computer player:
        its owner enters it in a tournament open to programs; the host (or a manager of the
        tournament's server) seats any program, which opens the tournament to programs. The
        last free seat starts the combat, as :meth:`join`'s does. A program seat deposits no
        chest (R-T9, as a computer's).

        ``program`` is one of the caller's programs by name, else a program's number
        (``#12``, what the command's choices give). A revoked program, a program seated there
        already, and (in a serious tournament) a program beside its owner or another of its
        owner's programs are refused by the database (migrations 0014, 0017). A tournament
        whose setup is hidden (R-V1c) is refused: the API takes no deployment, and a program
        seated there would deploy nothing while its rivals chose theirs.
        """
        found = await self._program(request.player_id, program)
        by_owner = found.player_id == request.player_id

        async def take(tournament: TournamentRow) -> SeatRow:
            if tournament.ruleset.setup is Setup.HIDDEN:
                raise Refusal(
                    "program-hidden-setup", tournament=str(tournament_id), program=found.name
                )
            hosting = tournament.host_player_id == request.player_id or request.is_manager
            if not tournament.allow_programs and hosting:
                await program_repo.open_to_programs(self.database, tournament_id)
            elif not by_owner and not hosting:
                check_host(tournament, request, "seat a program")
            return await repo.add_program_seat(
                self.database, tournament_id, None, program_id=found.id, now=self.clock()
            )

        joined = await self._take_seat(request, tournament_id, take, chestless=True)
        names = await program_seat_names(self.database, [joined.seat])
        return ProgramSeated(joined, names[joined.seat.dynasty], by_owner)

    async def _program(self, player_id: int, program: str) -> ProgramRow:
        """The player's own program called ``program``, else the program numbered so."""
        try:
            return await program_repo.program_named(self.database, player_id, program)
        except NotFound:
            number = PROGRAM_NUMBER.fullmatch(program.strip())
            if number is None:
                raise
        try:
            return await program_repo.get_program(self.database, int(number[1]))
        except NotFound:
            raise NotFound("program", program.strip()) from None

    async def leave(self, request: Request, tournament_id: int) -> None:
        async with requests.once(self.database, request.id, "tournament leave", now=self.clock()):
            check_server(await repo.get_tournament(self.database, tournament_id), request.guild_id)
            seat = await self._seat_of(tournament_id, request.player_id)
            await repo.remove_seat(self.database, tournament_id, seat.seat, now=self.clock())
        self.changes.tell(tournament_id)

    async def start(self, request: Request, tournament_id: int) -> TournamentTable:
        """Start now: the host or a manager of its server; empty seats get computer players if
        allowed. One transaction, so a player taking the last seat at the same moment either
        is seated before the start or finds the tournament begun, never half of each. The
        computers order afterwards, each in its time (:meth:`play_computers`)."""
        async with requests.once(self.database, request.id, "tournament start", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            check_host(tournament, request, "start")
            if tournament.status is not TournamentStatus.OPEN:
                raise _not_startable(tournament)
            if tournament.allow_computers:
                taken = {seat.seat for seat in await repo.list_seats(self.database, tournament_id)}
                for seat in range(tournament.seat_count):
                    if seat not in taken:
                        await repo.add_computer_seat(
                            self.database,
                            tournament_id,
                            seat,
                            strategy=tournament.computer_strategy,
                            now=self.clock(),
                        )
            table = await repo.start_tournament(self.database, tournament_id, now=self.clock())
        self.changes.tell(tournament_id)
        return table

    async def cancel(self, request: Request, tournament_id: int) -> TournamentRow:
        """Call it off: nothing is recorded, stakes, prizes and bets return (R-T4, R-T6); a
        training tournament is forgotten at once."""
        async with requests.once(self.database, request.id, "tournament cancel", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            check_host(tournament, request, "cancel")
            cancelled = await repo.cancel_tournament(self.database, tournament_id, now=self.clock())
        self.changes.tell(tournament_id)
        return cancelled

    async def _take_seat(
        self,
        request: Request,
        tournament_id: int,
        take: Callable[[TournamentRow], Awaitable[SeatRow]],
        deposit: int | None = None,
        *,
        chestless: bool = False,
    ) -> Joined:
        """The next free seat and, when it was the last one, the start, in one transaction:
        players joining at the same moment are seated one after the other, each on a free
        seat, and exactly one of them starts the combat. A ``chestless`` seat (a program's,
        like a computer's) deposits no chest, whatever the tournament."""
        async with requests.once(self.database, request.id, "tournament join", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            check_server(tournament, request.guild_id)
            if tournament.status is not TournamentStatus.OPEN:
                raise not_joinable(tournament)
            if not chestless and (tournament.chests is None) != (deposit is None):
                raise _deposit_refused(tournament)
            try:
                seat = await take(tournament)
            except ConstraintBroken as broken:
                if broken.rule != "reliability_too_low":
                    raise
                raise await self._unreliable(tournament, request.player_id) from None
            started = await self._start_if_full(tournament_id)
        self.changes.tell(tournament_id)
        return Joined(seat, started)

    async def _unreliable(self, tournament: TournamentRow, player_id: int) -> Refusal:
        """The refusal of a player less reliable than the host asked (R-T12), naming both."""
        record = await term_repo.reliability(self.database, player_id)
        return Refusal(
            "join-unreliable",
            tournament=str(tournament.id),
            percent=record.percent or 0,
            ordered=record.ordered,
            due=record.due,
            least=tournament.min_reliability or 0,
        )

    async def _start_if_full(self, tournament_id: int) -> TournamentTable | None:
        tournament = await repo.get_tournament(self.database, tournament_id)
        seats = await repo.list_seats(self.database, tournament_id)
        if tournament.status is TournamentStatus.OPEN and len(seats) == tournament.seat_count:
            return await repo.start_tournament(self.database, tournament_id, now=self.clock())
        return None

    async def _seat_of(self, tournament_id: int, player_id: int) -> SeatRow:
        for seat in await repo.list_seats(self.database, tournament_id):
            if seat.player_id == player_id:
                return seat
        raise NotSeated(tournament_id)


def not_joinable(tournament: TournamentRow) -> Refusal:
    """Why a tournament's seats are closed: it began, or is over."""
    return Refusal("seats-closed", tournament=str(tournament.id), status=tournament.status.value)


def _deposit_refused(tournament: TournamentRow) -> Refusal:
    """A deposit where there are no chests, or none where there are (R-T9)."""
    if tournament.chests is None:
        return Refusal("deposit-unwanted", tournament=str(tournament.id))
    return Refusal(
        "deposit-needed",
        tournament=str(tournament.id),
        minimum=tournament.chests.minimum,
        maximum=tournament.chests.maximum,
    )


def _not_startable(tournament: TournamentRow) -> Refusal:
    return Refusal("not-startable", tournament=str(tournament.id), status=tournament.status.value)


def chosen_goal(
    kind: str,
    pieces: int | None,
    turns: int | None,
    percent: int | None = None,
    default_percent: int = DEFAULT_DOMAINS_PERCENT,
) -> Goal:
    """The goal a host chose: survive takes its numbers (R-G1), domains its percentage (the
    host's ``percent``, else ``default_percent``: R-V6c), the others none."""
    goal_kind = choice(GoalKind, kind, "goal")
    if percent is not None and goal_kind is not GoalKind.DOMAINS:
        raise Refusal("domains-percent-only")
    if goal_kind is GoalKind.SURVIVE:
        if turns is None:
            raise Refusal("survive-turns")
        return Goal(goal_kind, pieces=pieces or 0, turns=turns)
    if pieces is not None or turns is not None:
        raise Refusal("survive-only")
    if goal_kind is GoalKind.DOMAINS:
        chosen = default_percent if percent is None else percent
        if not 1 <= chosen <= 100:
            raise Refusal("domains-percent", percent=chosen)
        return Goal(goal_kind, percent=chosen)
    return Goal(goal_kind)


def chest_terms(terms: Terms) -> ChestTerms | None:
    """The chests variant as the host chose it (R-T9): None without chests; the default
    of each term the host left out."""
    asked = (terms.chest_minimum, terms.chest_maximum, terms.chest_reputation)
    if not terms.chests:
        if asked != (None, None, None):
            raise Refusal("chest-options")
        return None
    default = ChestTerms()
    chosen = ChestTerms(
        default.minimum if terms.chest_minimum is None else terms.chest_minimum,
        default.maximum if terms.chest_maximum is None else terms.chest_maximum,
        default.reputation if terms.chest_reputation is None else terms.chest_reputation,
    )
    return chosen


def check_terms(
    kind: TournamentKind,
    stake: int,
    prize: Prize,
    wealth_stake: Mapping[str, int] | None,
    chests: ChestTerms | None,
) -> None:
    """What a tournament's type allows (R-T4, R-T6, R-T9): stakes in honour only, a prize in a
    gift only, nothing at all in training, and chests in serious types within their range.
    The database guards the same rules; refused here first, in words."""
    if kind is TournamentKind.TRAINING and (prize.reputation or prize.wealth or wealth_stake):
        raise Refusal("training-terms")
    if (prize.reputation or prize.wealth) and kind is not TournamentKind.GIFT:
        raise Refusal("prize-for-gift")
    if (stake or wealth_stake) and kind is not TournamentKind.HONOUR:
        raise Refusal("stake-for-honour")
    if stake < 0:
        raise InvalidValue("stake-not-honour")
    if prize.reputation < 0:
        raise InvalidValue("prize-takes-reputation")
    if chests is None:
        return
    if not kind.is_serious:
        raise InvalidValue("training-chests")
    if chests.minimum > chests.maximum:
        raise Refusal("chest-range", minimum=chests.minimum, maximum=chests.maximum)
    if not 1 <= chests.minimum <= chests.maximum <= MAX_AMOUNT:
        raise InvalidValue("chest-range")
    if chests.reputation < 0:
        raise InvalidValue("chest-reputation")
