"""How good a position is for each dynasty: the judgement computer players search with (R-T7).

One function, :func:`goal_targets`, says what the announced goal asks of a dynasty's pieces
(R-G1); everything else is the same for every goal: material, experience, the pieces each
dynasty could take or lose next turn, and progress towards the goal's targets. A goal this
module does not know is played as ``last-emperor`` (hunt the rival emperors), so a goal added
to the rules degrades to a sensible game instead of an error; the end of a combat is always
judged by the engine itself (:meth:`engine.Game.play`), never here.

Values are in pawns: a pawn is worth about 1, an emperor about :data:`EMPEROR`.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from engine.battlefield import Battlefield, Tile
from engine.game import Game, OutcomeCause
from engine.pieces import Dynasty, PieceKind, seat_of
from engine.position import Position
from engine.rules import EmperorTaken, Fortress, GoalKind, Ruleset, Takes

WIN = 1000.0
"""A won combat; a lost one is ``-WIN``; values of positions stay far below it."""
COUNTED_WIN = 0.9 * WIN
"""A win on the count at the turn limit (R-G2): a win, but worth less than one by the goal, so
a player that can end the combat on its last turn does (seeing both wins alike, it chose at
random among every order that keeps the lead; docs/computer-players.md)."""
DRAW = -WIN / 2
"""A drawn combat, for every dynasty: no win, so only a losing dynasty should want it."""
EMPEROR = 9.0
"""A dynasty's first emperor: losing it is losing the combat (R-C6) unless it has another."""
EXTRA_EMPEROR = 3.0
"""Each further emperor (a ``convert`` take, R-C4): a spare life."""
PAWN = 1.0
EXPERIENCE = 0.05
"""Per point of experience above 1, up to :data:`EXPERIENCE_CAP`: longer moves, a stronger emperor."""
EXPERIENCE_CAP = 5
DEFEATED = -25.0
"""The value of a defeated dynasty (it keeps no pieces of its own)."""
SAVED_SHARE = 0.2
"""Of the most valuable threatened piece, the share expected lost: its owner moves it away."""
LOST_SHARE = 0.55
"""Of each further threatened piece (one per attacking dynasty), the share expected lost."""
ESCAPE_SHARE = 0.1
"""Of an attacked emperor that can step where no rival reaches, the share expected lost."""
COUNTER_SHARE = 0.3
"""Of an attacked emperor whose one attacker it can charge (a swap or a take)."""
TRAPPED_SHARE = 0.7
"""Of an attacked emperor with neither: the attacker need only guess right."""
DEFENDED = 0.5
"""A threatened piece its own dynasty could take back next turn loses only this part."""
CLOSE = 0.25
"""Per rival piece near an emperor, per step closer than :data:`CLOSE_STEPS` beyond its reach."""
CLOSE_STEPS = 3
GOAL_STEP = 0.7
"""Per step an emperor still has to walk to a goal tile (reach-opposite, treasure)."""
HUNT_STEP = 0.12
"""Per step between a pawn and the nearest rival emperor, when rival emperors are the goal."""
URGENCY = 2.0
"""How many times more the goal's distances weigh at the turn limit than at the start."""
STAKES = 4.0
"""How many times more emperors weigh at the turn limit than at the start, under ``convert``
(R-C4) and wherever the fall of emperors ends the combat (``GoalTargets.ways_out``): a long
combat is ended by taking emperors, worth more pawns the longer it lasts. Not for every goal:
where an emperor must set out (reach-opposite) it must not stay safe."""
STRIKE_STEP = 0.35
"""Per step between an emperor and the emperor it must take itself (emperor-strike)."""
STRIKE_NEAR = 6
STRIKE_FAR = 4.0
"""Per step beyond :data:`STRIKE_NEAR`, on top of :data:`STRIKE_STEP`: an emperor far from its
prey must first set out (far away, it stayed home until the limit); close by, the small step
keeps it careful. Under every R-C4 option (docs/computer-players.md)."""
BOXED = 3.0
"""Per tile beside a hunted lone emperor it could not step to safely (:func:`boxed_in`); face to
face, its hunter gains as much (:func:`values`)."""
BOXED_SEVERAL = 0.3
"""Face to face under ``convert`` (R-C4), against a rival holding at least :data:`BOXED_AGAINST`
emperors and no fewer: the share of :data:`BOXED` each tile beside each of a dynasty's several
emperors costs, as a lone emperor's (:func:`boxed_cost`). Without it the hunter of several
emperors had no pull towards them, its pawns retaking pawns beside its own emperors while the
rival's sat out of reach (docs/computer-players.md)."""
BOXED_AGAINST = 4
"""See :data:`BOXED_SEVERAL`. Kept to a rival with this many emperors: on small-4 and fortress-4
(four emperors) counting two against two cost the last-emperor combats their quick ends."""
MONUMENT_STEP = 0.4
"""Per step between a monument tile and the piece of its own that is nearest to it and not
needed on another monument (goal ``monuments``, R-V5b)."""
MONUMENT_MISSING = 1.5
"""Per monument tile none of its pieces stands on: the goal wants all of them at once, so
each one held is worth more than the steps towards it."""
PAINTED = 0.5
"""Per tile painted its colour (goal ``domains``, R-V6): a dynasty paints at most one new tile
a turn (one order, R-O1), so a tile is worth half a pawn; a rival's tile painted over counts
twice, as a take does."""
UNASSAILABLE_STEP = 0.35
"""Under ``takes = by-experience`` (R-V4a), face to face: per step between a pawn stronger than
every rival piece and the nearest rival emperor, on top of :data:`HUNT_STEP`
(:func:`_unassailable_hunt`)."""
HUNTED_WITHIN = 10
"""emperor-strike: an emperor is hunted once the emperor that must take it is this many steps
away or closer (not to be confused with :data:`STRIKE_NEAR`, the hunter's side)."""


