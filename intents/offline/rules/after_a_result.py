"""Follow-up rules about what the assistant just said or did: a setting it named, a result it
gave, a run that failed, an open question it asked."""

from __future__ import annotations

from intents.offline.context import CHANGE_CUES, RUN_CUES
from intents.offline.lexicon import words
from intents.offline.rules.engine import rule
from intents.offline.rules.reading import ANY_WORD, QUESTION_WORDS, Decision, Reading, cues
from intents.types import ActionType

_SETTING_VERBS = words("move upgrade downgrade enable disable turn switch set")
_FIX = "fix|repair|reconnect|renew|refresh|arregla|repara|corrige|repare|behebe|reparier|conserta"
# "Fix it" and a few words more, nothing else.
_FIX_IT = cues(
    f"""
    ^ please|pls? {_FIX} …4 $
    ^ please|pls? sort out …4 $
    ^ can|could you {_FIX} …4 $
    ^ can|could you sort out …4 $
    """
)
_TELL = "ping|remind|notify|nudge|message|email|dm|tell|alert|chase"
_WHOM = (
    "the|their|all|each|those|these? owner|owners|assignee|assignees|people|team|folks|rep|reps|"
    "author|authors|them|everyone"
)
# People told about the result: "ping the owners", "can you remind them".
_TELL_THEM = cues(
    f"""
    ^ great|thanks|now|then? please? {_TELL} {_WHOM}
    ^ great|thanks|now|then? can|could you {_TELL} {_WHOM}
    """
)
_AUTOMATICALLY = cues(
    """
    automatically|always
    from now on
    each|every time
    """
)
_KEEP_IT_CURRENT = cues(
    "\n".join(
        f"keep {what} {how}"
        for what in ("it|that|this|them", f"the|that|this {ANY_WORD}")
        for how in ("up to date", "updated|current|synced|fresh|refreshed", "in sync")
    )
)


@rule(
    "A change right after the assistant named a workspace setting, and no agent, changes that "
    "setting.",
    examples=("change it to America/Chicago", "move us to Pro", "send them to Slack instead"),
)
def changes_the_setting_just_talked_about(r: Reading) -> Decision | None:
    if (
        r.ctx.about_platform
        and not r.has_agent
        and not r.asks
        and r.n_units <= 8
        and (
            r.concepts & (CHANGE_CUES | {"V_SEND", "N_BILLING"})
            or _SETTING_VERBS & set(r.parsed.tokens)
        )
        and r.model_top() != ActionType.MANAGE_PLATFORM
    ):
        return Decision(ActionType.MANAGE_PLATFORM, 0.72, "changes the setting just talked about")
    return None


@rule(
    "A short question right after a result or an answer asks about it, when the model alone "
    "reads nothing to do.",
    examples=("why is opex up?", "which 3?", "is it done yet?"),
)
def asks_about_the_answer(r: Reading) -> Decision | None:
    ctx = r.ctx
    if (
        (r.asks or r.opens_with_a_question_word)
        and (r.concepts & (QUESTION_WORDS | {"Q_PAST"}) or r.asks_yes_no)
        and not r.concepts & ({"OOS", "GREET", "THANKS"} | CHANGE_CUES | RUN_CUES)
        and r.n_units <= 8
        and (ctx.last_agent or ctx.prev_intent in (ActionType.QUERY_INFO, ActionType.EXECUTE_TASK))
        and r.unsure_or_unknown()
    ):
        return Decision(
            ActionType.QUERY_INFO, 0.75 if r.has_agent else 0.65, "a question about the answer"
        )
    return None


@rule(
    "'Again' or 'the same' after an agent ran or was named runs it again.",
    examples=("run it again", "again", "run the same thing as last time but for Q1 data"),
)
def repeats_the_last_run(r: Reading) -> Decision | None:
    target = r.ctx.last_run or r.ctx.last_agent
    repeats = bool(r.concepts & {"V_RUN", "V_DO", "V_GENERATE"}) or r.n_units <= 5
    if (
        {"T_AGAIN", "ADJ_SAME"} & r.concepts
        and target
        and repeats
        and not r.concepts & {"V_CHANGE", "ADV_INSTEAD", "V_CREATE", "RECUR"}
    ):
        r.entities.setdefault("agent", target)
        return Decision(ActionType.EXECUTE_TASK, 0.88, f"repeats the last run ({target})")
    return None


@rule(
    "A plain answer to the open question the text asked goes on with what was asked for, "
    "unless it is confidently a request of its own.",
    examples=(
        "flag any expense line that grows more than 15% month over month",
        "billing@northwind.io, and also add our VAT number DE123456789",
    ),
)
def answers_the_open_question(r: Reading) -> Decision | None:
    answering = r.ctx.answering
    if answering is not None and not r.asks and not r.denies and not r.cancels and r.n_units <= 14:
        top, sure = r.model_sure()
        if top in (answering, ActionType.UNKNOWN) or sure < 0.9:
            return Decision(answering, 0.7, f"answers the question asked for {answering}")
    return None


@rule(
    "'Fix it' right after a run failed on an expired or revoked token reconnects the account.",
    examples=("fix it",),
)
def fixes_the_connection(r: Reading) -> Decision | None:
    if r.ctx.needs_access and r.says(_FIX_IT):
        return Decision(
            ActionType.MANAGE_PLATFORM,
            0.7,
            "fixes the connection a run failed on",
            alternative=ActionType.EXECUTE_TASK,
        )
    return None


@rule(
    "Telling people about a result just given is a run once, or a change when it is from now on.",
    examples=("ping the owners",),
)
def tells_people_about_the_result(r: Reading) -> Decision | None:
    if r.ctx.last_run and r.says(_TELL_THEM) and r.n_units <= 10 and not r.has_agent:
        every = "RECUR" in r.concepts or r.says(_AUTOMATICALLY)
        return Decision(
            ActionType.UPDATE_AGENT if every else ActionType.EXECUTE_TASK,
            0.7,
            "tells people about the result just given",
            alternative=ActionType.CREATE_AGENT if every else ActionType.UPDATE_AGENT,
        )
    return None


@rule(
    "Asking to keep what was just done up to date asks for it from now on.",
    examples=("can you keep that sheet up to date?",),
)
def keeps_it_current(r: Reading) -> Decision | None:
    if r.says(_KEEP_IT_CURRENT) and r.n_units <= 12 and r.ctx.wizard is None:
        keeps = ActionType.UPDATE_AGENT if r.ctx.last_agent and not r.ctx.last_run else None
        return Decision(
            keeps or ActionType.CREATE_AGENT,
            0.7,
            "wants what was just done kept current",
            alternative=ActionType.EXECUTE_TASK,
        )
    return None
