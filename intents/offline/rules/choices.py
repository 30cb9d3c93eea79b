"""Follow-up rules for a pick: among numbered options, between the two sides of an either/or
question, among the agents just listed."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from intents.offline.context import CHANGE_CUES, INFO_CUES, RUN_CUES, selection
from intents.offline.lexicon import AGENT_WORD, STOPWORDS
from intents.offline.model import engine
from intents.offline.prose import names_an_action
from intents.offline.rules.engine import rule
from intents.offline.rules.reading import (
    AGENT_ACTIONS,
    Decision,
    Reading,
    cues,
    once_per_reading,
)
from intents.offline.text import normalize, parse
from intents.types import ActionType

Option = tuple[int, ActionType, str]
# Words that name what an option does; sharing one with a label counts double.
_ACTION_WORDS = frozenset({"create", "run", "show", "change", "skill", "agent", "list"})
# The choice left to the assistant.
_WHATEVER = cues(
    """
    ^ erm? whatever|whatevers is? works|simplest|easiest|best
    ^ erm? whatever|whatevers you think
    ^ erm? =whichever|either|egal
    ^ erm? up to you
    ^ erm? your call
    ^ erm? you decide|choose
    ^ erm? dealers choice
    ^ erm? lo que sea
    ^ erm? como prefieras|preferir
    ^ erm? comme tu veux
    ^ erm? peu importe
    ^ erm? wie du willst
    ^ erm? tanto faz
    """
)


@functools.lru_cache(maxsize=512)
def _label_words(label: str) -> frozenset[str]:
    units = parse(label, engine().analyzer).units
    return frozenset(
        u.canon for u in units if u.concepts or (len(u.canon) > 3 and u.canon not in STOPWORDS)
    )


def _own_verb(concepts: frozenset[str]) -> ActionType | None:
    """What the message's own verb asks for: a run or a change, if it says one."""
    if concepts & RUN_CUES and not concepts & CHANGE_CUES:
        return ActionType.EXECUTE_TASK
    if concepts & CHANGE_CUES and not concepts & RUN_CUES:
        return ActionType.UPDATE_AGENT
    return None


def _an_item(option: Option) -> bool:
    """An option that is an item of information ("June 1 - failed"), not an action to take or
    one of the workspace's things (a member, a key)."""
    return option[1] != ActionType.MANAGE_PLATFORM and not names_an_action(option[2])


def _side_named(
    r: Reading, sides: Sequence[tuple[ActionType, str]]
) -> tuple[ActionType, str] | None:
    """The one side of an either/or question the message names by a word only it has."""
    words = {u.canon for u in r.parsed.units if u.concepts or len(u.canon) > 3} - {AGENT_WORD}
    own = [_label_words(side) - {AGENT_WORD} for _, side in sides]
    hits = [
        side
        for side, mine in zip(sides, own, strict=True)
        if words & (mine - frozenset().union(*(o for o in own if o is not mine)))
    ]
    return hits[0] if len(hits) == 1 else None


def _option_by_label(r: Reading) -> Option | None:
    """The one option whose label shares the most content words with the message."""
    words = {
        u.canon
        for u in r.parsed.units
        if u.concepts or (len(u.canon) > 3 and u.canon not in STOPWORDS)
    } - {"__agent__"}
    if not words:
        return None
    scored: list[tuple[int, Option]] = []
    for option in r.ctx.options:
        overlap = words & _label_words(option[2])
        scored.append((len(overlap) + len(overlap & _ACTION_WORDS), option))
    scored.sort(key=lambda item: -item[0])
    if scored[0][0] >= 2 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    return None


@once_per_reading
def _option_picked(r: Reading) -> Option | None:
    """The option a number, an ordinal or (for a single option) a yes picks."""
    options = r.ctx.options
    picked = selection(r.parsed, len(options))
    if picked is None and r.affirms and len(options) == 1:
        picked = 0
    if picked is None:
        return None
    return next((o for o in options if o[0] == picked + 1), options[picked])


