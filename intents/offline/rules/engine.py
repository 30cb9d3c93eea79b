"""Rules as data: a rule decides, a nudge leans the model, and a small engine runs them in order.

A rule is a name, a one-line reason, the sentences it was written from and a function of the
reading that returns a decision or ``None``. A nudge has the same description and moves the
model's scores instead. Sections group the table by what must hold for their rules to apply at
all (a history to follow up on, a long message); the first rule that decides wins, and the
model decides when none does. ``manage.py eval_intents --rules`` scores every entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from intents.offline.rules.reading import Decision, Reading

Decide = Callable[[Reading], Decision | None]
Lean = Callable[[Reading], bool]


@dataclass(frozen=True)
class Rule:
    """A named decision: when ``decide`` returns one, the message is classified by it."""

    name: str
    reason: str
    examples: tuple[str, ...]
    decide: Decide
    # Sentences it was written to leave alone (a look-alike that means something else).
    unlike: tuple[str, ...] = ()


@dataclass(frozen=True)
class Nudge:
    """A named adjustment of the model's scores; ``lean`` moves them and says whether it did."""

    name: str
    reason: str
    examples: tuple[str, ...]
    lean: Lean
    unlike: tuple[str, ...] = ()


Entry = Rule | Nudge


@dataclass(frozen=True)
class Section:
    """Entries that apply only when ``applies`` holds for the reading, in table order."""

    name: str
    applies: Callable[[Reading], bool]
    entries: tuple[Entry, ...]
    # The entries as (name, decide, lean): the engine runs on every message, so it reads
    # plain tuples rather than asking each entry what it is.
    steps: tuple[tuple[str, Decide | None, Lean | None], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        steps = tuple(
            (e.name, None, e.lean) if isinstance(e, Nudge) else (e.name, e.decide, None)
            for e in self.entries
        )
        object.__setattr__(self, "steps", steps)


@dataclass(frozen=True)
class Outcome:
    decision: Decision | None
    rule: str | None  # the rule that decided; None when the model is left to decide
    nudges: tuple[str, ...]  # the nudges that moved the scores on the way


def rule(
    reason: str, *, examples: Sequence[str] = (), unlike: Sequence[str] = ()
) -> Callable[[Decide], Rule]:
    """Declare the decorated function as a rule named after it."""

    def declare(decide: Decide) -> Rule:
        return Rule(decide.__name__, reason, tuple(examples), decide, tuple(unlike))

    return declare


def nudge(
    reason: str, *, examples: Sequence[str] = (), unlike: Sequence[str] = ()
) -> Callable[[Lean], Nudge]:
    """Declare the decorated function as a nudge named after it."""

    def declare(lean: Lean) -> Nudge:
        return Nudge(lean.__name__, reason, tuple(examples), lean, tuple(unlike))

    return declare


def always(_: Reading) -> bool:
    return True


def run(sections: Sequence[Section], reading: Reading) -> Outcome:
    """The first decision of the table, in order, and the nudges applied before it."""
    nudged: list[str] = []
    for section in sections:
        if not section.applies(reading):
            continue
        for name, decide, lean in section.steps:
            if lean is not None:
                if lean(reading):
                    nudged.append(name)
                continue
            decision = decide(reading) if decide is not None else None
            if decision is not None:
                return Outcome(decision, name, tuple(nudged))
    return Outcome(None, None, tuple(nudged))


def entries(sections: Sequence[Section]) -> tuple[Entry, ...]:
    return tuple(entry for section in sections for entry in section.entries)