@dataclass(frozen=True)
class GoalTargets:
    """What the announced goal asks of one dynasty's pieces (R-G1).

    ``emperor_tiles``: tiles its emperor wins by standing on (reach-opposite, treasure).
    ``hunt``: rival emperors are the goal, so pawns close in on them (last-emperor,
    take-stronger and any goal not known here). ``strike``: emperors its own emperor must
    take (emperor-strike). ``hold``: keeping pieces is the goal (survive). ``monuments``:
    tiles its pieces must all stand on at once (R-V5b). ``paint``: tiles of its colour are the
    goal (domains, R-V6). ``ways_out``:
    whoever takes its lone emperor ends the combat, so that emperor keeps safe steps open
    (:func:`boxed_in`; last-emperor and any goal not known here; not take-stronger, where
    only the fall of a stronger emperor counts, and judging ways out there ended fewer combats).
    """

    emperor_tiles: tuple[Tile, ...] = ()
    hunt: bool = False
    strike: tuple[Dynasty, ...] = ()
    hold: bool = False
    ways_out: bool = False
    monuments: tuple[Tile, ...] = ()
    paint: bool = False


def goal_targets(ruleset: Ruleset, battlefield: Battlefield, dynasty: Dynasty) -> GoalTargets:
    """The one place a goal becomes targets; an unknown goal hunts the rival emperors."""
    kind = ruleset.goal.kind
    if kind is GoalKind.TREASURE:
        return GoalTargets(emperor_tiles=tuple(sorted(battlefield.treasures)), hunt=True)
    if kind is GoalKind.REACH_OPPOSITE:
        return GoalTargets(emperor_tiles=(battlefield.opposite_start(dynasty),), hunt=True)
    if kind is GoalKind.SURVIVE:
        return GoalTargets(hold=True)
    if kind.value == "emperor-strike":  # named by value: known to the rules of newer engines
        return GoalTargets(strike=(_opposite(battlefield, dynasty),), hunt=True)
    if kind is GoalKind.TAKE_STRONGER:
        return GoalTargets(hunt=True)
    # Monuments and domains are also won as last-emperor is (R-V5b, R-V6c): the fall of
    # emperors ends those combats too, so lone emperors keep their ways out there as well.
    if kind is GoalKind.MONUMENTS:
        monuments = tuple(sorted(battlefield.monuments))
        return GoalTargets(hunt=True, ways_out=True, monuments=monuments)
    if kind is GoalKind.DOMAINS:
        return GoalTargets(hunt=True, ways_out=True, paint=True)
    return GoalTargets(hunt=True, ways_out=True)