@once_per_reading
def _option_named(r: Reading) -> Option | None:
    """The option a short message names: by its label's words, its tool, or a word only it has."""
    by_label = _option_by_label(r) if r.n_units <= 10 else None
    if by_label is None and r.n_units <= 4 and r.entities.get("source"):
        tools = [t.replace("_", " ") for t in r.entities["source"].split(",")]
        with_tool = [
            option
            for option in r.ctx.options
            if any(re.search(rf"\b{re.escape(t)}\b", normalize(option[2])) for t in tools)
        ]
        by_label = with_tool[0] if len(with_tool) == 1 else None
    if by_label is None and r.n_units <= 6:
        side = _side_named(r, [(action, label) for _, action, label in r.ctx.options])
        by_label = next((o for o in r.ctx.options if side and o[2] == side[1]), None)
    return by_label


@rule(
    "An item of a list picked with a verb of the message's own takes that verb.",
    examples=("Re-run the failed one",),
)
def acts_on_the_picked_item(r: Reading) -> Decision | None:
    own = _own_verb(r.concepts) if r.ctx.options else None
    chosen = _option_picked(r) if own is not None else None
    if own is not None and chosen is not None and _an_item(chosen):
        return Decision(own, 0.8, f"{own} for option {chosen[0]} ({chosen[2]})")
    return None


@rule(
    "A number or an ordinal picks that option, unless more words say what is wanted instead.",
    examples=("2", "option 2", "the second one", "the last", "el primero"),
    unlike=("3 — I'd actually just like to know what you can do",),
)
def picks_an_option(r: Reading) -> Decision | None:
    chosen = _option_picked(r) if r.ctx.options else None
    if chosen is not None and (chosen[1] != ActionType.UNKNOWN or r.n_units <= 3):
        return Decision(chosen[1], 0.9, f"picks option {chosen[0]} ({chosen[2] or chosen[1]})")
    return None


@rule(
    "An item of a list named with a verb of the message's own takes that verb.",
    examples=("Re-run the failed one.", "Executa de novo a que falhou."),
)
def acts_on_the_named_item(r: Reading) -> Decision | None:
    own = _own_verb(r.concepts) if r.ctx.options else None
    named = _option_named(r) if own is not None else None
    if own is not None and named is not None and _an_item(named):
        return Decision(own, 0.8, f"{own} for option {named[0]} ({named[2]})")
    return None


@rule(
    "A short reply that names one option by its words, its tool or a word only it has picks it.",
    examples=("let's create a new agent", "dropbox", "a new one"),
)
def names_an_option(r: Reading) -> Decision | None:
    named = _option_named(r) if r.ctx.options else None
    if named is not None:
        return Decision(named[1], 0.8, f"names option {named[0]} ({named[2]})")
    return None


def _side_picked(r: Reading) -> tuple[ActionType, str] | None:
    sides = r.ctx.alternatives
    if not sides or r.ctx.options or r.n_units > 8:
        return None
    side = _side_named(r, sides)
    picked = selection(r.parsed, len(sides)) if side is None else None
    return sides[picked] if picked is not None else side


def _between_sides(r: Reading) -> bool:
    return bool(r.ctx.alternatives) and not r.ctx.options and r.n_units <= 8


@rule(
    "A reply that names one side of an either/or question, or its position, takes that side.",
    examples=("separate", "the second", "Letzteres"),
)
def takes_one_side(r: Reading) -> Decision | None:
    side = _side_picked(r)
    if side is not None:
        return Decision(side[0], 0.8, f"takes one side of the question ({side[1]})")
    return None


@rule(
    "Leaving an either/or choice to the assistant takes the first way it put forward.",
    examples=("whatever works", "up to you"),
)
def leaves_the_choice_to_the_assistant(r: Reading) -> Decision | None:
    if _between_sides(r) and r.says(_WHATEVER):
        first = r.ctx.alternatives[0]
        return Decision(
            first[0], 0.7, f"leaves the choice to the assistant ({first[1]})", ambiguous=True
        )
    return None


@rule(
    "'Both' to an either/or question whose sides are the same action is that action.",
    examples=("both", "all of them", "whichever"),
)
def answers_both_sides_alike(r: Reading) -> Decision | None:
    if not _between_sides(r):
        return None
    shared = {action for action, _ in r.ctx.alternatives}
    if len(shared) == 1 and r.n_units <= 3 and not r.denies and not r.cancels:
        action = shared.pop()
        return Decision(action, 0.75, f"answers a question between two ways to {action}")
    return None


