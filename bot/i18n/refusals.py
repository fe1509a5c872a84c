"""How a refusal reads: in the reader's language, from the catalogue alone.

A refusal is a kind and its parameters wherever it is raised (:class:`data.errors.Refusal`):
its words are message ``refusal-<kind>``. An illegal order is the engine's own
(:class:`engine.IllegalOrder`: a fault and the tiles it names), said here with the rule it
breaks; a check of the command tree refuses with a :class:`Refusal` too. Anything else is a bug:
the Discord layer logs it and shows only an error id.

Importing :mod:`bot.i18n` installs :func:`english` as ``str()`` of every refusal, for logs and
tests.
"""

from __future__ import annotations

import re
from typing import cast

from bot.i18n import DEFAULT_LOCALE, Message, Param
from data.errors import AssetName, Refusal
from engine import EngineError, IllegalDeployment, IllegalOrder, OrderFault

KEY_TO = re.compile(r"key to (?P<battlefield>.+)")
"""How the shop names a battlefield's key (``key to fortress-4``, bot/services/economy.py)."""


def key(word: object) -> str:
    """An English word or phrase as a Fluent variant key: ``follow it`` → ``follow-it``."""
    return re.sub(r"[^A-Za-z0-9]+", "-", str(word)).strip("-") or "other"


def thing(name: str) -> Message:
    """An asset or item by the English name the database gives it, in the reader's words."""
    found = KEY_TO.fullmatch(name)
    if found is not None:
        return Message("item-key", battlefield=found["battlefield"])
    return Message("asset-name", asset=key(name), name=name)


def said(refused: Refusal) -> Message:
    """A refusal as the message that says it (an asset's name in the reader's words)."""
    params = {
        name: thing(value) if isinstance(value, AssetName) else cast(Param, value)
        for name, value in refused.params.items()
    }
    return Message(f"refusal-{refused.kind}", **params)


def english(refused: Refusal) -> str:
    """A refusal's sentence in English: its ``str()``, for logs and tests."""
    return said(refused).text(DEFAULT_LOCALE)


def refusal(error: BaseException) -> Message | str | None:
    """What to tell the player about ``error`` or an exception it was raised from: a message
    to render in their language, the engine's own English sentence, or None for a bug.

    Wrappers such as discord.py's ``CommandInvokeError`` keep the original as ``__cause__``,
    and a check's refusal is carried by the check's failure (``refused``), so both are followed.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, Refusal):
            return said(current)
        carried = getattr(current, "refused", None)
        if isinstance(carried, Refusal):
            return said(carried)
        if isinstance(current, IllegalOrder):
            return illegal_order(current)
        if isinstance(current, IllegalDeployment):
            return illegal_deployment(current)
        if isinstance(current, EngineError):
            return str(current)
        current = current.__cause__
    return None


def user_message(error: BaseException) -> str | None:
    """The English text of :func:`refusal`: None for a bug the player cannot fix."""
    found = refusal(error)
    return found.text(DEFAULT_LOCALE) if isinstance(found, Message) else found


def illegal_order(error: IllegalOrder) -> Message:
    """Why an order is illegal, with the rule it breaks: ``the path is blocked at C3 (R-O2)``."""
    fault = error.fault
    tile = error.tiles[0] if error.tiles else ""
    if fault is OrderFault.NOT_YOURS:
        reason = Message(
            "illegal-not-yours",
            tile=tile,
            piece=Message("narration-piece", kind=error.piece, who=error.owner),
        )
    elif fault is OrderFault.TOO_FAR:
        experience, distance = error.numbers
        reason = Message(
            "illegal-too-far",
            piece=error.piece,
            experience=experience,
            tile=tile,
            distance=distance,
        )
    elif fault is OrderFault.NOT_STRAIGHT:
        reason = Message("illegal-not-straight", tile=tile, origin=error.tiles[1])
    else:
        reason = Message(f"illegal-{fault.value}", **_fault_params(error, tile))
    return Message("illegal-order", reason=reason, rule=error.rule)


def illegal_deployment(error: IllegalDeployment) -> Message:
    """Why a deployment is refused, with the rule it breaks: ``D5 is not one of your home
    tiles (R-V1c)``. Every fault names at most a dynasty, a tile and two numbers."""
    has, placed = error.numbers if len(error.numbers) == 2 else (0, 0)
    reason = Message(
        f"illegal-deployment-{error.fault.value}",
        dynasty=error.dynasty,
        tile=error.tiles[0] if error.tiles else "",
        has=has,
        placed=placed,
    )
    return Message("illegal-order", reason=reason, rule=error.rule)


def _fault_params(error: IllegalOrder, tile: str) -> dict[str, str]:
    """The parameters of the faults that name at most a tile, a dynasty, a battlefield, an order."""
    fault = error.fault
    if fault in (OrderFault.DEFEATED, OrderFault.NOT_PLAYING, OrderFault.TWO_ORDERS):
        return {"dynasty": error.dynasty}
    if fault is OrderFault.NO_SUCH_DYNASTY:
        return {"dynasty": error.dynasty, "battlefield": error.battlefield}
    if fault is OrderFault.DOES_NOT_FIT:
        return {"order": error.order}
    if fault in (OrderFault.COMBAT_OVER, OrderFault.NO_DISTANCE):
        return {}
    return {"tile": tile}
