"""The catalogues are complete and the code uses them (issue #15): every message in every
language with the same placeables, every message id the code names in the catalogue, no English
left in the modules that speak the reader's language, and the data layer's refusals in words
that read as they did.

Phase B extends :data:`CONVERTED` as it converts the rest.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from bot.i18n import (
    CATALOGUES,
    DEFAULT_LOCALE,
    MESSAGE_ID,
    Listing,
    Message,
    Voice,
    resource_files,
    speaks,
    text,
)
from bot.i18n.refusals import (
    key,
    refusal,
    said,
    user_message,
)
from data import errors
from data.errors import Refusal

ROOT = Path(__file__).resolve().parents[2]
ENGLISH, SPANISH = "en-US", "es-ES"
COMMANDS_FILE = "commands.ftl"
"""Commands are named in English by the cogs' decorators: only the other languages have it."""

CONVERTED = (
    "bot/announcer.py",
    "bot/command_tree.py",
    "bot/delivery.py",
    "bot/narration.py",
    "bot/render/__init__.py",
    "bot/render/board.py",
    "bot/render/layout.py",
    "bot/steps.py",
    "bot/services/chests.py",
    "bot/services/dynasties.py",
    "bot/services/economy.py",
    "bot/services/outcomes.py",
    "bot/services/settings.py",
    "bot/services/tournaments/absences.py",
    "bot/services/tournaments/base.py",
    "bot/services/tournaments/chests.py",
    "bot/services/tournaments/deadlines.py",
    "bot/services/tournaments/deployments.py",
    "bot/services/tournaments/following.py",
    "bot/services/tournaments/handover.py",
    "bot/services/tournaments/history.py",
    "bot/services/tournaments/lookup.py",
    "bot/services/tournaments/orders.py",
    "bot/services/tournaments/seating.py",
    "bot/services/tournaments/turns.py",
    "bot/services/variants.py",
    "bot/services/viewing.py",
    "bot/views/boards.py",
    "bot/views/chests.py",
    "bot/views/combat.py",
    "bot/views/deployment.py",
    "bot/views/dynasties.py",
    "bot/views/economy.py",
    "bot/views/help.py",
    "bot/views/history.py",
    "bot/views/log.py",
    "bot/views/markup.py",
    "bot/views/prompts.py",
    "bot/views/refusals.py",
    "bot/views/settings.py",
    "bot/views/tournaments.py",
    "bot/web/viewer.py",
    "bot/web/viewer_json.py",
    "cogs/away.py",
    "cogs/common.py",
    "cogs/deadlines.py",
    "cogs/deployments.py",
    "cogs/dynasties.py",
    "cogs/economy.py",
    "cogs/errors.py",
    "cogs/handover.py",
    "cogs/help.py",
    "cogs/history.py",
    "cogs/orders.py",
    "cogs/settings.py",
    "cogs/spectators.py",
    "cogs/tournaments.py",
)
"""The modules whose every word a player reads comes from the catalogue. Phase B of issue #15
adds the rest: the other modules of bot/services/tournaments/ and bot/scheduler.py."""


# ------------------------------------------------------------------------- the catalogues


Entries = dict[str, ftl.Message]


@cache
def entries(folder: str, *, commands: bool = False) -> Entries:
    """The messages of a catalogue folder (with or without its commands file), parsed."""
    found: Entries = {}
    for name, source in resource_files(folder):
        if (name == COMMANDS_FILE) is not commands:
            continue
        for entry in FluentParser().parse(source).body:
            if isinstance(entry, ftl.Message):
                found[entry.id.name] = entry
    return found


def test_every_file_parses_without_a_syntax_error() -> None:
    for folder in CATALOGUES.values():
        for name, source in resource_files(folder):
            junk = [e for e in FluentParser().parse(source).body if isinstance(e, ftl.Junk)]
            assert not junk, f"{folder}/{name}: {[j.content[:60] for j in junk]}"


