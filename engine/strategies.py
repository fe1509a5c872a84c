"""Computer players (R-T7): a Strategy protocol and the shipped strategies.

A strategy sees what a player sees (the position, the rules and the combat's earlier
positions) and returns one legal order. Its randomness comes from the caller: the bot gives
each order a generator seeded from the operating system (private, R-T7); tests and the league
give seeded ones, so their games can be replayed.

- ``random`` (easy): any legal move.
- ``greedy`` (normal): the order that looks best one turn ahead if nobody else moves.
- ``strong`` (hard): equilibrium search over its own and its nearby rivals' plausible orders
  (:mod:`engine.search`), and samples its order from the mixed strategy it finds.

Every strategy that finds itself in a position for the third time, or is about to give a move
for the third time in its last few turns, orders something else than it did the previous times
(:class:`engine.history.History`), so no combat goes round in circles until its turn limit.

Under a hidden setup (R-V1) every strategy also deploys (:meth:`Strategy.deploy`), with the
caller's private randomness (R-T7): ``random`` anywhere in its home zone, the others as a
player would — the emperor deep and guarded, pawns forward, mountains between the emperor and
its rivals (:func:`sensible_deployment`). Every order any of them gives is legal, mountains
(R-V2a) and every variant included: they choose among ``legal_orders``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from engine.battlefield import Battlefield, Tile
from engine.deployment import Deployment
from engine.evaluation import (
    EXTRA_EMPEROR,
    boxed_in,
    emperor_stakes,
    falls_end_combat,
    reached_by_rival,
    threats,
    utilities,
)
from engine.game import Game
from engine.history import NO_HISTORY, History
from engine.orders import Move, Order, Pass, legal_orders
from engine.pieces import Dynasty, PieceKind, in_seat_order
from engine.position import Position
from engine.resolution import TurnResult
from engine.rules import MAX_TURN_LIMIT, EmperorTaken, Ruleset, Takes
from engine.search import (
    Budget,
    Solution,
    blueprint,
    holding_orders,
    play_turn,
    ranked_orders,
    regret_matching,
    rollout,
)


class Strategy(Protocol):
    """Chooses an order for ``dynasty``; must return an order that passes ``check_order``."""

    name: str

    def choose(
        self, game: Game, dynasty: Dynasty, rng: random.Random, history: History = NO_HISTORY
    ) -> Order: ...

    def deploy(self, battlefield: Battlefield, dynasty: Dynasty, rng: random.Random) -> Deployment:
        """Where ``dynasty`` places its pieces and mountains under a hidden setup (R-V1c): a
        deployment that passes ``check_deployment``."""
        ...


class RandomStrategy:
    """Any legal move, uniformly; passes only when it cannot move. Deploys anywhere in its
    home zone."""

    name = "random"

    def deploy(self, battlefield: Battlefield, dynasty: Dynasty, rng: random.Random) -> Deployment:
        tiles = sorted(battlefield.home_zone(dynasty))
        rng.shuffle(tiles)
        pawns = battlefield.pieces_of(dynasty) - 1
        mountains = battlefield.mountains_per_dynasty
        return Deployment(
            tiles[0], tuple(tiles[1 : 1 + pawns]), tuple(tiles[1 + pawns : 1 + pawns + mountains])
        )

    def choose(
        self, game: Game, dynasty: Dynasty, rng: random.Random, history: History = NO_HISTORY
    ) -> Order:
        orders = legal_orders(game.position, dynasty)
        avoid = history.to_avoid(game.position, dynasty)
        moves = [order for order in orders[1:] if order not in avoid] or orders[1:]
        return rng.choice(moves) if moves else orders[0]


REPEAT_PENALTY = 0.5
"""Greedy: what going round a circle once more costs, in pawns (see ``History``)."""
GREEDY_NOISE = 0.05
"""Greedy: random jitter, in pawns, so equal choices are taken in turn rather than in order."""
SEEN_NOISE = 1.0
"""Greedy, in a position seen before (experience aside) with at most :data:`SEEN_FEW` dynasties
left: it chooses among the orders within this many pawns of the best. Two greedy players in
mirror-image positions give mirror-image orders: on duel-8 their pawns met on the middle tile
and went back, turn after turn, and neither could take an emperor without losing its own in the
same turn. Play that has come back somewhere is where the mirror shows; widening the choice
there breaks it (docs/computer-players.md)."""
SEEN_FEW = 4
"""With more dynasties left the looser choice cost medium-8 combats their ends."""


class GreedyStrategy:
    """The order that looks best one turn ahead with every other dynasty holding: it takes
    what it can, moves threatened pieces away, keeps off tiles rivals can reach, and heads for
    the goal (:mod:`engine.evaluation`). Against a last rival it also checks its best orders
    against the takes that rival could answer with next turn (:func:`_answered`) and, well ahead
    in emperors, keeps its attacked ones out of a take (:func:`_guarded`); and taking a
    rival emperor while its own only emperor can be taken in the same turn is worth no more
    than that exchange (:func:`_exchanged`). In a position seen before it chooses more loosely
    (:data:`SEEN_NOISE`). While a rival is in its crowning window (R-V3a), and face to face
    when ahead against a rival it has seen play as greedy (:meth:`_predictable_rival`), it
    plays against the order that rival would give (:func:`_against_predicted`)."""

    name = "greedy"

    def deploy(self, battlefield: Battlefield, dynasty: Dynasty, rng: random.Random) -> Deployment:
        return sensible_deployment(battlefield, dynasty, rng)

    def choose(
        self, game: Game, dynasty: Dynasty, rng: random.Random, history: History = NO_HISTORY
    ) -> Order:
        ranked, avoid = self._ranked(game, dynasty, history)
        rival = _rival_in_window(game, dynasty) or self._predictable_rival(game, dynasty, history)
        if rival is not None:
            # Its best orders against what that rival would order.
            predicted = self.predicted(game, rival, history)
            ranked = _against_predicted(game, dynasty, ranked, predicted)
        best = max(value for value, _ in ranked)
        seen = len(game.position.active_dynasties) <= SEEN_FEW and history.times_seen(game.position)
        noise = SEEN_NOISE if seen else GREEDY_NOISE
        near = [
            order
            for value, order in ranked
            if value >= best - GREEDY_NOISE or (value >= best - noise and order not in avoid)
        ]
        return rng.choice(near)

    def predicted(self, game: Game, rival: Dynasty, history: History = NO_HISTORY) -> list[Order]:
        """The orders ``rival`` would give if it played as greedy does: those it would choose
        among, bar the looser choice of a position seen before."""
        ranked, _ = self._ranked(game, rival, history)
        best = max(value for value, _ in ranked)
        return [order for value, order in ranked if value >= best - GREEDY_NOISE]

    def _predictable_rival(self, game: Game, dynasty: Dynasty, history: History) -> Dynasty | None:
        """Face to face and ahead (:data:`EMPERORS_AHEAD` emperors, or :func:`far_ahead` in
        pieces), the last rival if its last :data:`PREDICTABLE_TURNS` orders were ones greedy
        would have given in its place (each within :data:`SEEN_NOISE` of the best; the position
        of each turn, experience included, and the rival's orders are in ``history``). Not
        under ``takes = by-experience`` (R-V4a): there it ended fewer combats.

        A lone emperor that steps onto a free tile every turn is never taken face to face, and
        a careful rival keeps most of its emperors out of a take: they fall when their owner
        orders something else while attacked. One turn ahead with its rival holding, greedy
        attacked the emperors its rival was about to move and left its own where the rival was
        about to strike. Against a rival that plays otherwise (the strong player samples a
        mixed strategy) the prediction is wrong and the answer to it worse than the one-turn
        look, so greedy first learns from the rival's past orders whom it plays against."""
        position = game.position
        active = position.active_dynasties
        if len(active) != 2 or game.ruleset.takes is Takes.BY_EXPERIENCE:
            return None
        rival = active[1] if active[0] is dynasty else active[0]
        emperors_ahead = len(position.emperor_tiles(dynasty)) - len(position.emperor_tiles(rival))
        if emperors_ahead < EMPERORS_AHEAD and not far_ahead(position, dynasty):
            return None
        turns = history.last_turns(PREDICTABLE_TURNS)
        if len(turns) < PREDICTABLE_TURNS:
            return None
        for back, (earlier, orders) in enumerate(reversed(turns), start=1):
            given = orders.get(rival)
            if given is None or len(earlier.active_dynasties) != 2:
                return None
            past = Game(game.ruleset, earlier, game.turn - back)
            if not history.judged(back, rival, partial(self._would_give, past, given)):
                return None
        return rival

    def _would_give(self, game: Game, given: Order) -> bool:
        """Whether ``given`` is within :data:`SEEN_NOISE` of the best order greedy would give
        for its dynasty in ``game``."""
        ranked, _ = self._ranked(game, given.dynasty, NO_HISTORY)
        best = max(value for value, _ in ranked)
        return any(order == given and value >= best - SEEN_NOISE for value, order in ranked)

    def _ranked(
        self, game: Game, dynasty: Dynasty, history: History
    ) -> tuple[list[tuple[float, Order]], frozenset[Order]]:
        """Its legal orders valued one turn ahead with every rival holding, then revalued by
        greedy's checks; and the orders its history says to avoid here."""
        ranked = ranked_orders(game, dynasty)
        avoid = history.to_avoid(game.position, dynasty)
        if avoid:
            # An order given here before led back here: it is worth no more than staying.
            now = utilities(game)[dynasty] - REPEAT_PENALTY
            ranked = [(min(v, now) if o in avoid else v, o) for v, o in ranked]
        convert = game.ruleset.emperor_taken is EmperorTaken.CONVERT
        if convert and len(game.position.active_dynasties) == 2:
            ranked = _guarded(game, dynasty, ranked)
            # Face to face under ``convert`` (R-C4) a take answered by a take back only flips a
            # piece or an emperor; with more rivals or other R-C4 options the check makes it too
            # timid to finish.
            # Well ahead on the count (R-G2) a pawn taken back is cheap: checking the answers
            # kept the hunter from closing in (:data:`ANSWERED_LEAD`).
            if not far_ahead(game.position, dynasty):
                ranked = _answered(game, dynasty, ranked)
        # Under ``convert`` only where the fall of emperors ends the combat (see _exchanged).
        if not convert or falls_end_combat(game.ruleset, game.position.battlefield):
            ranked = _exchanged(game, dynasty, ranked)
        return ranked, avoid


PREDICTABLE_TURNS = 3
"""Greedy plays against its last rival's predicted order (face to face, ahead) once that
rival's last this many orders were greedy's own choices in its place; two decided no more."""
EMPERORS_AHEAD = 2
"""Face to face, a dynasty this many emperors ahead of its rival is ahead for
:meth:`GreedyStrategy._predictable_rival` as one far ahead in pieces is."""
WINDOW_WEIGHS = 8
"""While a rival is in its crowning window (:func:`_rival_in_window`) greedy weighs its best
this many orders against that rival's predicted ones."""


def _rival_in_window(game: Game, dynasty: Dynasty) -> Dynasty | None:
    """The rival ``dynasty`` plays against, if any: one in its crowning window (R-V3a).

    In its window a dynasty without an emperor takes one back or crowns a pawn (R-V3b), and
    under ``convert`` the emperor just taken stood among its pawns: it was taken back in the
    window, turn after turn, until the limit."""
    for rival in in_seat_order(game.windows):
        if rival is not dynasty:
            return rival
    return None


def _against_predicted(
    game: Game, dynasty: Dynasty, ranked: list[tuple[float, Order]], predicted: list[Order]
) -> list[tuple[float, Order]]:
    """``dynasty``'s best :data:`WINDOW_WEIGHS` orders revalued by the turn each makes with its
    rival giving one of its ``predicted`` orders (their mean), every other dynasty holding."""
    revalued: list[tuple[float, Order]] = []
    for _, order in _best_of(ranked, WINDOW_WEIGHS):
        total = 0.0
        for answer in predicted:
            total += utilities(play_turn(game, holding_orders(game, order, answer)))[dynasty]
        revalued.append((total / len(predicted), order))
    return revalued


EXCHANGED_SEVERAL_AT = 4
"""With this many dynasties left, :func:`_exchanged` checks a dynasty with several emperors too.
On medium-8 under ``*-and-stay`` four dynasties are left at turn 8 in every combat, with two
emperors each; they pair off, each pair taking the other's emperors in the same turn, which
under ``convert`` only swaps their owners, and the next dynasty fell only around turn 37. Not
with three left: that made medium-8 combats longer (docs/computer-players.md)."""


def _exchanged(
    game: Game, dynasty: Dynasty, ranked: list[tuple[float, Order]]
) -> list[tuple[float, Order]]:
    """Takes of a rival emperor revalued by the worst rival take of ``dynasty``'s only emperor
    in the same turn (of any of its emperors, with :data:`EXCHANGED_SEVERAL_AT` dynasties
    left).

    Under ``remove`` and ``replace*`` (R-C4) both emperors are gone: both dynasties are
    defeated (R-C6), and when they were the last two the combat is a draw (R-G3): without this
    check each raced a pawn to the other's emperor and took it while its own was taken, and
    greedy self-play on duel-8 ended in that draw on turn 4.

    Under ``convert`` two emperors taken at once only change owners; where the fall of emperors
    ends the combat (``GoalTargets.ways_out``), every dynasty whose pawn stood by a rival's
    emperor took it each turn while its own was taken: on small-4 the four emperors went round
    the four pockets until the turn limit. Only there: for every goal it cost emperor-strike and
    reach-opposite combats their ends (docs/computer-players.md)."""
    position = game.position
    emperors = position.emperor_tiles(dynasty)
    several = len(position.active_dynasties) == EXCHANGED_SEVERAL_AT
    if not (len(emperors) == 1 or several) or not any(
        _takes_an_emperor(position, o, dynasty) for _, o in ranked
    ):
        return ranked
    attackers = threats(position, game.ruleset).attackers
    answers = [
        Move(position.pieces[tile].dynasty, tile, emperor)
        for emperor in emperors
        for tile in attackers.get(emperor, [])
    ]
    revalued: list[tuple[float, Order]] = []
    for value, order in ranked:
        if _takes_an_emperor(position, order, dynasty):
            for answer in answers:
                after = play_turn(game, holding_orders(game, order, answer))
                value = min(value, utilities(after)[dynasty])
        revalued.append((value, order))
    return revalued


def _takes_an_emperor(position: Position, order: Order, dynasty: Dynasty) -> bool:
    """Whether ``order`` is a take attempt on a rival's emperor."""
    target = position.pieces.get(order.destination) if isinstance(order, Move) else None
    return target is not None and target.kind is PieceKind.EMPEROR and target.dynasty is not dynasty


GUARDED_FROM = 4
"""Greedy keeps its attacked emperors out of a take (:func:`_guarded`) once it holds this many:
with fewer, it spent the orders that end a combat on saving them."""


def _guarded(
    game: Game, dynasty: Dynasty, ranked: list[tuple[float, Order]]
) -> list[tuple[float, Order]]:
    """Under ``convert`` (R-C4), face to face, for the dynasty ahead in emperors (at least
    :data:`GUARDED_FROM`): an order that leaves one of its attacked emperors on its tile is
    worth that spare emperor less.

    Greedy judges an order with its rival holding, so an attacked emperor looked like one it
    could still move away next turn; the rival took it this turn. The dynasty ahead has the
    most emperors to lose that way, and the count of the last two went back to even instead of
    to the end (docs/computer-players.md)."""
    position = game.position
    emperors = position.emperor_tiles(dynasty)
    rivals = [rival for rival in position.active_dynasties if rival is not dynasty]
    if len(emperors) < GUARDED_FROM or any(
        len(position.emperor_tiles(rival)) >= len(emperors) for rival in rivals
    ):
        return ranked
    attackers = threats(position, game.ruleset).attackers
    attacked = [tile for tile in emperors if tile in attackers]
    if not attacked:
        return ranked
    elapsed = game.turn / game.ruleset.turn_limit
    spare = EXTRA_EMPEROR * emperor_stakes(game.ruleset, position.battlefield, elapsed)
    guarded: list[tuple[float, Order]] = []
    for value, order in ranked:
        moved = order.origin if isinstance(order, Move) else None
        guarded.append((value - spare * sum(tile != moved for tile in attacked), order))
    guarded.sort(key=lambda entry: -entry[0])
    return guarded


ANSWERED = 4
"""Greedy: how many of its best orders it checks against the rival's takes next turn: more makes
it guard too much to finish, fewer lets it take what is taken straight back."""
ANSWERED_LEAD = 4
"""Face to face, a dynasty with this many pieces more than its rival does not check its orders
against the rival's takes (:func:`_answered`): there the check made the hunter too timid to
close in, and medium-8's last two often reached the turn limit 20 pieces to 8
(docs/computer-players.md)."""


def far_ahead(position: Position, dynasty: Dynasty) -> bool:
    """Whether ``dynasty`` has at least :data:`ANSWERED_LEAD` pieces more than every active
    rival (neutral pawns count for nobody, R-C6)."""
    counts = position.piece_counts()
    rivals = [count for rival, count in counts.items() if rival is not dynasty]
    return bool(rivals) and counts.get(dynasty, 0) - max(rivals) >= ANSWERED_LEAD


def _answered(
    game: Game, dynasty: Dynasty, ranked: list[tuple[float, Order]]
) -> list[tuple[float, Order]]:
    """The best orders revalued by the worst take a rival could answer with next turn: a
    piece taken now and taken back then is no gain, and under ``convert`` (R-C4) such
    flip-flops went on until the turn limit."""
    checked: list[tuple[float, Order]] = []
    for value, order in ranked[:ANSWERED]:
        after = play_turn(game, holding_orders(game, order))
        if not after.is_over:
            value = min(value, _worst_take(after, dynasty))
        checked.append((value, order))
    return checked + ranked[ANSWERED:]


def _worst_take(game: Game, dynasty: Dynasty) -> float:
    """``dynasty``'s value after the rival take that hurts it most, every other dynasty holding."""
    pieces = game.position.pieces
    worst = utilities(game)[dynasty]
    for rival in game.position.active_dynasties:
        if rival is dynasty:
            continue
        for order in legal_orders(game.position, rival):
            if not isinstance(order, Move):
                continue
            target = pieces.get(order.destination)
            if target is None or target.dynasty is not dynasty:
                continue
            worst = min(worst, utilities(play_turn(game, holding_orders(game, order)))[dynasty])
    return worst


STRONG_SECONDS = 0.8
"""The strong player's default thinking time per order (a setting: see ``seconds``)."""
PLAUSIBLE_OWN = 8
"""Orders of its own the strong player weighs (the best ones one turn ahead)."""
PLAUSIBLE_RIVAL = 5
"""Orders it weighs for each rival close enough to interact this turn."""
RIVALS_WEIGHED = 3
"""At most this many nearby rivals take part in the equilibrium; the others hold."""
CONTACT = 2
"""Rivals are "nearby" when a piece of theirs is within both pieces' reach plus this."""
ROLLOUT_TURNS = 1
"""Turns each joint order's consequences are played out (:func:`rollout`) before evaluating:
one turn more finds the answer to a threat; two or three, played by the quick policy, mislead
more than they show."""
MOST_ITERATIONS = 20_000
"""Searches stop after this many iterations even with time left (they have converged)."""
SMALLEST_SHARE = 0.05
"""Orders the equilibrium plays less often than this are dropped before sampling."""
ANCHOR_SHARE = 0.9
"""How often the search expects a rival to play its obvious move (its blueprint) rather
than its equilibrium: real players take what is offered."""
ANCHOR_TEMPERATURE = 0.3
"""Blueprint softmax temperature, in pawns of one-turn value."""


class StrongStrategy:
    """Equilibrium search each turn (Gray et al. 2021): the few most plausible orders of
    itself and of its nearby rivals, regret matching over the joint orders, each valued by
    resolving the turn, playing one more turn out quickly and evaluating the position
    reached. Rivals are expected to play their obvious move most of the time (SearchBot's
    blueprint share). While its lone emperor is threatened it weighs only orders that leave
    it a way out two turns on against the rivals' expected orders (:func:`_escaping`).
    Samples its order from the mixed strategy found.

    ``seconds`` is the thinking budget per order; ``iterations``, if given, also bounds the
    search (tests give iterations only, so a seeded game is the same on any machine).
    """

    name = "strong"

    def __init__(self, seconds: float | None = STRONG_SECONDS, iterations: int | None = None):
        self.seconds = seconds
        self.iterations = iterations

    def deploy(self, battlefield: Battlefield, dynasty: Dynasty, rng: random.Random) -> Deployment:
        return sensible_deployment(battlefield, dynasty, rng)

    def choose(
        self, game: Game, dynasty: Dynasty, rng: random.Random, history: History = NO_HISTORY
    ) -> Order:
        budget = Budget(self.seconds, self.iterations or MOST_ITERATIONS)
        avoid = history.to_avoid(game.position, dynasty)
        ranked = ranked_orders(game, dynasty)
        rivals = nearby_rivals(game.position, dynasty, RIVALS_WEIGHED)
        plausible = {rival: plausible_rival_orders(game, rival) for rival in rivals}
        # Its best orders, and as many more as it gave here before: something else to choose.
        wanted = PLAUSIBLE_OWN + len(avoid)
        own = [order for _, order in ranked[:wanted]]
        if _emperor_threatened(game, dynasty):
            expected = [orders[0][1] for orders in plausible.values()]
            looked_at = [order for _, order in ranked[: wanted + SPARE_OWN]]
            own = _escaping(game, dynasty, looked_at, expected, budget)[:wanted] or own
        if len(own) == 1:
            return own[0]
        solution = self._equilibrium(game, dynasty, own, plausible, rng, budget)
        probabilities = solution.strategies[0]
        if avoid:
            probabilities = _other_than(own, probabilities, solution.values, avoid)
        return own[_pick(probabilities, rng)]

    def _equilibrium(
        self,
        game: Game,
        dynasty: Dynasty,
        own: list[Order],
        plausible: dict[Dynasty, list[tuple[float, Order]]],
        rng: random.Random,
        budget: Budget,
    ) -> Solution:
        urgent = judged_urgently(game)
        if not plausible:  # nobody can interfere this turn: the best order one turn ahead
            values = [
                utilities(play_turn(game, holding_orders(game, o)), urgent=urgent)[dynasty]
                for o in own
            ]
            best = max(range(len(own)), key=values.__getitem__)
            return Solution([[float(i == best) for i in range(len(own))]], values)
        players = [dynasty, *plausible]
        choices: list[list[Order]] = [own]
        anchors: list[list[float] | None] = [None]
        for ranked in plausible.values():
            choices.append([order for _, order in ranked])
            anchors.append(blueprint([value for value, _ in ranked], ANCHOR_TEMPERATURE))
        holding = [Pass(d) for d in game.position.active_dynasties if d not in players]
        known: dict[tuple[int, ...], dict[Dynasty, float]] = {}

        def value(joint: tuple[int, ...]) -> dict[Dynasty, float]:
            found = known.get(joint)
            if found is None:
                orders = [choices[i][action] for i, action in enumerate(joint)]
                after = play_turn(game, [*orders, *holding])
                found = known[joint] = utilities(rollout(after, ROLLOUT_TURNS), urgent=urgent)
            return found

        counts = [len(orders) for orders in choices]
        return regret_matching(players, counts, value, rng, budget, anchors, ANCHOR_SHARE)


SPARE_OWN = 4
"""While its lone emperor is threatened (:func:`_emperor_threatened`), the strong player looks
at this many orders beyond its best ones, to replace those that leave the emperor no way out
(:func:`_escaping`)."""
THREAT_STEPS = 2
"""A rival piece threatens an emperor when it is within its reach plus this many steps."""
ESCAPE_SHARE = 0.5
"""The share of its thinking time the strong player may spend on its emperor's ways out; the
rest is the search's."""
ESCAPE_TURNS = 2
"""How many turns after its order the strong player checks that its lone emperor still has a
way out (:func:`_way_out`)."""


def _emperor_threatened(game: Game, dynasty: Dynasty) -> bool:
    """Whether the strong player plans its emperor's way out (:func:`_escaping`): with three
    dynasties or more left, where the fall of emperors ends the combat, its lone emperor with a
    rival piece within :data:`THREAT_STEPS` of its reach."""
    position = game.position
    emperors = position.emperor_tiles(dynasty)
    if len(emperors) != 1 or len(position.active_dynasties) < 3:
        return False
    if not falls_end_combat(game.ruleset, position.battlefield):
        return False
    return bool(_threatening(position, dynasty, emperors[0]))


def _threatening(position: Position, dynasty: Dynasty, tile: Tile) -> list[Dynasty]:
    """The active rivals with a piece within its reach plus :data:`THREAT_STEPS` of ``tile``,
    in seat order."""
    near: set[Dynasty] = set()
    for other, piece in position.pieces.items():
        rival = piece.dynasty
        if rival is dynasty or rival in position.defeated or rival in near:
            continue
        if abs(other.row - tile.row) + abs(other.col - tile.col) <= piece.experience + THREAT_STEPS:
            near.add(rival)
    return list(in_seat_order(near))


def _escaping(
    game: Game, dynasty: Dynasty, own: list[Order], expected: list[Order], budget: Budget
) -> list[Order]:
    """Those of ``own`` after which its emperor still has a way out two turns on
    (:func:`_way_out`): the rivals play their ``expected`` orders this turn and the normal
    player's best the next ones.

    Greedy's opening is nearly the same every combat: on small-4 a rival pawn reached the one
    tile beside the bottom seat's start tile by turn 3 and took its emperor on turn 4, a turn or
    two beyond what the search (one turn, one rollout turn) sees. Once it has spent
    :data:`ESCAPE_SHARE` of its thinking time, the orders left are kept unchecked."""
    kept: list[Order] = []
    for order in own:
        late = budget.seconds is not None and (
            time.perf_counter() - budget.started > ESCAPE_SHARE * budget.seconds
        )
        if late or _way_out(play_turn(game, holding_orders(game, order, *expected)), dynasty):
            kept.append(order)
    return kept


def _way_out(game: Game, dynasty: Dynasty, turns: int = ESCAPE_TURNS) -> bool:
    """Whether ``dynasty``'s emperor can still be kept out of a take for ``turns`` more turns:
    some order of its own (a pass, an emperor's move, or a move beside its emperor or onto a
    rival piece near it) leaves it standing and not cornered (:func:`_cornered`) after the
    rivals near it give the normal player's best orders, turn after turn."""
    if game.is_over:
        return dynasty in game.outcome.winners if game.outcome is not None else True
    position = game.position
    emperors = position.emperor_tiles(dynasty)
    if len(emperors) != 1:
        return bool(emperors)
    emperor = emperors[0]
    rivals = _threatening(position, dynasty, emperor)
    if not rivals:
        return True
    expected = [plausible_rival_orders(game, rival)[0][1] for rival in rivals]
    for order in legal_orders(position, dynasty):
        if isinstance(order, Move) and order.origin != emperor:
            target = order.destination
            gap = abs(target.row - emperor.row) + abs(target.col - emperor.col)
            if gap > 1 and not (target in position.pieces and gap <= THREAT_STEPS):
                continue
        after = play_turn(game, holding_orders(game, order, *expected))
        if after.is_over:
            if after.outcome is not None and dynasty in after.outcome.winners:
                return True
            continue
        if _cornered(after, dynasty):
            continue
        if turns <= 1 or _way_out(after, dynasty, turns - 1):
            return True
    return False


def _cornered(game: Game, dynasty: Dynasty) -> bool:
    """Whether ``dynasty`` has lost its emperor, or its lone emperor stands in a rival's reach
    with no safe step (:func:`engine.evaluation.boxed_in`)."""
    position = game.position
    emperors = position.emperor_tiles(dynasty)
    if not emperors:
        return True
    if len(emperors) > 1:
        return False
    return reached_by_rival(position, emperors[0], dynasty) and (
        boxed_in(position, game.ruleset, dynasty) >= 4
    )


def judged_urgently(game: Game) -> bool:
    """Whether the strong player's search weighs the turn limit in its judgement
    (``utilities(urgent=True)``: emperors weigh more, what may be lost next turn less, the goal
    more, as the limit nears): face to face only.

    With more dynasties left it plays better without (docs/computer-players.md); face to face,
    without it, it kept its emperors out of reach and took little until the limit (R-G2)
    decided, where greedy closes in."""
    return len(game.position.active_dynasties) == 2


def plausible_rival_orders(game: Game, rival: Dynasty) -> list[tuple[float, Order]]:
    """The :data:`PLAUSIBLE_RIVAL` orders the strong player weighs for ``rival``, most likely
    first, with their values: the normal player's (greedy's) ranking with its checks (the
    exchanges, the takes a last rival would answer, the lead kept), not the one-turn ranking
    alone: the players it meets check their takes too. Not greedy's way out of circles (its
    history): a rival who took nothing twice in a position may well try a third time, and
    expecting otherwise cost the strong player its emperor."""
    ranked, _ = GreedyStrategy()._ranked(game, rival, NO_HISTORY)
    return _best_of(ranked, PLAUSIBLE_RIVAL)


def _best_of(ranked: list[tuple[float, Order]], count: int) -> list[tuple[float, Order]]:
    """The ``count`` best of ``ranked`` (value, order) pairs, best first; equal values keep
    their order in ``ranked`` (the sort is stable), so the choice does not depend on orders'
    own comparison."""
    return sorted(ranked, key=lambda entry: -entry[0])[:count]


REPEAT_TOLERANCE = 3.0
"""In a position seen a third time, an order given there before is dropped if another is
worth at least as much as the best less this (in pawns): a circle is not broken by suicide."""


def _other_than(
    orders: Sequence[Order],
    probabilities: Sequence[float],
    values: Sequence[float],
    avoid: frozenset[Order],
) -> list[float]:
    """The strategy without the orders to avoid, if an order worth at least the best's value
    less :data:`REPEAT_TOLERANCE` is left."""
    best = max(values)
    fresh = [
        index
        for index, order in enumerate(orders)
        if order not in avoid and values[index] >= best - REPEAT_TOLERANCE
    ]
    if not fresh:
        return list(probabilities)
    kept = [probabilities[i] if i in fresh else 0.0 for i in range(len(orders))]
    if sum(kept) <= 0.0:
        kept[max(fresh, key=values.__getitem__)] = 1.0
    return kept


def _pick(probabilities: Sequence[float], rng: random.Random) -> int:
    """An index drawn from the mixed strategy, leaving out what it plays only rarely."""
    kept = [p if p >= SMALLEST_SHARE else 0.0 for p in probabilities]
    if sum(kept) <= 0.0:
        kept = list(probabilities)
    point = rng.random() * sum(kept)
    for index, weight in enumerate(kept):
        point -= weight
        if point < 0.0:
            return index
    return max(range(len(kept)), key=kept.__getitem__)


def nearby_rivals(position: Position, dynasty: Dynasty, limit: int) -> list[Dynasty]:
    """The rivals whose pieces could meet ``dynasty``'s this turn or the next, nearest first
    (at most ``limit``): only they take part in its equilibrium search."""
    own = [
        (tile, piece.experience)
        for tile, piece in position.pieces.items()
        if piece.dynasty is dynasty
    ]
    closest: dict[Dynasty, int] = {}
    for tile, piece in position.pieces.items():
        rival = piece.dynasty
        if rival is dynasty or rival in position.defeated:
            continue
        for own_tile, experience in own:
            gap = abs(tile.row - own_tile.row) + abs(tile.col - own_tile.col)
            gap -= experience + piece.experience + CONTACT
            if gap <= 0 and gap < closest.get(rival, 1):
                closest[rival] = gap
    return sorted(closest, key=lambda rival: (closest[rival], rival.seat))[:limit]


def sensible_deployment(
    battlefield: Battlefield, dynasty: Dynasty, rng: random.Random
) -> Deployment:
    """A deployment a player would choose (R-V1c): the emperor on the home tile farthest from
    every rival's home zone (ties: at random), the mountains on the tiles beside it that face
    the rivals (one side always left open, so it can step out), and the pawns on the tiles
    nearest the rivals. The randomness is the caller's (R-T7)."""
    zone = sorted(battlefield.home_zone(dynasty))
    rivals = [
        tile
        for rival in battlefield.dynasties
        if rival is not dynasty
        for tile in battlefield.home_zone(rival)
    ]

    def front(tile: Tile) -> int:
        """Steps (as the crow walks) to the nearest rival home tile."""
        return min((abs(tile.row - r.row) + abs(tile.col - r.col) for r in rivals), default=0)

    jitter = {tile: rng.random() for tile in zone}
    deepest = max(front(tile) for tile in zone)
    emperor = max((t for t in zone if front(t) >= deepest - 1), key=lambda t: (front(t), jitter[t]))
    free = [tile for tile in zone if tile != emperor]
    beside = [t for t in free if abs(t.row - emperor.row) + abs(t.col - emperor.col) == 1]
    count = battlefield.mountains_per_dynasty
    # Guards first: the tiles beside the emperor nearest the rivals, never all of them.
    guards = sorted(beside, key=lambda t: (front(t), jitter[t]))[: max(len(beside) - 1, 0)]
    rest = sorted(
        [t for t in free if t not in guards],
        key=lambda t: (abs(t.row - emperor.row) + abs(t.col - emperor.col), jitter[t]),
    )
    mountains = (guards + rest)[:count]
    left = [t for t in free if t not in mountains]
    pawns = sorted(left, key=lambda t: (front(t), jitter[t]))[: battlefield.pieces_of(dynasty) - 1]
    return Deployment(emperor, tuple(pawns), tuple(mountains))


def random_combat(
    battlefield: Battlefield, turns: int, seed: int
) -> list[tuple[Position, TurnResult | None]]:
    """``turns`` real turns where every active dynasty plays a random legal order, with the
    start first; a new combat begins if one ends early. For replays, benchmarks and tests."""
    rng = random.Random(seed)
    ruleset = Ruleset(turn_limit=MAX_TURN_LIMIT)
    game = Game.start(battlefield, ruleset)
    frames: list[tuple[Position, TurnResult | None]] = [(game.position, None)]
    while len(frames) <= turns:
        if game.is_over:
            game = Game.start(battlefield, ruleset)
        orders = [
            rng.choice(legal_orders(game.position, d)) for d in game.position.active_dynasties
        ]
        report = game.play(orders)
        game = report.game
        frames.append((game.position, report.result))
    return frames


# Keyed by each strategy's own name, read from an instance: compiled (mypyc), ``name`` is an
# instance attribute that the class itself does not have.
STRATEGIES: dict[str, Callable[[], Strategy]] = {
    factory().name: factory for factory in (RandomStrategy, GreedyStrategy, StrongStrategy)
}


def strategy_named(name: str, *, seconds: float | None = None) -> Strategy:
    """A new strategy by name, thinking for at most ``seconds`` per order if it searches;
    ValueError listing the known ones."""
    try:
        factory = STRATEGIES[name]
    except KeyError:
        raise ValueError(
            f"unknown computer player {name!r}; choose one of: {', '.join(STRATEGIES)}"
        ) from None
    if factory is StrongStrategy:
        return StrongStrategy(seconds if seconds is not None else STRONG_SECONDS)
    return factory()
