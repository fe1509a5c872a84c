"""Chests (R-T9) as their players are shown them: the deposit form's words, and one's own
chest (only its owner ever sees its amount)."""

from __future__ import annotations

from bot.i18n import Voice
from bot.services.tournaments.chests import ChestOffer
from bot.views.markup import INPUT_LABEL_LIMIT, MODAL_TITLE_LIMIT, PLACEHOLDER_LIMIT
from data.rows import ChestRow


def form_title(offer: ChestOffer, say: Voice) -> str:
    return say("chest-form-title", tournament=str(offer.tournament.id))[:MODAL_TITLE_LIMIT]


def form_label(offer: ChestOffer, say: Voice) -> str:
    label = say("chest-form-label", minimum=offer.terms.minimum, maximum=offer.terms.maximum)
    return label[:INPUT_LABEL_LIMIT]


def form_placeholder(offer: ChestOffer, say: Voice) -> str:
    return say("chest-form-placeholder", gold=offer.gold)[:PLACEHOLDER_LIMIT]


def deposited_text(chest: ChestRow, tournament_id: int, say: Voice) -> str:
    return say("chest-deposited", tournament=str(tournament_id), amount=chest.amount)


def own_chest_text(chest: ChestRow, say: Voice) -> str:
    """A player's own chest, in its private /tournament status."""
    return say("chest-own", amount=chest.amount)
