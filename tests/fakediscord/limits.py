"""Discord's documented size limits, checked on every message so a bot that would get
"400 Invalid Form Body" in production gets it here too instead of passing its tests."""

from __future__ import annotations

import unicodedata

from .world import JSON

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 100
MAX_CHOICES = 25
MAX_ATTACHMENT_DESCRIPTION = 1024  # an attachment's alt text

ACTION_ROW = 1
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})

Problems = dict[str, str]


def _too_long(problems: Problems, path: str, text: object, limit: int) -> None:
    if isinstance(text, str) and len(text) > limit:
        problems[path] = f"Must be {limit} or fewer in length (got {len(text)})."


def message_problems(payload: JSON, *, components_v2: bool) -> Problems:
    """Form errors for a create/edit body, keyed like Discord's ``errors`` paths."""
    problems: Problems = {}
    _too_long(problems, "content", payload.get("content"), MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    total = 0
    for i, embed in enumerate(embeds):
        total += _embed_problems(problems, f"embeds.{i}", embed)
    if total > MAX_EMBED_TOTAL:
        problems["embeds"] = f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
    _component_problems(problems, payload.get("components") or [], components_v2=components_v2)
    for i, item in enumerate(payload.get("attachments") or []):
        path = f"attachments.{i}.description"
        _too_long(problems, path, item.get("description"), MAX_ATTACHMENT_DESCRIPTION)
    return problems


def _embed_problems(problems: Problems, path: str, embed: JSON) -> int:
    size = 0
    for key, limit in EMBED_TEXT_LIMITS.items():
        _too_long(problems, f"{path}.{key}", embed.get(key), limit)
        size += len(embed.get(key) or "")
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        problems[f"{path}.fields"] = f"Must be {MAX_FIELDS} or fewer in length."
    for j, item in enumerate(fields):
        _too_long(problems, f"{path}.fields.{j}.name", item.get("name"), 256)
        _too_long(problems, f"{path}.fields.{j}.value", item.get("value"), 1024)
        size += len(item.get("name") or "") + len(item.get("value") or "")
    footer = (embed.get("footer") or {}).get("text")
    author = (embed.get("author") or {}).get("name")
    _too_long(problems, f"{path}.footer.text", footer, 2048)
    _too_long(problems, f"{path}.author.name", author, 256)
    return size + len(footer or "") + len(author or "")


def _component_problems(problems: Problems, rows: list[JSON], *, components_v2: bool) -> None:
    if not components_v2 and len(rows) > MAX_ACTION_ROWS:
        problems["components"] = f"Must be {MAX_ACTION_ROWS} or fewer in length."
    seen: set[str] = set()
    stack = [(f"components.{i}", c) for i, c in enumerate(rows)]
    while stack:
        path, component = stack.pop()
        kind = component.get("type")
        children = component.get("components") or []
        if kind == ACTION_ROW:
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if len(children) > MAX_ROW_BUTTONS or (selects and len(children) > 1):
                problems[f"{path}.components"] = "An action row holds 5 buttons or 1 select."
        custom_id = component.get("custom_id")
        if custom_id is not None:
            _too_long(problems, f"{path}.custom_id", custom_id, MAX_CUSTOM_ID)
            if custom_id in seen:
                problems[f"{path}.custom_id"] = "Component custom id cannot be duplicated"
            seen.add(custom_id)
        if kind == BUTTON:
            _too_long(problems, f"{path}.label", component.get("label"), MAX_BUTTON_LABEL)
        if kind in SELECT_TYPES:
            _too_long(
                problems, f"{path}.placeholder", component.get("placeholder"), MAX_PLACEHOLDER
            )
            options = component.get("options") or []
            if len(options) > MAX_SELECT_OPTIONS:
                problems[f"{path}.options"] = f"Must be {MAX_SELECT_OPTIONS} or fewer in length."
            for k, option in enumerate(options):
                for key in ("label", "value", "description"):
                    text = option.get(key)  # the path is spelt out only for a refusal
                    if isinstance(text, str) and len(text) > MAX_OPTION_TEXT:
                        _too_long(problems, f"{path}.options.{k}.{key}", text, MAX_OPTION_TEXT)
        stack += [(f"{path}.components.{i}", c) for i, c in enumerate(children)]
        for key in ("accessory", "component"):
            if key in component:
                stack.append((f"{path}.{key}", component[key]))


def choices_problems(choices: list[JSON]) -> Problems:
    """Autocomplete results: at most 25 choices, names up to 100 characters."""
    problems: Problems = {}
    if len(choices) > MAX_CHOICES:
        problems["data.choices"] = f"Must be {MAX_CHOICES} or fewer in length."
    for i, choice in enumerate(choices):
        _too_long(problems, f"data.choices.{i}.name", choice.get("name"), MAX_OPTION_TEXT)
    return problems


NAME_PUNCTUATION = frozenset("-_'")
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100
CHAT_INPUT = 1
SUBCOMMANDS = frozenset({1, 2})
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""Discord's locales: the keys a localisation may have."""


def name_problem(name: object) -> str | None:
    """Why Discord refuses ``name`` for a chat-input command or an option, if it does:
    ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and lower case wherever a letter
    has a lower case."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return "Must be between 1 and 32 in length."
    for char in name:
        script = 0x0900 <= ord(char) <= 0x097F or 0x0E00 <= ord(char) <= 0x0E7F
        if not (char in NAME_PUNCTUATION or unicodedata.category(char)[0] in "LN" or script):
            return f"Command name is invalid ({char!r})"
    if name != name.lower():
        return "Command name is invalid (use lower case)"
    return None


def commands_problems(commands: list[JSON]) -> Problems:
    """Form errors of a bulk overwrite (or one command): names, descriptions, choices and their
    localisations as Discord checks them, and no two commands, subcommands or options of one
    list with the same name in any language."""
    problems: Problems = {}
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    _names_unique(problems, "", chat)
    for i, command in enumerate(commands):
        if command.get("type", CHAT_INPUT) == CHAT_INPUT:
            _definition_problems(problems, str(i), command)
    return problems


def _names_unique(problems: Problems, path: str, definitions: list[JSON]) -> None:
    seen: dict[tuple[str, str], int] = {}
    for i, definition in enumerate(definitions):
        localised = definition.get("name_localizations") or {}
        for locale in LOCALES:
            name = localised.get(locale, definition.get("name"))
            if (locale, name) in seen:
                where = f"{path}{i}.name_localizations.{locale}"
                problems[where] = f"APPLICATION_COMMAND_NAME_ALREADY_EXISTS ({name!r})"
            seen[(locale, str(name))] = i


def _definition_problems(problems: Problems, path: str, definition: JSON) -> None:
    """A command's or an option's own rules, then its options' and choices'."""
    found = name_problem(definition.get("name"))
    if found:
        problems[f"{path}.name"] = found
    for locale, name in (definition.get("name_localizations") or {}).items():
        found = name_problem(name) if locale in LOCALES else "Invalid locale"
        if found:
            problems[f"{path}.name_localizations.{locale}"] = found
    descriptions = {"": definition.get("description")}
    descriptions |= {
        f".{locale}": text
        for locale, text in (definition.get("description_localizations") or {}).items()
    }
    for where, text in descriptions.items():
        if not isinstance(text, str) or not 1 <= len(text) <= DESCRIPTION_LIMIT:
            problems[f"{path}.description{where}"] = "Must be between 1 and 100 in length."
    options = definition.get("options") or []
    _names_unique(problems, f"{path}.options.", options)
    for j, option in enumerate(options):
        _definition_problems(problems, f"{path}.options.{j}", option)
    for k, choice in enumerate(definition.get("choices") or []):
        names = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
        if any(not isinstance(n, str) or not 1 <= len(n) <= CHOICE_NAME_LIMIT for n in names):
            problems[f"{path}.choices.{k}.name"] = "Must be between 1 and 100 in length."


def form_error(problems: Problems) -> JSON:
    """The 400 body Discord sends; discord.py turns ``errors`` into "In <path>: <message>"."""
    return {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {
            path: {"_errors": [{"code": "INVALID", "message": text}]}
            for path, text in problems.items()
        },
    }
