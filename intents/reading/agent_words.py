"""What a message asks about an agent that no act of the table says yet (pause, resume).
The patterns wait here, in the reading layer, to become acts; the policy asks ``asks`` and
reads no text itself."""

from __future__ import annotations

import re

_PATTERNS = {
    "resume": r"\b(?:resume|unpause|un-pause|re-?enable|re-?activate|turn (?:it |\S+ )?back on|"
    r"switch (?:it |\S+ )?back on|start (?:it |\S+ )?again|reanud\w*|reactiv\w*|despaus\w*|"
    r"reprend\w*|r[ée]activ\w*|reaktivier\w*|fortsetz\w*|setze? (?:\S+ ){0,3}fort|retom\w*|"
    r"reativ\w*)\b",
    # "turn it off", not "turn off the email part" (a change of what it does).
    "pause": r"\b(?:pause|pausa|pausar|pausiere\w*|pausier\w*|en pause|suspend\w*|disable|"
    r"deactivate|desactiv\w*|d[ée]sactiv\w*|deaktivier\w*|(?:turn|switch) (?:it|that|this) off|"
    r"(?:turn|switch) off (?:it|that|this|[\w-]+-[\w-]+)\b|"
    r"put (?:it |\S+ )?on hold|stop (?:it|running)|halt)\b",
}
_READERS = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in _PATTERNS.items()}


def asks(text: str) -> frozenset[str]:
    """The names of ``_PATTERNS`` the text shows ("pause", "resume")."""
    return frozenset(name for name, reader in _READERS.items() if reader.search(text))
