"""Follow-up rules for a reply to what the assistant just proposed: a setup to drop or pick up,
an offer to accept or turn down, options to refuse."""

from __future__ import annotations

from intents.offline.context import denial_rest_is_empty
from intents.offline.rules.engine import rule
from intents.offline.rules.reading import Decision, Reading, cues, once_per_reading
from intents.types import ActionType

# The offer, with a change first and then the go-ahead.
_THEN_DO_IT = cues(
    """
    and|then then? =create|build|make|run|send|do|start it|that|this|them
    and|then then? set up it|that|this|them
    and|then go ahead
    """
)
# Every option refused, the longest way first (as typed: a slip of "none" is another word).
_NONE_OF_THEM = cues(
    """
    ^ =none of the above
    ^ =none|neither of those|them|these
    ^ =none|neither
    ^ =ningun|ninguna de esas|esos|ellas|ellos
    ^ =ningun|ninguna
    ^ =aucun|aucune d entre elles
    ^ =aucun|aucune
    ^ =keine|keiner|keines davon
    ^ =keine|keiner|keines
    """
)
# What may follow the refusal and still leave nothing but the refusal (lead-in words such as
# "actually" and closing ones such as "thanks" or "for now" are read by the cues themselves).
_NOTHING_MORE = cues(
    """
    ^ $
    ^ right now|then? $
    ^ all|im good $
    ^ all|im? good? just? leave|keep them|it|those|everything $
    ^ all|im? good? just? leave|keep them|it|those|everything as is $
    ^ all|im? good? just? leave|keep them|it|those|everything as they are $
    """
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
    if (first and "YES" in first and not r.has_agent) or r.says(_THEN_DO_IT):
        return Decision(
            offer,
            0.85,
            f"agrees to the offer to {offer} with changes",
            entities=dict(r.ctx.offer_entities),
        )
    return None


@once_per_reading
def _none_of_them(r: Reading) -> bool | None:
    """Whether a refusal of every option or side offered says nothing more (None: the message
    is no such refusal)."""
    if not (r.ctx.options or r.ctx.alternatives):
        return None
    refusal = r.span(_NONE_OF_THEM)
    return None if refusal is None else r.says(_NOTHING_MORE, after=refusal[1])


@rule(
    "Refusing every option offered, and nothing more, takes none.",
    examples=("none of those actually, leave them",),
    unlike=("neither, just tell me when it last ran",),
)
def none_of_the_options(r: Reading) -> Decision | None:
    if _none_of_them(r):
        return Decision(ActionType.UNKNOWN, 0.8, "none of the options offered")
    return None


def refuses_the_options_then_asks(r: Reading) -> bool:
    """Refuses what was offered and asks for something else: the rest is the request, read on
    its own, past every other follow-up rule."""
    return _none_of_them(r) is False