def test_every_message_is_in_every_language() -> None:
    english = set(entries(ENGLISH))
    for folder in CATALOGUES.values():
        found = set(entries(folder))
        assert english - found == set(), f"missing in {folder}"
        assert found - english == set(), f"only in {folder}, not in English"


def variables(folder: str, message_id: str, attribute: str | None = None) -> frozenset[str]:
    """The variables a message (or its attribute) reads, with those of the messages it refers
    to (a message reference reads the same variables)."""
    catalogue = {**entries(folder), **entries(folder, commands=True)}
    seen: set[str] = set()

    def of(node: ftl.BaseNode) -> set[str]:
        names: set[str] = set()

        class Names(Visitor):  # type: ignore[misc]
            def visit_VariableReference(self, node: ftl.VariableReference) -> None:
                names.add(node.id.name)

            def visit_MessageReference(self, node: ftl.MessageReference) -> None:
                if node.id.name not in seen:
                    seen.add(node.id.name)
                    referred = catalogue[node.id.name]
                    assert referred.value is not None
                    names.update(of(referred.value))

        Names().visit(node)
        return names

    message = catalogue[message_id]
    if attribute is None:
        assert message.value is not None
        return frozenset(of(message.value))
    pattern = next(a.value for a in message.attributes if a.id.name == attribute)
    return frozenset(of(pattern))


def test_every_language_fills_the_same_placeables() -> None:
    for message_id, message in entries(ENGLISH).items():
        wanted = variables(ENGLISH, message_id)
        for folder in CATALOGUES.values():
            assert variables(folder, message_id) == wanted, f"{message_id} in {folder}"
            attributes = {a.id.name for a in entries(folder)[message_id].attributes}
            assert attributes == {a.id.name for a in message.attributes}, message_id


def test_a_message_missing_in_a_language_falls_back_to_english() -> None:
    assert text("es-ES", "no-such-message") == "no-such-message"
    assert speaks("fr") == DEFAULT_LOCALE and speaks(None) == DEFAULT_LOCALE
    assert speaks("es-419") == "es-419" and speaks("es-MX") == "es-ES"


def test_numbers_and_plurals_follow_the_locale() -> None:
    skill = {"estimate": 12.34, "mu": 27.9, "sigma": 5.0, "combats": 1}
    assert text("en-US", "skill-rating", **skill) == "skill 12.3 (μ 27.9 ± 5.0, 1 combat)"
    assert text("es-ES", "skill-rating", **skill) == "habilidad 12,3 (μ 27,9 ± 5,0, 1 combate)"
    assert text("es-419", "skill-rating", **skill) == "habilidad 12.3 (μ 27.9 ± 5.0, 1 combate)"
    # Ids are never grouped (players type them back); amounts are, where a message says so.
    assert text("en-US", "trade-offer-sent", trade="12345", receiver="X").startswith(
        "Offer #12345 "
    )
    assert "1,000,000,000,000" in text("en-US", "refusal-too-much", limit=10**12)
    assert "1.000.000.000.000" in text("es-ES", "refusal-too-much", limit=10**12)
    assert text("es-ES", "board-pieces", pieces=1) == "1 pieza"
    assert text("es-ES", "board-pieces", pieces=3) == "3 piezas"
    nested = Message(
        "economy-amount", amount=2, what=Message("asset-name", asset="ruby", name="ruby")
    )
    assert Listing((nested,), Message("economy-nothing")).text("es-ES") == "2 × rubí"
    assert Listing((), Message("economy-nothing")).text("es-ES") == "nada"


# ------------------------------------------------------------------------ what code says


def python_files() -> Iterator[Path]:
    """The modules that speak to players (``data`` and ``engine`` name rules and kinds with
    hyphenated words of their own, such as ``emperor-strike``, and hold no message ids)."""
    for package in ("bot", "cogs"):
        yield from sorted((ROOT / package).rglob("*.py"))


