"""Discord's documented size limits, checked on every message so a bot that would get
"400 Invalid Form Body" in production gets it here too instead of passing its tests."""

from __future__ import annotations

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
                    _too_long(
                        problems, f"{path}.options.{k}.{key}", option.get(key), MAX_OPTION_TEXT
                    )
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
