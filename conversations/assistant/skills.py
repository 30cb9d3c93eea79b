"""The hand-off to the skill builder (``skill_sessions``), keyed by the conversation.

The assistant's state holds only the open session's id; the session document is the one place
the skill's details live. Each exchange is decided here (the builder's state machine is pure)
and saved by the chat turn with the reply, in one transaction, as a ``SaveSkillSession`` effect;
the chat turn's degraded path stores it later, exactly once, like any effect.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from conversations.assistant.effects import CreateSkill, SaveSkillSession
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState
from conversations.assistant.text import numbered
from conversations.models import new_id
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.reading.topics import Topic
from skill_sessions import services
from skill_sessions.context import SkillContext
from skill_sessions.flow import QUESTIONS, Step, question, skill_start, skill_step, summary_lines
from skill_sessions.models import SkillCreationSession


def wants_to_resume(said: Reading) -> bool:
    """ "Let's finish that skill": carrying on with a skill left half built."""
    return said.shows(Act.PICKS_UP) and Topic.SKILLS in said.topics


def asks_for_skills(said: Reading) -> bool:
    """ "What skills do I have?": the list of the workspace's skills asked for."""
    return said.shows(Act.ASKS_FOR_SKILLS)


def _outcome(
    turn: Turn, state: AssistantState, session_id: str, step: Step, version: int
) -> Outcome:
    effects: list[SaveSkillSession | CreateSkill] = [
        SaveSkillSession(
            session_id=session_id,
            context=step.context.to_json(),
            expected_version=version,
            conversation_id=turn.conversation_id,
        )
    ]
    if step.completed:
        effects.append(
            CreateSkill(
                skill_id=new_id(),
                name=step.context.name,
                description=step.context.purpose,
                definition=step.context.draft,
                session_id=session_id,
            )
        )
    still_open = step.context.state not in ("completed", "cancelled")
    return Outcome(
        Reply(
            step.reply,
            meta={"skill_session": session_id, "skill_state": step.context.state},
            decision="skill_" + step.context.state,
        ),
        state.replace(skill_session=session_id if still_open else None),
        tuple(effects),
    )


def skill_session_start(turn: Turn, state: AssistantState, said: Reading) -> Outcome:
    return _outcome(turn, state, services.session_new_id(), skill_start(said), 0)


def skill_session_continue(
    turn: Turn, state: AssistantState, loaded: services.LoadedSession
) -> Outcome:
    step = skill_step(loaded.context, turn.reading, generate=turn.definitions)
    return _outcome(turn, state, loaded.row.session_id, step, loaded.row.version)


def open_session(turn: Turn, state: AssistantState) -> services.LoadedSession | None:
    """The session this conversation has open, if it is still active."""
    if not state.skill_session:
        return None
    loaded = services.session_load(tenant=turn.tenant, session_id=state.skill_session)
    if loaded is None or loaded.row.status != SkillCreationSession.Status.ACTIVE:
        return None
    return loaded


def skill_session_resume(turn: Turn, state: AssistantState) -> Outcome | None:
    """ "Let's finish that skill": the latest active session of this conversation, recapped."""
    row = services.session_open_in(
        tenant=turn.tenant, user=turn.user, conversation_id=turn.conversation_id
    )
    loaded = services.session_load(tenant=turn.tenant, session_id=row.session_id) if row else None
    if loaded is None:
        return None
    return Outcome(
        Reply(
            skill_recap(loaded),
            meta={"skill_session": loaded.row.session_id},
            decision="skill_resumed",
        ),
        state.replace(skill_session=loaded.row.session_id),
    )


def _open_question(context: SkillContext) -> str | None:
    """The question the builder left open, in the reply's language, if any."""
    if context.state == "confirming":
        return _("Shall I create it?")
    return question(context.asking) if context.asking in QUESTIONS else None


def skill_recap(loaded: services.LoadedSession) -> str:
    context = loaded.context
    lines = "\n".join(summary_lines(context))
    asked = _open_question(context)
    parts = [_("We were building a skill.")]
    if lines:
        parts.append(_("So far:\n%(details)s") % {"details": lines})
    if asked:
        parts.append(asked)
    return "\n\n".join(parts)


def skill_summary(loaded: services.LoadedSession) -> dict[str, object]:
    """The open session in short form, for a page picking the conversation back up."""
    context = loaded.context
    return {
        "session_id": loaded.row.session_id,
        "title": _("Building a skill"),
        "gathered": [line.removeprefix("- ") for line in summary_lines(context)],
        "question": _open_question(context),
    }


def skills_reply(turn: Turn) -> Reply:
    skills = list(services.skills_list(tenant=turn.tenant)[:50])
    if not skills:
        return Reply(
            _('You have no skills yet. Say "create a skill that …" and I\'ll build one with you.'),
            decision="list_skills_empty",
        )
    lines = numbered(
        [
            _("%(name)s - %(description)s") % {"name": s.name, "description": s.description}
            if s.description
            else s.name
            for s in skills
        ]
    )
    return Reply(_("Here are your skills:\n%(skills)s") % {"skills": lines}, decision="list_skills")