ID_CALLS = frozenset({"say", "text", "Message", "ApiRefusal"})
"""What takes a message id first (``text`` takes it second, after the locale)."""
REFUSALS = frozenset(
    {"Refusal", "Refused", "OptionRefused", "NotAllowed", "TokenRefused", "VariantRefused"}
)
"""What takes a refusal's kind first: its words are message ``refusal-<kind>``."""
INVALID = "InvalidValue"
"""What takes a kind of value the game cannot store: message ``refusal-invalid-<kind>``."""
KIND = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _called(node: ast.Call) -> str | None:
    function = node.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Call):  # voice(interaction)("id", …), Voice(locale)("id", …)
        inner = _called(function)
        return "say" if inner in ("voice", "Voice") else None
    return None


def id_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str]]:
    """Calls that name a message by a literal id, with that id; a refusal by its kind, with
    the id of the message that says it."""
    refusing = _refusal_classes(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        position = 1 if name == "text" else 0
        argument = node.args[position] if len(node.args) > position else None
        if not isinstance(argument, ast.Constant) or not isinstance(argument.value, str):
            continue
        said = argument.value
        if name in ID_CALLS and MESSAGE_ID.fullmatch(said):
            yield node, said
        elif (name in REFUSALS or node in refusing) and KIND.fullmatch(said):
            yield node, f"refusal-{said}"
        elif name == INVALID and KIND.fullmatch(said):
            yield node, f"refusal-invalid-{said}"


def _refusal_classes(tree: ast.AST) -> set[ast.Call]:
    """The ``super().__init__(kind, …)`` calls of classes that are refusals (a subclass of a
    refusal, in this module or as imported), which name their kind."""
    known = set(REFUSALS)
    calls: set[ast.Call] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
        if not bases & known:
            continue
        known.add(node.name)
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Attribute)
                and inner.func.attr == "__init__"
                and isinstance(inner.func.value, ast.Call)
                and _called(inner.func.value) == "super"
            ):
                calls.add(inner)
    return calls


def kind_literals(tree: ast.AST) -> set[ast.AST]:
    """The literals that name a refusal's kind, not a message."""
    return {call.args[1 if _called(call) == "text" else 0] for call, _ in id_calls(tree)}


@cache
def prefixes() -> frozenset[str]:
    every = {**entries(ENGLISH), **entries(SPANISH, commands=True)}
    return frozenset(message_id.split("-")[0] for message_id in every)


