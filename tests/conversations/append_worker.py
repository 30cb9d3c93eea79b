"""Appends messages to one conversation from a separate process (the ordering test runs several).

Usage: append_worker.py TENANT_ID CONVERSATION_ID COUNT START_AT_EPOCH LABEL
Reads DATABASE_URL from the environment, like the server does.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from conversations import services  # noqa: E402
from conversations.models import Conversation  # noqa: E402


def main() -> None:
    tenant_id, conversation_id, count, start_at, label = sys.argv[1:6]
    conversation = Conversation.objects.for_tenant(int(tenant_id)).get(id=conversation_id)
    # Start together so the appends really interleave.
    time.sleep(max(0.0, float(start_at) - time.time()))
    for i in range(int(count)):
        services.message_add(conversation=conversation, role="user", content=f"{label}-{i}")
        # A breath between appends, as between real turns; SQLite's busy handler is not fair,
        # and without it one process can take every turn while the others back off.
        time.sleep(0.002)


if __name__ == "__main__":
    main()
