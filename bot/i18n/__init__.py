"""The bot's words in each reader's language: message catalogues, locales, numbers (issue #15).

Every sentence a player reads is a message of the catalogue, ``bot/locales/<locale>/*.ftl``
in Project Fluent's format, found by its id and filled with named parameters in the reader's
locale::

    text("es-ES", "dynasty-founded", name=plain(dynasty.name))

A whole sentence is one message: code never glues translated fragments together, and a
message that needs a word that varies (a status, a count) chooses it with a Fluent selector,
so each language orders and inflects its own sentence. A sentence made now and read later, or
by readers of several languages (a refusal a service raises, a line for a channel), is a
:class:`Message`: an id and its parameters, rendered when it is read.

**Locales.** Discord names a reader's language (``interaction.locale``, a server's preferred
locale); :func:`speaks` maps it to one the bot speaks: its own when the bot has that language
(``es-419`` reads the ``es-ES`` catalogue but writes numbers the Latin American way), else
English, the fallback for everything. A message missing in a language falls back to English
at run time (the tests fail first: ``tests/bot/test_i18n.py``).

**Numbers.** An ``int`` or ``float`` parameter is a Fluent number, formatted for the locale
(``2,5`` in Spanish) and selecting plural forms. It is written without grouping by default,
since most numbers the game shows are ids players type back (``#1234``, ``turn 12``); a message
groups an amount itself: ``{ NUMBER($amount, useGrouping: 1) }``. Times are Discord timestamps
(``<t:…:R>``), which every reader's client shows in their own language and time zone.

**Speed.** A turn prompt says some thirty messages, so they must be cheap: a message made of
the same parameters again (a piece's label, a button) is remembered (:data:`REMEMBERED`), and
a plain whole number is written without Babel's pattern machinery (Latin digits, as every
locale the bot speaks writes them).
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Union

from babel import Locale
from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.resolver import CurrentEnvironment, Pattern, ResolverEnvironment
from fluent.runtime.types import (
    FORMAT_STYLE_DECIMAL,
    FluentFloat,
    FluentInt,
    FluentNone,
    FluentType,
)

from data.errors import Refusal
from data.repositories.erasures import ERASED_NAME

log = logging.getLogger(__name__)

DEFAULT_LOCALE = "en-US"
"""English: what Discord shows when a command has no localisation, and every fallback."""
CATALOGUES: Mapping[str, str] = {"en": "en-US", "es": "es-ES"}
"""The folder of ``bot/locales`` that holds each language's messages."""
SPOKEN: tuple[str, ...] = ("en-US", "en-GB", "es-ES", "es-419")
"""The Discord locales the bot speaks as themselves; any other locale of a language the bot
has reads that language's catalogue (and its numbers), and every other one reads English."""

PLACEABLE_LIMIT = 2000
"""Characters of one parameter a message shows at most (:func:`fitted`). Fluent refuses a
longer placeable than 2,500 characters (it logs an error and shows ``{???}``), and Discord
shows no message over 2,000: what a player typed can be longer than either."""

REMEMBERED = 8192
"""Messages remembered as made, by locale, id and parameters."""

MESSAGE_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
"""What a message id looks like (``dynasty-founded``): lower case words joined by hyphens."""

Param = Union[str, int, float, "Message", "Listing", "Named"]
"""A message's parameter: text (already escaped for Discord where it is shown as markdown), a
number, or another message (or list of messages) rendered in the same locale."""