def test_every_message_id_in_the_code_is_in_the_catalogue() -> None:
    """Any literal that reads like a message id (``dynasty-founded``, ``board-key-moved``) is
    one, every refusal's kind (in the data layer too) has its message, and a call that names
    a message passes exactly the parameters it reads."""
    known = set(entries(ENGLISH))
    checked = refused = 0
    for path in [*python_files(), *sorted((ROOT / "data").rglob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        speaks_to_players = path.parts[len(ROOT.parts)] != "data"
        kinds = kind_literals(tree)
        for node in ast.walk(tree) if speaks_to_players else ():
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node not in kinds:
                value = node.value
                if MESSAGE_ID.fullmatch(value) and value.split("-")[0] in prefixes():
                    if value.startswith("cmd-"):
                        continue
                    assert value in known, f"{path.relative_to(ROOT)}:{node.lineno}: {value}"
                    checked += 1
        for call, message_id in id_calls(tree):
            assert message_id in known, f"{path.relative_to(ROOT)}:{call.lineno}: {message_id}"
            refused += message_id.startswith("refusal-")
            if any(keyword.arg is None for keyword in call.keywords):
                continue  # **parameters: checked when rendered
            given = {keyword.arg for keyword in call.keywords}
            wanted = variables(ENGLISH, message_id)
            assert given == wanted, f"{path.relative_to(ROOT)}:{call.lineno}: {message_id}"
    assert checked + refused > 200 and refused > 150


PLAYER_TEXT = frozenset({"plain", "plain_name"})
"""What a name a player typed passes through on its way into a message (escaping)."""


def selectors(folder: str, message_id: str) -> frozenset[str]:
    """The variables a message chooses a variant by (``{ $status -> …}``)."""
    chosen: set[str] = set()

    class Selectors(Visitor):  # type: ignore[misc]
        def visit_SelectExpression(self, node: ftl.SelectExpression) -> None:
            if isinstance(node.selector, ftl.VariableReference):
                chosen.add(node.selector.id.name)
            self.generic_visit(node)

    Selectors().visit(entries(folder)[message_id])
    return frozenset(chosen)


def test_no_name_a_player_typed_chooses_a_variant() -> None:
    """A dynasty named ``none`` must read as itself, not as the variant for no dynasty."""
    checked = 0
    for path in python_files():
        for call, message_id in id_calls(ast.parse(path.read_text(encoding="utf-8"))):
            for keyword in call.keywords:
                if keyword.arg is None or not any(
                    isinstance(node, ast.Call) and _called(node) in PLAYER_TEXT
                    for node in ast.walk(keyword.value)
                ):
                    continue
                checked += 1
                for folder in CATALOGUES.values():
                    assert keyword.arg not in selectors(folder, message_id), (
                        f"{path.relative_to(ROOT)}:{call.lineno}: {message_id} in {folder}"
                        f" chooses by ${keyword.arg}, a name a player typed"
                    )
    assert checked > 20


SINKS = frozenset(
    {
        "send",
        "send_message",
        "reply_ephemeral",
        "edit_message",
        "edit_original_response",
        "Embed",
        "add_field",
        "set_footer",
        "set_author",
        "Button",
        "Select",
        "SelectOption",
        "Choice",
        "TextInput",
        "Modal",
        "Refusal",
        "Refused",
        "OptionRefused",
        "answer_publicly",
        "announce_text",
        "announce_dm",
        "send_dm",
        "prompt_button",
        "component_button",
        "select_menu",
        "select_option",
        "LogButton",
        "HistoryButton",
        "render_board",
        "render_replay",
        "run_on_demand",
    }
)
"""Where a player-facing text goes: messages, embeds, components, refusals, pictures."""
NOT_SHOWN = frozenset({"custom_id", "url", "filename", "style", "colour", "ephemeral"})
"""Keywords of those calls that players never read."""
WORDS = re.compile(r"[A-Za-z]{2,}")


def literals(node: ast.expr) -> Iterator[str]:
    """The literal text an argument puts in front of a player (not that of calls it makes:
    those name messages, or are data)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if not MESSAGE_ID.fullmatch(node.value):
            yield node.value
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                yield part.value
    elif isinstance(node, ast.BinOp):
        yield from literals(node.left)
        yield from literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from literals(node.body)
        yield from literals(node.orelse)


def names_a_message(call: ast.Call) -> bool:
    first = call.args[0] if call.args else None
    return isinstance(first, ast.Constant) and bool(MESSAGE_ID.fullmatch(str(first.value)))


def selector(value: ast.expr) -> bool:
    """A literal parameter of a message that chooses a variant (``where="log"``): one word."""
    return isinstance(value, ast.Constant) and re.fullmatch(r"[A-Za-z0-9_-]+", str(value.value))


def declarations(tree: ast.Module) -> set[ast.AST]:
    """Nodes that declare commands: decorators, and module-level constants (the choices of a
    command's option). Their English is Discord's default; the command translator gives the
    other languages (``commands.ftl``)."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                found.update(ast.walk(decorator))
    for statement in tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign):
            found.update(ast.walk(statement))
    return found


SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'’-]*[ ][ ,;:'’-]*[A-Za-z]+){2,}")
"""Three words or more with spaces between: a sentence (or a phrase of one), not a name such
as ``10 minutes`` nor a pattern."""
KEPT_IN_ENGLISH = {
    ("bot/services/dynasties.py", "starting wealth of a new dynasty"),
}
"""Words of the log (stored with the ledger's entries), which the log's own conversion turns
into messages (issue #15, phase B): not said here."""


