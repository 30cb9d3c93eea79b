"""Existing agents' schedules, stored as words in their config, become machine schedules.

"Every Monday at 08:00 (Europe/Berlin)" becomes {"rrule": "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;
BYMINUTE=0", "timezone": "Europe/Berlin"}; words that name no recurrence leave the agent to run
only when asked. The words stay in the config (the chat shows them). Reversing keeps the words
and drops the machine schedules.
"""

from django.db import migrations
from django.utils import timezone


def forwards(apps, schema_editor):
    from conversations.agents.schedules import schedule_from_words, schedule_next

    Agent = apps.get_model("conversations", "Agent")
    now = timezone.now()
    # cross-tenant: a migration converts every tenant's agents.
    for agent in Agent.objects.filter(schedule__isnull=True).iterator(chunk_size=500):
        words = str((agent.config or {}).get("schedule") or "")
        spec = schedule_from_words(words) if words else None
        if spec is None:
            continue
        agent.schedule = spec
        agent.next_run_at = None if agent.paused_at else schedule_next(spec, after=now)
        agent.save(update_fields=["schedule", "next_run_at"])


def backwards(apps, schema_editor):
    Agent = apps.get_model("conversations", "Agent")
    Agent.objects.update(schedule=None, next_run_at=None)


class Migration(migrations.Migration):
    dependencies = [("conversations", "0012_agent_schedules_and_runtime")]

    operations = [migrations.RunPython(forwards, backwards)]