@functools.lru_cache(maxsize=256)
def _opposite(battlefield: Battlefield, dynasty: Dynasty) -> Dynasty:
    """The dynasty whose emperor starts opposite ``dynasty``'s (R-G1): read once per battlefield,
    not at every evaluation (:func:`_hunted` asks it of every rival)."""
    return battlefield.starts[battlefield.opposite_start(dynasty)].dynasty


@functools.lru_cache(maxsize=4096)
def steps_to(battlefield: Battlefield, target: Tile) -> Mapping[Tile, int]:
    """Steps (up, down, left, right) from every tile of ``battlefield`` to ``target``."""
    steps = {target: 0}
    queue = deque([target])
    while queue:
        tile = queue.popleft()
        for ray in battlefield.rays(tile):
            if ray and ray[0] not in steps:
                steps[ray[0]] = steps[tile] + 1
                queue.append(ray[0])
    return steps


def _nearest(battlefield: Battlefield, tile: Tile, targets: tuple[Tile, ...]) -> int:
    far = battlefield.height + battlefield.width
    return min((steps_to(battlefield, target).get(tile, far) for target in targets), default=0)


@dataclass(frozen=True)
class Threats:
    """Who could take what next turn, read from one position (R-O2 reach, R-C1 takes).

    ``attackers[tile]``: the tiles of the rival pieces that could move onto ``tile`` now;
    ``defended``: tiles whose piece another piece of its own dynasty could reach (so a take
    there can be answered by a take back).
    """

    attackers: Mapping[Tile, list[Tile]]
    defended: frozenset[Tile]


def threats(position: Position, ruleset: Ruleset | None = None) -> Threats:
    """Every take attempt any active dynasty could order next turn, and every defended tile.

    Given the ``ruleset``, only the attempts that would take (or destroy both, R-V4b): under
    ``takes = by-experience`` a weaker piece's attempt fails (R-V4a), and with ``fortress =
    on`` a pawn's on a piece standing on its own fortress (R-V2b); a player that counted
    those as threats would flee from pieces that cannot hurt it."""
    pieces = position.pieces
    defeated = position.defeated
    battlefield = position.battlefield
    rays = battlefield.rays
    strength = ruleset is not None and ruleset.takes is Takes.BY_EXPERIENCE
    fortress_of: tuple[Dynasty | None, ...] = ()
    if ruleset is not None and ruleset.fortress is Fortress.ON:
        fortress_of = battlefield.fortress_at
    attackers: dict[Tile, list[Tile]] = {}
    defended: set[Tile] = set()
    for tile, piece in pieces.items():
        dynasty = piece.dynasty
        if dynasty in defeated:
            continue  # neutral pawns give no orders (R-C6)
        reach = piece.experience
        for ray in rays(tile):
            for other_tile in ray[:reach]:
                other = pieces.get(other_tile)
                if other is None:
                    continue
                if other.dynasty is dynasty:
                    defended.add(other_tile)
                elif not (strength and piece.experience < other.experience) and not (
                    fortress_of
                    and piece.kind is PieceKind.PAWN
                    and fortress_of[battlefield.index_of[other_tile]] is other.dynasty
                    and other.dynasty not in defeated
                ):
                    attackers.setdefault(other_tile, []).append(tile)
                break
    return Threats(attackers, frozenset(defended))


def reached_by_rival(position: Position, tile: Tile, dynasty: Dynasty) -> bool:
    """Whether a piece of an active rival of ``dynasty`` could move onto ``tile`` next turn."""
    pieces = position.pieces
    for ray in position.battlefield.rays(tile):
        for distance, other_tile in enumerate(ray, start=1):
            other = pieces.get(other_tile)
            if other is None:
                continue
            if (
                other.dynasty is not dynasty
                and other.dynasty not in position.defeated
                and other.experience >= distance
            ):
                return True
            break
    return False


def emperor_danger(position: Position, tile: Tile, attackers: list[Tile]) -> float:
    """The share of an attacked emperor expected lost next turn.

    It is safe if it can step to a tile no rival reaches (one order a dynasty: the attacker
    cannot follow it there); a lone attacker it can charge is a guess it wins either way (a
    swap, or a take) unless another rival piece reaches the attacker's tile too; otherwise it
    is likely lost.
    """
    emperor = position.pieces[tile]
    pieces = position.pieces
    counter = False
    for ray in position.battlefield.rays(tile):
        for destination in ray[: emperor.experience]:
            other = pieces.get(destination)
            if other is None:
                if not reached_by_rival(position, destination, emperor.dynasty):
                    return ESCAPE_SHARE
                continue
            if destination in attackers and len(attackers) == 1:
                counter = not reached_by_rival(position, destination, emperor.dynasty)
            break
    return COUNTER_SHARE if counter else TRAPPED_SHARE