def patterns(tree: ast.Module) -> set[ast.AST]:
    """Nodes inside ``re.compile(…)``: what text is matched against, not what is said."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) == "compile":
            for argument in node.args:
                found.update(ast.walk(argument))
    return found


def english_left(source: str) -> list[str]:
    """English a module says without the catalogue: literal words sent, shown in an embed or
    a component, raised as a refusal or drawn; and sentences kept in module-level constants
    (``TEXTS = {…}``), which reach players however they are later used."""
    tree = ast.parse(source)
    declared = declarations(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _called(node) not in SINKS or node in declared:
            continue
        shown = list(node.args)
        shown += [
            k.value
            for k in node.keywords
            if k.arg not in NOT_SHOWN and not (names_a_message(node) and selector(k.value))
        ]
        if _called(node) in ("SelectOption", "Choice"):
            shown = [k.value for k in node.keywords if k.arg in ("label", "name", "description")]
        for argument in shown:
            found += [
                f"{node.lineno}: {said!r}"
                for said in literals(argument)
                if WORDS.search(said) and not said.startswith("attachment://")
            ]
    matched = patterns(tree)
    for statement in tree.body:
        if not isinstance(statement, ast.Assign | ast.AnnAssign):
            continue
        for node in ast.walk(statement):
            if node in matched or not isinstance(node, ast.expr):
                continue
            for literal in literals(node):
                if SENTENCE.search(literal) and not MESSAGE_ID.fullmatch(literal):
                    found.append(f"{node.lineno}: constant {literal!r}")
    return found


def test_no_english_is_left_in_the_converted_modules() -> None:
    """Every text sent, shown in an embed or a component, raised as a refusal or drawn comes
    from the catalogue in the modules of :data:`CONVERTED`: a literal with words there is
    English left behind."""
    found = []
    for module in CONVERTED:
        source = (ROOT / module).read_text(encoding="utf-8")
        found += [
            f"{module}:{line}"
            for line in english_left(source)
            if not any(module == kept and repr(said) in line for kept, said in KEPT_IN_ENGLISH)
        ]
    assert found == []


ENGLISH_LEFT = """
import re

TEXTS = {"cancelled": "Tournament #{tournament} is cancelled by {host}."}
NAMES: dict[str, str] = {"forfeit": ("Only the player who asked " "can confirm this forfeit.")}
TURN_LENGTHS = {"10 minutes": 600}
MATCHED = re.compile(r"every other dynasty is defeated")

async def forfeit(interaction, tournament):
    await interaction.followup.send(f"You forfeited tournament #{tournament}.")
    raise Refusal("forfeit-damaged")
"""


def test_the_scan_sees_english_where_it_is() -> None:
    """The check above is no check that cannot fail: it finds English sent, and English kept
    in module-level dicts, but not a choice's name, a pattern or a message id."""
    found = english_left(ENGLISH_LEFT)
    assert [line.split(":")[0] for line in found] == ["10", "4", "5"], found
    assert "constant 'Tournament #{tournament} is cancelled by {host}.'" in found[1]


# ----------------------------------------------------------------------------- refusals


def refusal_classes() -> list[type[errors.Refusal]]:
    """Every refusal of the data layer with typed parameters."""
    return [
        kind
        for kind in vars(errors).values()
        if isinstance(kind, type)
        and issubclass(kind, errors.Refusal)
        and kind not in (errors.Refusal, errors.InvalidValue)
    ]


def sample(kind: type[errors.Refusal]) -> errors.Refusal:
    """An instance of ``kind`` made with plain values for its parameters."""
    values = {int: 3, str: "Tudor"}
    arguments: list[object] = []
    for parameter in list(inspect.signature(kind.__init__).parameters.values())[1:]:
        annotation = str(parameter.annotation)
        if "float" in annotation:
            arguments.append(100.0)
        elif "int" in annotation:
            arguments.append(values[int])
        else:
            arguments.append(values[str])
    return kind(*arguments)


