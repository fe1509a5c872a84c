"""The variants of the sibling designs (RULES.md R-V0a) as a host chooses them.

``/tournament create`` folds the five variant options into one: ``variants``, the words of the
variants turned on (``hidden, fortress``); ``none`` (the default) is the game as sections 1-9
write it. Each word sets one option of the engine's ruleset (:data:`VARIANT_WORDS`); the domains
goal's percentage is an option of its own. A server may give either a default (/settings).

What a combination or a battlefield cannot offer is refused here, naming the rule, before the
engine sees it: ``mutual`` needs ``by-experience`` (R-V0a), ``hidden`` home zones large enough
(R-V1b), the ``monuments`` goal a monument tile (R-V5b).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping

from data.errors import Refusal
from engine import (
    Battlefield,
    EmperorLost,
    EqualTakes,
    Fortress,
    GoalKind,
    Ruleset,
    Setup,
    Takes,
)

NO_VARIANTS = "none"
"""The ``variants`` value of the game as sections 1-9 write it."""

VARIANT_WORDS: Mapping[str, tuple[str, str]] = {
    "hidden": ("setup", Setup.HIDDEN.value),  # R-V1
    "fortress": ("fortress", Fortress.ON.value),  # R-V2b
    "crown": ("emperor_lost", EmperorLost.CROWN.value),  # R-V3
    "by-experience": ("takes", Takes.BY_EXPERIENCE.value),  # R-V4a
    "mutual": ("equal_takes", EqualTakes.MUTUAL.value),  # R-V4b
}
"""Each word a host may give in ``variants``, in the order they are written back, and the
ruleset option (R-V0a) it turns on."""

PRESETS: Mapping[str, tuple[str, ...]] = {
    "cyvasse": ("hidden", "fortress", "crown"),
    "chess": ("by-experience", "mutual"),
}
"""Combinations named after the sibling design they come from (seeds 002 and 001)."""

DOMAINS_PERCENTS: tuple[int, ...] = tuple(range(10, 101, 5))
"""The domains percentages a server may make its default (a host may give any from 1 to 100)."""

_SEPARATORS = re.compile(r"[\s,+;/]+")


class VariantRefused(Refusal):
    """A variant a host (or a server's default) chose that cannot be played as chosen."""


def variant_words(text: str) -> tuple[str, ...]:
    """The variants a host wrote (``"hidden, fortress"``, ``"Crown + mutual"``, a preset's
    name), in :data:`VARIANT_WORDS` order; ``none`` is none. Refused: a word that names no
    variant, and ``mutual`` without ``by-experience`` (R-V0a)."""
    words: set[str] = set()
    for word in _SEPARATORS.split(text.strip().lower()):
        if not word or word == NO_VARIANTS:
            continue
        if word in PRESETS:
            words.update(PRESETS[word])
        elif word in VARIANT_WORDS:
            words.add(word)
        else:
            raise VariantRefused(
                "unknown-variant", word=word, words=", ".join([*VARIANT_WORDS, *PRESETS])
            )
    if "mutual" in words and "by-experience" not in words:
        raise VariantRefused("variant-mutual-alone")
    return tuple(word for word in VARIANT_WORDS if word in words)


def written(words: Iterable[str]) -> str:
    """Variants as a value of the ``variants`` option: ``hidden, fortress``, or ``none``."""
    return ", ".join(words) or NO_VARIANTS


def ruleset_options(words: Iterable[str]) -> dict[str, str]:
    """The ruleset options (R-V0a) the variants turn on, by key (:meth:`Ruleset.from_options`)."""
    return dict(VARIANT_WORDS[word] for word in words)


def combinations() -> list[str]:
    """Every combination a host may choose, as written (``none`` first): the server default's
    choices, and what the autocomplete offers."""
    found = []
    words = list(VARIANT_WORDS)
    for size in range(len(words) + 1):
        for chosen in itertools.combinations(words, size):
            if "mutual" in chosen and "by-experience" not in chosen:
                continue
            found.append(written(chosen))
    return found


def offered(typed: str) -> list[str]:
    """What the ``variants`` autocomplete offers for what a host typed so far: nothing typed,
    the game as written, each variant alone and the sibling designs' combinations; else the
    variants typed (the last word may be half written), then each one more variant (``mutual``
    comes with ``by-experience``)."""
    parts = [word for word in _SEPARATORS.split(typed.strip().lower()) if word]
    if not parts:
        return [NO_VARIANTS, *VARIANT_WORDS, *(written(words) for words in PRESETS.values())]
    chosen = {word for word in parts if word in VARIANT_WORDS}
    partial = "" if parts[-1] in VARIANT_WORDS or typed[-1:] in " ,+;/" else parts[-1]
    found = [written(word for word in VARIANT_WORDS if word in chosen)] if chosen else []
    for word in VARIANT_WORDS:
        if word in chosen or not word.startswith(partial):
            continue
        more = chosen | {word} | ({"by-experience"} if word == "mutual" else set())
        found.append(written(word for word in VARIANT_WORDS if word in more))
    for preset, words in PRESETS.items():
        if partial and preset.startswith(partial):
            found.append(written(words))
    return list(dict.fromkeys(found))


def words_of(ruleset: Ruleset) -> tuple[str, ...]:
    """The variants a ruleset plays, as a host writes them."""
    options = ruleset.variant_options()
    return tuple(word for word, (key, value) in VARIANT_WORDS.items() if options.get(key) == value)


def check_battlefield(ruleset: Ruleset, battlefield: Battlefield) -> None:
    """Refuse, naming the rule, a variant or goal the battlefield cannot offer: the goal
    ``monuments`` needs a monument tile (R-V5b); ``hidden`` needs every home zone to hold its
    dynasty's pieces and mountains (R-V1b: the battlefield's file promises it, checked here
    again for the host's sake)."""
    if ruleset.goal.kind is GoalKind.MONUMENTS and not battlefield.monuments:
        raise VariantRefused("no-monument-tile", battlefield=battlefield.name)
    if ruleset.setup is not Setup.HIDDEN:
        return
    for dynasty in battlefield.dynasties:
        zone = len(battlefield.home_zone(dynasty))
        needed = battlefield.pieces_of(dynasty) + battlefield.mountains_per_dynasty
        if zone < needed:
            raise VariantRefused(
                "home-zone-too-small",
                battlefield=battlefield.name,
                dynasty=dynasty.letter,
                zone=zone,
                needed=needed,
            )