def values(position: Position, ruleset: Ruleset, elapsed: float = 0.0) -> dict[Dynasty, float]:
    """What each dynasty of the battlefield has, in pawns: material, experience, the takes it
    may suffer next turn, how close rivals are to its emperor, how boxed in a lone emperor is
    (face to face, several ones too: :func:`boxed_cost`), and progress towards its goal's
    targets — which, like emperors (:data:`STAKES`), weighs more as the turn limit nears
    (``elapsed``: the share of the turns already played), so a combat ends by its goal rather
    than by the limit; for the same reason, face to face what may be lost next turn weighs less
    (:func:`_caution`)."""
    battlefield = position.battlefield
    active = position.active_dynasties
    result = dict.fromkeys(battlefield.dynasties, DEFEATED)
    for dynasty in active:
        result[dynasty] = 0.0
    emperors = position.emperors
    worth: dict[Tile, float] = {}
    stakes = emperor_stakes(ruleset, battlefield, elapsed)
    for tile, piece in position.pieces.items():
        dynasty = piece.dynasty
        if piece.kind is PieceKind.EMPEROR:
            # Losing one of several emperors costs a spare life, losing the last one the combat.
            value = EMPEROR if len(emperors.get(dynasty, ())) == 1 else EXTRA_EMPEROR
            value *= stakes
        else:
            value = PAWN + EXPERIENCE * (min(piece.experience, EXPERIENCE_CAP) - 1)
        worth[tile] = value
        if dynasty in result and dynasty not in position.defeated:
            result[dynasty] += value
    for dynasty, tiles in emperors.items():
        if len(tiles) > 1 and dynasty in result:
            # the first emperor counted as a spare
            result[dynasty] += (EMPEROR - EXTRA_EMPEROR) * stakes

    seen = threats(position, ruleset)
    pieces = position.pieces
    caution = _caution(position, elapsed)
    # Per victim: its threatened pieces, most valuable first; it spends its order saving the
    # first, and its attackers (one order per dynasty) take at most one piece each.
    exposed: dict[Dynasty, list[tuple[float, Tile]]] = {}
    for tile in seen.attackers:
        piece = pieces[tile]
        if piece.dynasty in position.defeated:
            continue  # a neutral pawn: nobody's to lose
        at_risk = worth[tile] * (DEFENDED if tile in seen.defended else 1.0)
        exposed.setdefault(piece.dynasty, []).append((at_risk, tile))
    for victim, threatened in exposed.items():
        threatened.sort(reverse=True)
        rivals = {pieces[a].dynasty for _, tile in threatened for a in seen.attackers[tile]}
        for index, (at_risk, tile) in enumerate(threatened[: 1 + len(rivals)]):
            attackers = seen.attackers[tile]
            if pieces[tile].kind is PieceKind.EMPEROR:
                share = emperor_danger(position, tile, attackers)
            else:
                share = SAVED_SHARE if index == 0 else LOST_SHARE
            result[victim] -= at_risk * share * caution

    boxed = {dynasty: boxed_cost(position, ruleset, dynasty) for dynasty in active}
    for dynasty in active:
        result[dynasty] -= _goal_distance(position, ruleset, dynasty) * (1 + URGENCY * elapsed)
        result[dynasty] -= _exposure(position, dynasty) * caution
        result[dynasty] -= boxed[dynasty]
    if len(active) == 2:
        # Face to face the hunter gains what the hunted loses, as on a battlefield of two:
        # ``utilities`` divides a rival's loss among every rival the battlefield seated, so on
        # medium-8 a hunter saw a seventh of it and spent its orders elsewhere.
        share = 1.0 - 1.0 / _rivals_seated(battlefield)
        one, other = active
        result[one] += boxed[other] * share
        result[other] += boxed[one] * share
    return result