SPECIAL = {
    errors.NotFound("living-emperor-named", "'Ana'"): (
        "there is no living emperor named 'Ana'; check the name or number and try again"
    ),
    errors.NotFound("filled-seat-numbered", 4): (
        "there is no filled seat numbered 4; check the name or number and try again"
    ),
    errors.EmperorBusy("Ana", None, None): (
        "Ana is already playing in a tournament; wait until it ends, leave it, or choose "
        "another emperor"
    ),
    errors.EmperorBusy("Ana", 7, "bettor"): (
        "Ana is already betting on tournament #7; wait until it ends, leave it, or choose "
        "another emperor"
    ),
    errors.TournamentClosed(4, "running", "follow-it"): (
        "tournament #4 is running, so you cannot follow it now; look for an open tournament"
    ),
    errors.TournamentClosed(4, "finished", "hand-a-seat-over"): (
        "tournament #4 is finished, so you cannot hand a seat over now; look for an open tournament"
    ),
    errors.TournamentNotReady(4, 1): (
        "tournament #4 still has 1 empty seat; wait for players or fill them with computer "
        "players before starting"
    ),
    errors.OrderForClosedTurn(3, None): (
        "turn 3 is closed: no turn is open; look at the board again and reorder"
    ),
    errors.OrderForClosedTurn(3, 4): (
        "turn 3 is closed: turn 4 is open; look at the board again and reorder"
    ),
    errors.ExtensionTooLong(4, 2, 30): (
        "a turn never lasts more than twice its length: turn 2 of tournament #4 can be "
        "extended no more"
    ),
    errors.ExtensionTooLong(4, 2, 600): (
        "a turn never lasts more than twice its length: turn 2 of tournament #4 can be "
        "extended by at most 10 more minutes"
    ),
    errors.SeatStillPlayed("a", 1): (
        "seat a has missed 1 turn in a row; only its player can hand it over, or the host once "
        "it has missed 2 in a row"
    ),
    errors.InsufficientFunds("key to fortress-4", 1, 0): (
        "this needs 1 × key to fortress-4 but the dynasty holds only 0; lower the amount or "
        "gather more first"
    ),
    errors.InsufficientFunds("gold coin", 5, 2): (
        "this needs 5 × gold coin but the dynasty holds only 2; lower the amount or gather "
        "more first"
    ),
    errors.NotYourTrade(9, "decline"): (
        "your dynasty cannot decline trade #9: that is for the other side"
    ),
    errors.NameTaken("dynasty", "Rome"): (
        "the dynasty name 'Rome' is already taken; choose another name"
    ),
    errors.SeatNotActive("b", "defeated"): (
        "dynasty b is defeated and gives no more orders (R-C6)"
    ),
    errors.TradeClosed(9, "expired"): "trade #9 is expired; make a new offer instead",
    errors.TrainingLeavesNoTrace(None, "bets"): (
        "this is a training tournament: it takes no bets, since nothing about a training "
        "combat is recorded; choose a serious type"
    ),
    errors.ChestOutOfRange(100, 1000): (
        "a chest in this tournament holds between 100 and 1,000 gold coins; deposit an amount "
        "in that range"
    ),
    errors.InvalidValue("name-too-long", what="emperor", limit=32): (
        "emperor names have at most 32 characters; shorten it"
    ),
    errors.ProgramsNotAllowed(5): (
        "tournament #5 is not open to programs; ask its host to open it to programs, or enter "
        "a tournament that is"
    ),
    errors.ProgramRevoked("Ada"): (
        "the program 'Ada' was revoked and plays no more; register a new program instead"
    ),
    errors.ProgramAlreadySeated(5, "Ada"): (
        "the program 'Ada' already has a seat in tournament #5; one seat per program"
    ),
    errors.TooManyPrograms(10): (
        "you already have 10 programs, the most allowed; revoke one you no longer use with "
        "/program revoke first"
    ),
}
"""Refusals and their English words, as the data layer wrote them before its words moved to
the catalogue: they read the same."""


