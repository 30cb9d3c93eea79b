"""Follow-up rules for a reply to what the assistant just proposed: a setup to drop or pick up,
an offer to accept or turn down, options to refuse."""

from __future__ import annotations

import re

from intents.offline.context import denial_rest_is_empty
from intents.offline.rules.engine import rule
from intents.offline.rules.reading import Decision, Reading, once_per_reading
from intents.types import ActionType

# The offer, with a change first and then the go-ahead.
_THEN_DO_IT_RE = re.compile(
    r"\b(?:and|then)\s+(?:then\s+)?(?:create|build|set up|make|run|send|do|start)\s+"
    r"(?:it|that|this|them)\b|\b(?:and|then)\s+go ahead\b"
)
_NONE_OF_THEM_RE = re.compile(
    r"^(?:none(?: of (?:those|them|these|the above))?|neither(?: of (?:those|them|these))?|"
    r"ninguna?(?: de (?:esas|esos|ellas|ellos))?|aucune?(?: d entre elles)?|keine[rs]?(?: davon)?)"
    r"\b"
)
# What may follow the refusal and still leave nothing but the refusal.
_LEAVE_THEM_RE = re.compile(
    r"(?:(?:actually|thanks|thank you|for now|then|right now|all good|i'?m good|"
    r"(?:just )?(?:leave|keep) (?:them|it|those|everything)(?: as (?:they are|is))?)[\s,.!]*)+"
)


@rule(
    "A cancel while a setup is open closes it, unless it names billing, users or keys.",
    examples=(
        "never mind, cancel",
        "forget it, cancel the setup. hiring froze anyway",
        "stop, I changed my mind",
    ),
)
def cancels_the_wizard(r: Reading) -> Decision | None:
    if r.ctx.wizard is not None and r.cancels and not r.names_the_workspace:
        return Decision(ActionType.UNKNOWN, 0.8, "cancels the open wizard")
    return None


@rule(
    "'Where were we?' during a setup goes on with it: its own recap answers the question.",
    examples=(
        "Sorry, I had to step away. Where were we?",
        "what do you still need?",
        "¿dónde estábamos?",
    ),
)
def asks_where_the_wizard_stands(r: Reading) -> Decision | None:
    # Routing to query_info would drop the open wizard.
    if r.ctx.wizard is not None and r.recaps:
        return Decision(r.ctx.wizard, 0.8, "asks where the open wizard stands")
    return None


@rule(
    "'Where were we?' with no setup open asks where the conversation stands.",
    examples=("ok i'm back, where were we?",),
)
def asks_where_we_were(r: Reading) -> Decision | None:
    if r.ctx.wizard is None and r.recaps:
        return Decision(ActionType.QUERY_INFO, 0.7, "asks where the conversation stands")
    return None


@rule(
    "A yes to an offer accepts it, with what the offer named.",
    examples=(
        "yes, do that",
        "sure",
        "Yes please 👍",
        "ok go ahead",
        "oui",
        "good idea, do it",
        "oh yes that'd be great",
    ),
)
def agrees_to_the_offer(r: Reading) -> Decision | None:
    offer = r.ctx.offer
    if offer is not None and r.affirms:
        return Decision(
            offer, 0.92, f"agrees to the offer to {offer}", entities=dict(r.ctx.offer_entities)
        )
    return None


@rule(
    "A no to an offer, and nothing else, turns it down.",
    examples=("no", "no thanks", "nope, not now"),
)
def declines_the_offer(r: Reading) -> Decision | None:
    offer = r.ctx.offer
    if offer is not None and r.denies and denial_rest_is_empty(r.parsed):
        return Decision(ActionType.UNKNOWN, 0.85, f"declines the offer to {offer}")
    return None


@rule(
    "A yes with a change, or a change followed by the go-ahead, is the offer, changed.",
    examples=(
        "yes but make it daily",
        "yes but make it daily instead",
        "change the time to 9 and then create it",
    ),
)
def agrees_with_changes(r: Reading) -> Decision | None:
    offer = r.ctx.offer
    if offer is None or r.denies:
        return None
    first = r.parsed.units[0].concepts
    if (first and "YES" in first and not r.has_agent) or _THEN_DO_IT_RE.search(r.norm):
        return Decision(
            offer,
            0.85,
            f"agrees to the offer to {offer} with changes",
            entities=dict(r.ctx.offer_entities),
        )
    return None


@once_per_reading
def _none_of_them(r: Reading) -> str | None:
    """What follows a refusal of every option or side offered, if the message is one."""
    if (r.ctx.options or r.ctx.alternatives) and _NONE_OF_THEM_RE.match(r.norm):
        return _NONE_OF_THEM_RE.sub("", r.norm).strip(" ,.;!-")
    return None


@rule(
    "Refusing every option offered, and nothing more, takes none.",
    examples=("none of those actually, leave them",),
    unlike=("neither, just tell me when it last ran",),
)
def none_of_the_options(r: Reading) -> Decision | None:
    rest = _none_of_them(r)
    if rest is not None and (not rest or _LEAVE_THEM_RE.fullmatch(rest)):
        return Decision(ActionType.UNKNOWN, 0.8, "none of the options offered")
    return None


def refuses_the_options_then_asks(r: Reading) -> bool:
    """Refuses what was offered and asks for something else: the rest is the request, read on
    its own, past every other follow-up rule."""
    rest = _none_of_them(r)
    return bool(rest) and not _LEAVE_THEM_RE.fullmatch(rest or "")