def emperor_stakes(ruleset: Ruleset, battlefield: Battlefield, elapsed: float) -> float:
    """How many times its worth at the start an emperor weighs once ``elapsed`` of the turns
    are played (:data:`STAKES`)."""
    if elapsed and (
        ruleset.emperor_taken is EmperorTaken.CONVERT or falls_end_combat(ruleset, battlefield)
    ):
        return 1.0 + STAKES * elapsed
    return 1.0


def falls_end_combat(ruleset: Ruleset, battlefield: Battlefield) -> bool:
    """Whether the fall of emperors is what ends the combat (last-emperor, or a goal not known
    here): ``GoalTargets.ways_out``, the same for every dynasty."""
    return goal_targets(ruleset, battlefield, battlefield.dynasties[0]).ways_out


def _caution(position: Position, elapsed: float) -> float:
    """How much what a dynasty may lose next turn still weighs: fully, except face to face,
    where it fades to nothing at the turn limit.

    Under ``convert`` (R-C4) every take can be taken back, so two players who keep guarding
    what they might lose trade pieces and emperors until the limit decides (R-G2); under the
    other options an emperor that keeps stepping onto free tiles is never caught face to face,
    and two careful players reach the limit as surely. Letting that fear fade ends far more of
    those combats by their goal (docs/computer-players.md)."""
    if len(position.active_dynasties) == 2:
        return 1.0 - elapsed
    return 1.0


def _exposure(position: Position, dynasty: Dynasty) -> float:
    """How close rival pieces are to ``dynasty``'s emperors, in pawns: one that could attack
    next turn is counted by the threats already; the ones a step or two further are next."""
    emperors = position.emperor_tiles(dynasty)
    if len(emperors) != 1:
        return 0.0  # several emperors: losing one is not losing the combat
    battlefield = position.battlefield
    steps = steps_to(battlefield, emperors[0])
    cost = 0.0
    for tile, piece in position.pieces.items():
        if piece.dynasty is dynasty or piece.dynasty in position.defeated:
            continue
        gap = steps.get(tile, CLOSE_STEPS) - piece.experience
        if gap < CLOSE_STEPS:
            cost += CLOSE * (CLOSE_STEPS - max(gap, 0))
    return cost


def boxed_in(position: Position, ruleset: Ruleset, dynasty: Dynasty) -> int:
    """Of the four tiles beside ``dynasty``'s only emperor, how many it could not step to
    safely while it is hunted (:func:`_hunted`): safe is free, and out of every rival
    piece's reach next turn.

    A take needs a target that holds its tile (§4): an emperor that moves is taken only if a
    conflict sends it back, so a lone emperor with safe steps escapes every attack, and one
    boxed in falls as soon as its owner guesses wrong. Hunters close its ways out, the hunted
    keeps them open, and many more combats end by their goal. The tiles beside it, not
    all it reaches: its reach is its best pawn's experience (R-P4), and counting farther
    tiles made a take that resets that pawn (R-C3) look like a loss."""
    emperors = position.emperor_tiles(dynasty)
    if len(emperors) != 1:
        return 0  # several emperors: losing one is not losing the combat
    return _boxed_tiles(position, ruleset, dynasty, emperors[0])


def boxed_cost(position: Position, ruleset: Ruleset, dynasty: Dynasty) -> float:
    """What its emperors' closed ways out cost ``dynasty``, in pawns: its only emperor's
    (:func:`boxed_in`), or, face to face under ``convert`` (R-C4) against a rival with at least
    :data:`BOXED_AGAINST` emperors and no fewer, every one of its several emperors' at
    :data:`BOXED_SEVERAL` of that weight: there the last two share all the emperors, so its
    several ones are what the rival must take, one by one, to end the combat."""
    emperors = position.emperor_tiles(dynasty)
    if len(emperors) == 1:
        return BOXED * boxed_in(position, ruleset, dynasty)
    active = position.active_dynasties
    if len(active) != 2 or ruleset.emperor_taken is not EmperorTaken.CONVERT:
        return 0.0
    rival = active[1] if active[0] is dynasty else active[0]
    theirs = len(position.emperor_tiles(rival))
    if theirs < BOXED_AGAINST or theirs < len(emperors):
        return 0.0
    tiles = sum(_boxed_tiles(position, ruleset, dynasty, tile) for tile in emperors)
    return BOXED * BOXED_SEVERAL * tiles