@dataclass(frozen=True, init=False, eq=False)
class Message:
    """A message id and its parameters: what to say, rendered in the language of whoever reads
    it (:meth:`text`)."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __init__(self, message_id: str, /, **params: Param) -> None:
        object.__setattr__(self, "id", message_id)
        object.__setattr__(self, "params", params)

    def text(self, locale: str) -> str:
        return text(locale, self.id, **self.params)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.id, self.params) == (other.id, other.params)

    def __hash__(self) -> int:
        return hash((self.id, frozenset(self.params.items())))


Name = str | Message
"""What boards, narration and results call a seat: its emperor's name as its player chose it
(plain text, escaped where Discord reads markdown), or, for a seat without an emperor, the
bot's words in the reader's language: ``guest A``, ``greedy bot``, ``seat A`` (``seats.ftl``)."""


def stored_name(name: str) -> Name:
    """A name a player chose, as the tables keep it (an emperor's, a dynasty's, a program's);
    an erased player's (/privacy delete: :data:`~data.repositories.erasures.ERASED_NAME`) in
    the reader's words instead."""
    return Message("privacy-deleted-player") if name == ERASED_NAME else name


def name_text(name: Name | Named, locale: str) -> str:
    """A name as plain text in ``locale`` (a board's legend, a menu's label)."""
    return name if isinstance(name, str) else name.text(locale)


@dataclass(frozen=True)
class Listing:
    """Several messages (or names) read as one list, ``3 × gold coin, 1 × ruby``; ``empty``
    if none."""

    items: tuple[Name | Named, ...]
    empty: Message
    separator: str = ", "
    last: str | None = None
    """A message joining the last item to the others (``list-and``: ``a, b and c``), if any."""

    def text(self, locale: str) -> str:
        said = [name_text(item, locale) for item in self.items]
        if self.last is not None and len(said) > 1:
            return text(locale, self.last, first=self.separator.join(said[:-1]), last=said[-1])
        return self.separator.join(said) or self.empty.text(locale)


@dataclass(frozen=True)
class Named:
    """A slash command (``tournament join``), one of its options, or one of an option's
    choices, as a reader of each language types it: ``/torneo unirse``, ``premio_riqueza``,
    ``fácil``. The cogs name commands in English; the catalogue's ``commands.ftl`` names them
    in the other languages (:mod:`bot.i18n.commands`)."""

    command: str
    option: str | None = None
    choice: tuple[str, str] | None = None
    """A choice of ``option``: its value and its (English) name."""

    def text(self, locale: str) -> str:
        words = self.command.split()
        if self.option is not None and self.choice is not None:
            value, name = self.choice
            value = re.sub(r"[^A-Za-z0-9_-]", "_", value)
            message_id = "cmd-" + "-".join(words) + "--" + self.option + "--" + value
            return lookup(locale, message_id) or name
        if self.option is not None:
            message_id = "cmd-" + "-".join(words) + "--" + self.option
            return lookup(locale, message_id) or self.option
        names = [
            lookup(locale, "cmd-" + "-".join(words[: index + 1])) or word
            for index, word in enumerate(words)
        ]
        return " ".join(names)


def speaks(locale: object) -> str:
    """The locale the bot speaks to a reader of ``locale`` (a Discord locale, its string, or
    None): itself if spoken, else its language's catalogue, else English."""
    code = str(locale) if locale is not None else ""
    if code in SPOKEN:
        return code
    return CATALOGUES.get(code.split("-")[0].lower(), DEFAULT_LOCALE)


def catalogue_of(locale: str) -> str:
    """The folder whose messages a spoken ``locale`` reads (``es-419`` reads ``es-ES``)."""
    return CATALOGUES.get(speaks(locale).split("-")[0], DEFAULT_LOCALE)


def text(locale: str, message_id: str, /, **params: Param) -> str:
    """Message ``message_id`` in ``locale`` (English where that language lacks it) with its
    placeables filled from ``params``."""
    try:
        return _remembered(locale, message_id, frozenset(params.items()))
    except TypeError:  # a parameter that cannot be remembered (none of the game's)
        return _text(locale, message_id, params)


@functools.lru_cache(maxsize=REMEMBERED)
def _remembered(locale: str, message_id: str, params: frozenset[tuple[str, Param]]) -> str:
    return _text(locale, message_id, dict(params))


def _text(locale: str, message_id: str, params: Mapping[str, Param]) -> str:
    spoken = speaks(locale)
    bundle = _bundle(spoken)
    if not bundle.has_message(message_id):
        log.error("Message %r is missing in %s", message_id, catalogue_of(spoken))
        bundle = _bundle(DEFAULT_LOCALE)
        if not bundle.has_message(message_id):
            return message_id
    pattern = bundle.get_message(message_id).value
    if pattern is None:
        log.error("Message %r has no value", message_id)
        return message_id
    return _formatted(bundle, message_id, pattern, spoken, params)


def lookup(locale: str, message_id: str, attribute: str | None = None) -> str | None:
    """Message ``message_id`` (or its ``attribute``) as ``locale``'s own catalogue has it,
    with no parameters and no English fallback; None if that catalogue lacks it. For texts
    whose English lives elsewhere, such as the commands' names in their decorators."""
    spoken = speaks(locale)
    bundle = _bundle(spoken)
    if not bundle.has_message(message_id):
        return None
    found = bundle.get_message(message_id)
    pattern = found.value if attribute is None else found.attributes.get(attribute)
    if pattern is None:
        return None
    return _formatted(bundle, message_id, pattern, spoken, {})


class Voice:
    """Messages in one reader's locale: ``say = Voice("es-ES"); say("dynasty-founded", …)``."""

    __slots__ = ("locale",)

    def __init__(self, locale: object) -> None:
        self.locale = speaks(locale)

    def __call__(self, message_id: str, /, **params: Param) -> str:
        return text(self.locale, message_id, **params)

    def __repr__(self) -> str:
        return f"Voice({self.locale!r})"


ENGLISH = Voice(DEFAULT_LOCALE)
"""For modules that do not speak the reader's language yet (issue #15, phase B)."""


def _formatted(
    bundle: FluentBundle,
    message_id: str,
    pattern: object,
    locale: str,
    params: Mapping[str, Param],
) -> str:
    arguments = {name: _argument(value, locale) for name, value in params.items()}
    result, errors = bundle.format_pattern(pattern, arguments)  # type: ignore[arg-type]
    if errors:
        log.error("Message %r in %s: %s", message_id, locale, "; ".join(map(str, errors)))
    return result if isinstance(result, str) else message_id


def _argument(value: Param, locale: str) -> str | FluentType:
    if isinstance(value, Message | Listing | Named):
        return fitted(value.text(locale))
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return _Integer(value, useGrouping=False)
    if isinstance(value, float):
        return FluentFloat(value, useGrouping=False)
    return fitted(value)


def fitted(said: str) -> str:
    """``said`` as one parameter of a message may hold it: cut to :data:`PLACEABLE_LIMIT`
    characters with "…" if longer, never between a backslash and the character it escapes
    nor between a letter and its accents."""
    if len(said) <= PLACEABLE_LIMIT:
        return said
    cut = said[: PLACEABLE_LIMIT - 1]
    while cut and unicodedata.combining(cut[-1]):
        cut = cut[:-1]
    cut = cut[:-1] if cut and not cut[-1].isprintable() else cut
    if (len(cut) - len(cut.rstrip("\\"))) % 2:
        cut = cut[:-1]
    return cut + "…"


class _Integer(FluentInt):
    """A whole number as a parameter: written in Latin digits as it is, unless a message asks
    for more (``NUMBER($amount, useGrouping: 1)`` makes a plain Fluent number of it)."""

    def format(self, locale: Locale) -> str:
        options = self.options
        if (
            not options.useGrouping
            and options.style == FORMAT_STYLE_DECIMAL
            and options.minimumIntegerDigits is None
            and options.minimumFractionDigits is None
            and options.minimumSignificantDigits is None
            and options.maximumSignificantDigits is None
        ):
            return str(int(self))
        return super().format(locale)


def resource_files(folder: str) -> Iterator[tuple[str, str]]:
    """``(file name, text)`` of every ``.ftl`` file of ``bot/locales/<folder>``, by name."""
    directory = resources.files("bot").joinpath("locales").joinpath(folder)
    for entry in sorted(directory.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".ftl"):
            yield entry.name, entry.read_text(encoding="utf-8")


class _Bundle(FluentBundle):
    """A bundle that takes the parameters :func:`_argument` made as they are (Fluent's own
    turns every ``int`` into a plain Fluent number again)."""

    def format_pattern(
        self, pattern: Pattern, args: dict[str, Any] | None = None
    ) -> tuple[str | FluentNone, list[Exception]]:
        errors: list[Exception] = []
        current = CurrentEnvironment(args=args or {})
        environment = ResolverEnvironment(context=self, current=current, errors=errors)
        try:
            result = pattern(environment)
        except ValueError as error:
            errors.append(error)
            result = "{???}"
        return result, errors


@functools.cache
def _bundle(locale: str) -> FluentBundle:
    """The messages of ``locale``'s catalogue, formatting numbers and plurals as ``locale``."""
    bundle = _Bundle([locale], use_isolating=False)
    for _, source in resource_files(catalogue_of(locale)):
        bundle.add_resource(FluentResource(source))
    return bundle


# Every refusal reads as its English sentence in logs and tests, from the catalogue.
from bot.i18n.refusals import english  # noqa: E402 (it is built on the names above)

Refusal.words = english