def _listed_by_word(r: Reading, listed: Sequence[str]) -> int | None:
    """The one listed agent the message names by a word of its name."""
    named = {u.tag for u in r.parsed.units if u.canon == AGENT_WORD}
    hits = [i for i, name in enumerate(listed) if name in named]
    if not hits:
        stems = {t[:5] for t in r.parsed.tokens if len(t) > 3}  # a stem of a word of the name
        hits = [
            i
            for i, name in enumerate(listed)
            if stems & {part[:5] for part in re.split(r"[-_]", name.lower()) if len(part) > 3}
        ]
    return hits[0] if len(hits) == 1 else None


@once_per_reading
def _listed_agent(r: Reading) -> str | None:
    """The agent of the list just shown that the message picks, by position or by a word."""
    listed = r.ctx.listed_agents
    if not listed:
        return None
    picked = selection(r.parsed, len(listed))
    if picked is None and r.n_units <= 6:
        picked = _listed_by_word(r, listed)
    return listed[picked] if picked is not None else None


@rule(
    "A listed agent picked with a change or a schedule is changed.",
    examples=("change the first one to daily",),
)
def changes_a_listed_agent(r: Reading) -> Decision | None:
    name = _listed_agent(r)
    if name is not None and (r.concepts & CHANGE_CUES or "schedule" in r.entities):
        r.entities["agent"] = name
        return Decision(ActionType.UPDATE_AGENT, 0.88, f"changes listed agent {name}")
    return None


@rule(
    "A listed agent picked with a run verb is run.",
    examples=("run the second one",),
)
def runs_a_listed_agent(r: Reading) -> Decision | None:
    name = _listed_agent(r)
    if name is not None and r.concepts & RUN_CUES:
        r.entities["agent"] = name
        return Decision(ActionType.EXECUTE_TASK, 0.9, f"runs listed agent {name}")
    return None


@rule(
    "A listed agent picked with a question is asked about.",
    examples=("what does the third one do?",),
)
def asks_about_a_listed_agent(r: Reading) -> Decision | None:
    name = _listed_agent(r)
    if name is not None and r.concepts & INFO_CUES:
        r.entities["agent"] = name
        return Decision(ActionType.QUERY_INFO, 0.85, f"asks about listed agent {name}")
    return None


@rule(
    "A listed agent picked alone, after a run or a change was asked for, gets that action.",
    examples=("the first one", "2", "the last one", "el primero"),
)
def picks_for_the_pending_action(r: Reading) -> Decision | None:
    prev = r.ctx.prev_intent
    if prev is None or prev not in (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT):
        return None
    name = _listed_agent(r)
    if name is not None:
        r.entities["agent"] = name
        return Decision(prev, 0.8, f"picks {name} for the pending action")
    return None


@rule(
    "A listed agent picked with a request of its own is that request, when the model is sure.",
    examples=("the last one should go to the CFO as well",),
)
def a_listed_agent_with_a_request(r: Reading) -> Decision | None:
    name = _listed_agent(r) if r.n_units >= 4 else None
    if name is None:
        return None
    top, sure = r.model_sure()
    if sure >= 0.45 and top in AGENT_ACTIONS:
        r.entities["agent"] = name
        return Decision(top, 0.7, f"{top} for listed agent {name}")
    return None


@rule(
    "A listed agent picked from a list the text offered for details is shown, or else run.",
    examples=("number two", "financial", "the inventory one"),
)
def picks_from_a_list_shown_for_information(r: Reading) -> Decision | None:
    if r.ctx.prev_intent != ActionType.QUERY_INFO or r.ctx.informed:
        return None
    name = _listed_agent(r)
    if name is not None:
        r.entities["agent"] = name
        return Decision(
            ActionType.QUERY_INFO,
            0.6,
            f"picks listed agent {name} from a list shown for information",
            alternative=ActionType.EXECUTE_TASK,
            ambiguous=True,
        )
    return None