def _boxed_tiles(position: Position, ruleset: Ruleset, dynasty: Dynasty, tile: Tile) -> int:
    """Of the four tiles beside ``dynasty``'s emperor on ``tile``, how many it could not step to
    safely, if it is hunted (:func:`_hunted`; 0 if not)."""
    if not _hunted(position, ruleset, dynasty, tile):
        return 0
    boxed = 4
    for ray in position.battlefield.rays(tile):
        if (
            ray
            and ray[0] not in position.pieces
            and not reached_by_rival(position, ray[0], dynasty)
        ):
            boxed -= 1
    return boxed


def _hunted(position: Position, ruleset: Ruleset, dynasty: Dynasty, tile: Tile) -> bool:
    """Whether ``dynasty``'s emperor on ``tile`` must keep its ways out: always where its
    fall ends the combat (``GoalTargets.ways_out``); for emperor-strike, once the emperor
    that must take it is within :data:`HUNTED_WITHIN` steps, or once the emperor it must take
    has fallen, when it can win only as the last standing (R-C6), as in last-emperor (else
    such emperors sat unhunted in their start tiles until the limit). Never where the goal
    sends emperors to a tile (reach-opposite, treasure): there, and with a striker still far,
    keeping ways out held emperors back from setting out."""
    battlefield = position.battlefield
    targets = goal_targets(ruleset, battlefield, dynasty)
    if targets.ways_out:
        return True
    if not targets.strike:
        return False
    if not any(position.emperor_tiles(prey) for prey in targets.strike):
        return True
    strikers = tuple(
        striker_tile
        for rival in position.active_dynasties
        if dynasty in goal_targets(ruleset, battlefield, rival).strike
        for striker_tile in position.emperor_tiles(rival)
    )
    return bool(strikers) and _nearest(battlefield, tile, strikers) <= HUNTED_WITHIN


def _goal_distance(position: Position, ruleset: Ruleset, dynasty: Dynasty) -> float:
    """How far ``dynasty``'s pieces still are from what its goal asks, in pawns.

    Pawns close in on the nearest rival emperor; under ``convert`` (R-C4), on a rival emperor
    standing on one of its emperor's goal tiles if there is one: taken, it is ``dynasty``'s
    emperor there, which wins reach-opposite or treasure at once (else those emperors sat in
    their start tiles, the opposite start of another dynasty, until the limit)."""
    battlefield = position.battlefield
    targets = goal_targets(ruleset, battlefield, dynasty)
    emperors = position.emperor_tiles(dynasty)
    cost = 0.0
    if targets.emperor_tiles and emperors:
        cost += GOAL_STEP * min(
            _nearest(battlefield, tile, targets.emperor_tiles) for tile in emperors
        )
    if targets.strike and emperors:
        prey = tuple(t for rival in targets.strike for t in position.emperor_tiles(rival))
        if prey:
            steps = min(_nearest(battlefield, tile, prey) for tile in emperors)
            cost += STRIKE_STEP * steps
            cost += STRIKE_FAR * max(0, steps - STRIKE_NEAR)
    if targets.monuments:
        cost += _monuments_distance(position, dynasty, targets.monuments)
    if targets.hunt:
        prey = tuple(
            tile
            for rival in position.active_dynasties
            if rival is not dynasty
            for tile in position.emperor_tiles(rival)
        )
        if targets.emperor_tiles and ruleset.emperor_taken is EmperorTaken.CONVERT:
            prey = tuple(t for t in prey if t in targets.emperor_tiles) or prey
        if prey:
            for tile, piece in position.pieces.items():
                if piece.dynasty is dynasty and piece.kind is PieceKind.PAWN:
                    cost += HUNT_STEP * _nearest(battlefield, tile, prey)
            if ruleset.takes is Takes.BY_EXPERIENCE:
                cost += _unassailable_hunt(position, dynasty)
    return cost


