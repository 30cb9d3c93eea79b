"""Appends messages to one conversation from a separate process (the ordering test runs several).

Usage: append_worker.py TENANT_ID CONVERSATION_ID COUNT GO_FILE LABEL

Prints "ready" once Django is set up, then waits for GO_FILE to exist, so that every worker
starts appending at the same moment however long its imports took on a loaded machine.
Reads DATABASE_URL from the environment, like the server does.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from conversations.models import Conversation  # noqa: E402
from conversations.store import services  # noqa: E402


def main() -> None:
    tenant_id, conversation_id, count, go_file, label = sys.argv[1:6]
    conversation = Conversation.objects.for_tenant(int(tenant_id)).get(id=conversation_id)
    print("ready", flush=True)
    # Start together so the appends really interleave.
    while not os.path.exists(go_file):
        time.sleep(0.001)
    for i in range(int(count)):
        services.message_add(conversation=conversation, role="user", content=f"{label}-{i}")
        # A breath between appends, as between real turns; SQLite's busy handler is not fair,
        # and without it one process can take every turn while the others back off.
        time.sleep(0.002)


if __name__ == "__main__":
    main()
