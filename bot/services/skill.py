"""Skill beside reputation (issue #14, item 8): a rating per emperor from its serious combats.

Reputation is the game's stake-and-win score; skill estimates how well an emperor plays. It
uses openskill's Weng-Lin model with Plackett-Luce rankings, made for free-for-all games of
any number of players: each combat ranks its seats, and each emperor's estimate (``mu``) and
uncertainty (``sigma``) move by how surprising its place was given everyone's ratings. The
number shown is the conservative estimate ``mu - 3 sigma`` (openskill's ordinal): it starts
at 0 and rises as an emperor wins and as its rating becomes certain.

How a combat ranks its seats (docs/rules.md says the same):

1. the winners, together;
2. the dynasties still standing at the end that did not win (the turn limit's or a goal's
   losers; in a draw, everyone still standing), together;
3. the defeated, the later a dynasty fell the better its place; dynasties that fell in the
   same turn share a place. A forfeit counts as a fall in the last turn resolved before it.

Computer players and casual seats have no emperor: they take part in the ranking with a fixed
rating that is never updated (a computer's by its strategy, a casual seat the model's
newcomer rating), so beating a strong computer counts more than beating a weak one. A
player's program (issue #37) has a rating of its own, which its combats update as an
emperor's (:func:`rate_programs`). Training changes nothing. Pure: no database here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from data.rows import ProgramSkillRow, SeatKind, SeatRow, SkillRow
from engine import Dynasty, GameOutcome

MODEL = PlackettLuce()
"""The model with openskill's defaults: a newcomer is mu 25, sigma 25/3."""
Z = 3.0
"""The conservative estimate shown is ``mu - Z * sigma``."""

COMPUTER_SKILL: Mapping[str, tuple[float, float]] = {
    "random": (15.0, 2.0),
    "greedy": (25.0, 2.0),
}
"""The fixed rating (mu, sigma) of each computer strategy: a random player is weak, greedy
about a newcomer's mean; both certain (small sigma), since they never learn. A strategy not
listed plays as a newcomer."""
NEWCOMER = (MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Skill:
    """An emperor's rating as shown: the conservative estimate and what it rests on."""

    mu: float
    sigma: float
    combats: int

    @property
    def estimate(self) -> float:
        return self.mu - Z * self.sigma


def skill_of(row: SkillRow | None) -> Skill:
    """An emperor's skill; a newcomer's if it never finished a serious combat."""
    if row is None:
        return Skill(NEWCOMER[0], NEWCOMER[1], 0)
    return Skill(row.mu, row.sigma, row.combats)


def places(
    seats: Sequence[SeatRow], outcome: GameOutcome, fell: Mapping[Dynasty, int]
) -> dict[Dynasty, int]:
    """Each seat's place in the combat, 1 the best; equal places share a number (see the
    module's docstring). ``fell`` is the turn each defeated dynasty fell in."""
    winners = set(outcome.winners)

    def standing(seat: SeatRow) -> tuple[int, int]:
        if seat.dynasty in winners:
            return (0, 0)
        if seat.dynasty not in fell:
            return (1, 0)
        return (2, -fell[seat.dynasty])

    order = sorted({standing(seat) for seat in seats})
    return {seat.dynasty: order.index(standing(seat)) + 1 for seat in seats}


def rate(
    seats: Sequence[SeatRow],
    placed: Mapping[Dynasty, int],
    ratings: Mapping[int, SkillRow],
    programs: Mapping[int, ProgramSkillRow] | None = None,
) -> list[SkillRow]:
    """The new ratings of the seated emperors after a combat that placed its seats so;
    ``ratings`` holds the emperors' ratings before it, ``programs`` the seated programs'
    (missing: newcomers)."""
    updated = []
    for seat, after in _after(seats, placed, ratings, programs or {}):
        if seat.emperor_id is None:
            continue
        before = ratings.get(seat.emperor_id)
        combats = (before.combats if before is not None else 0) + 1
        updated.append(SkillRow(seat.emperor_id, after.mu, after.sigma, combats))
    return updated


def rate_programs(
    seats: Sequence[SeatRow],
    placed: Mapping[Dynasty, int],
    ratings: Mapping[int, SkillRow],
    programs: Mapping[int, ProgramSkillRow],
) -> list[ProgramSkillRow]:
    """The new ratings of the seated programs after the same combat (see :func:`rate`)."""
    updated = []
    for seat, after in _after(seats, placed, ratings, programs):
        if seat.program_id is None:
            continue
        before = programs.get(seat.program_id)
        combats = (before.combats if before is not None else 0) + 1
        updated.append(ProgramSkillRow(seat.program_id, after.mu, after.sigma, combats))
    return updated


def _after(
    seats: Sequence[SeatRow],
    placed: Mapping[Dynasty, int],
    ratings: Mapping[int, SkillRow],
    programs: Mapping[int, ProgramSkillRow],
) -> list[tuple[SeatRow, PlackettLuceRating]]:
    """Each seat with its rating after the combat (none for a combat of one seat)."""
    teams = []
    for seat in seats:
        known: SkillRow | ProgramSkillRow | None = None
        if seat.emperor_id is not None:
            known = ratings.get(seat.emperor_id)
        elif seat.program_id is not None:
            known = programs.get(seat.program_id)
        if known is not None:
            mu, sigma = known.mu, known.sigma
        elif seat.kind is SeatKind.COMPUTER:
            mu, sigma = COMPUTER_SKILL.get(seat.strategy or "", NEWCOMER)
        else:
            mu, sigma = NEWCOMER
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    if len(teams) < 2:
        return []
    rated = MODEL.rate(teams, ranks=[float(placed[seat.dynasty]) for seat in seats])
    return [(seat, after) for seat, [after] in zip(seats, rated, strict=True)]