def test_the_data_layer_refusals_read_in_english_as_they_did() -> None:
    """Each refusal reads in English word for word as the data layer's own sentence did, as
    its ``str()`` too, and in Spanish in other words."""
    for refused, sentence in SPECIAL.items():
        assert said(refused).text(ENGLISH) == sentence
        assert str(refused) == sentence and user_message(refused) == sentence
        assert said(refused).text(SPANISH) != sentence


def test_every_refusal_reads_in_each_language() -> None:
    """Every refusal the data layer raises has its message, which it fills whole: no
    placeable left unfilled, no message missing, in English and in Spanish words."""
    for refused in [sample(kind) for kind in refusal_classes()]:
        message = refusal(refused)
        assert isinstance(message, Message) and message.id in entries(ENGLISH), refused.kind
        assert set(refused.params) == variables(ENGLISH, message.id), refused.kind
        english, spanish = message.text(ENGLISH), message.text(SPANISH)
        assert "{" not in english and "{" not in spanish, refused.kind
        assert english != spanish, refused.kind


def invalid_kinds() -> set[str]:
    """The kinds of :class:`errors.InvalidValue` the code raises."""
    found = set()
    for path in [*python_files(), *sorted((ROOT / "data").rglob("*.py"))]:
        for call, message_id in id_calls(ast.parse(path.read_text(encoding="utf-8"))):
            if _called(call) == INVALID:
                found.add(message_id.removeprefix("refusal-invalid-"))
    return found


def test_every_invalid_value_reads_in_each_language() -> None:
    """An ``InvalidValue`` is said from the catalogue by its kind, in Spanish in Spanish
    words, whatever it names (a word each language knows for ``what``, and one it does not)."""
    kinds = invalid_kinds()
    assert len(kinds) > 15
    for kind in kinds:
        message_id = f"refusal-invalid-{kind}"
        named = variables(ENGLISH, message_id)
        for what in ("dynasty", "emperor", "asset", "item", "price", "prize", "stake", "x"):
            error = errors.InvalidValue(kind, **{name: 3 for name in named} | {"what": what})
            error.params = {name: value for name, value in error.params.items() if name in named}
            spanish = said(error).text(SPANISH)
            assert "{" not in spanish and spanish != said(error).text(ENGLISH), kind
            assert not re.search(r"\b(the|your|choose|and|is|has)\b", spanish), spanish
    name = errors.InvalidValue("name-too-long", what="emperor", limit=32)
    assert refusal(name) == Message("refusal-invalid-name-too-long", what="emperor", limit=32)
    assert "un nombre de emperador" in said(name).text(SPANISH)


def test_a_refusal_carries_its_kind_and_reads_in_each_language() -> None:
    refused = Refusal("no-such-emperor", name="Ana")
    assert refused == Refusal("no-such-emperor", name="Ana") != Refusal("no-dynasty")
    assert "no living emperor called 'Ana'" in str(refused)
    assert "ningún emperador vivo llamado 'Ana'" in said(refused).text(SPANISH)
    wrapped = RuntimeError("wrapper")
    wrapped.__cause__ = refused
    assert refusal(wrapped) == said(refused)
    assert refusal(RuntimeError("a bug")) is None and user_message(KeyError("x")) is None
    assert key("follow it") == "follow-it" and Voice("es-419").locale == "es-419"


@pytest.mark.parametrize("folder", sorted(set(CATALOGUES.values()) - {ENGLISH}))
def test_a_spanish_refusal_has_no_english_sentence_left(folder: str) -> None:
    """Spot check: the refusals a Spanish reader meets most are Spanish."""
    for refused in SPECIAL:
        text = said(refused).text(folder)
        assert not re.search(r"\b(the|your|choose|and)\b", text), text