def _unassailable_hunt(position: Position, dynasty: Dynasty) -> float:
    """Under ``takes = by-experience`` (R-V4a), face to face: how far ``dynasty``'s pawns that
    no rival piece can take are from the rival's nearest emperor, in pawns
    (:data:`UNASSAILABLE_STEP` per step).

    Such a pawn is stronger than every rival piece, so it is also stronger than the rival's
    emperors (R-P4: their experience is their best pawn's) and can take them, while nothing
    can take it. Pulled no harder than any other pawn, it stood still while the weak pawns,
    which cannot take a stronger emperor, traded and retook each other in the middle until
    the turn limit (docs/computer-players.md)."""
    active = position.active_dynasties
    if len(active) != 2 or dynasty not in active:
        return 0.0
    rival = active[1] if active[0] is dynasty else active[0]
    prey = position.emperor_tiles(rival)
    if not prey:
        return 0.0
    strongest = max(
        (piece.experience for piece in position.pieces.values() if piece.dynasty is rival),
        default=0,
    )
    battlefield = position.battlefield
    cost = 0.0
    for tile, piece in position.pieces.items():
        if (
            piece.dynasty is dynasty
            and piece.kind is PieceKind.PAWN
            and piece.experience > strongest
        ):
            cost += UNASSAILABLE_STEP * _nearest(battlefield, tile, prey)
    return cost


def _monuments_distance(position: Position, dynasty: Dynasty, monuments: tuple[Tile, ...]) -> float:
    """How far ``dynasty`` is from standing on every monument tile (R-V5b), in pawns: each
    monument its pieces do not hold costs :data:`MONUMENT_MISSING` and :data:`MONUMENT_STEP`
    per step of the nearest of its pieces not already on a monument (each piece sent to one
    monument only: one pawn cannot hold two). Pawns go first; its emperor only when it has no
    free pawn left."""
    battlefield = position.battlefield
    pieces = position.pieces
    held = [tile for tile in monuments if tile in pieces and pieces[tile].dynasty is dynasty]
    if len(held) == len(monuments):
        return 0.0
    free = [
        tile for tile, piece in pieces.items() if piece.dynasty is dynasty and tile not in monuments
    ]
    free.sort(key=lambda tile: pieces[tile].kind is PieceKind.EMPEROR)
    far = battlefield.height + battlefield.width
    cost = 0.0
    for monument in monuments:
        if monument in held:
            continue
        cost += MONUMENT_MISSING
        steps = steps_to(battlefield, monument)
        best = -1
        for index, tile in enumerate(free):
            if best < 0 or steps.get(tile, far) < steps.get(free[best], far):
                best = index
        if best < 0:
            cost += MONUMENT_STEP * far
        else:
            cost += MONUMENT_STEP * steps.get(free.pop(best), far)
    return cost


def utilities(game: Game, *, urgent: bool = True) -> dict[Dynasty, float]:
    """What the combat is worth to each dynasty now: ±:data:`WIN` once it is over (a win on the
    count, :data:`COUNTED_WIN`; a draw, :data:`DRAW`), otherwise its value minus the mean value
    of its rivals.

    ``urgent``: the goal weighs more as the turn limit nears (see :func:`values`), which a
    player looking one turn ahead needs to finish a combat; a search that plays the last
    turns out sees the limit itself, and plays better without it."""
    dynasties = game.position.battlefield.dynasties
    outcome = game.outcome
    if outcome is not None:
        winners = outcome.winners
        win = COUNTED_WIN if outcome.cause is OutcomeCause.MOST_PIECES else WIN
        return {d: (win if d in winners else -WIN) if winners else DRAW for d in dynasties}
    elapsed = game.turn / game.ruleset.turn_limit if urgent else 0.0
    worth = values(game.position, game.ruleset, elapsed)
    if game.domains is not None:
        # Goal domains (R-V6): painted tiles are the goal's progress; a defeated dynasty's
        # colour counts for nobody (R-V6b).
        covered = game.domains.counts()
        for dynasty in game.position.active_dynasties:
            worth[dynasty] += PAINTED * (1 + URGENCY * elapsed) * covered[seat_of(dynasty)]
    total = sum(worth.values())
    rivals = _rivals_seated(game.position.battlefield)
    return {d: worth[d] - (total - worth[d]) / rivals for d in dynasties}


def _rivals_seated(battlefield: Battlefield) -> int:
    """Among how many rivals :func:`utilities` shares a dynasty's losses: every other dynasty the
    battlefield seated, defeated ones too (:func:`values` makes up the rest face to face)."""
    return max(len(battlefield.dynasties) - 1, 1)
