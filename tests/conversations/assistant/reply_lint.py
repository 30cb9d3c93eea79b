"""Lint for the assistant's replies: what a careful person would not write.

Each check is a function of one reply, the user messages of the conversation so far (the
current one included) and the tenant's agent names (slugs and the names as written), returning
the spans of the reply it objects to. The checks are approximations that prefer missing a case
to a false alarm: they back a ratchet (``test_reply_lint_scenarios``), not a gate on one reply.

The tools and the labels are read from the product (they are what it promises to spell); the
word lists are the lint's own, so that a change to the product's lexicon cannot move the meter.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from conversations.assistant import text, wizard
from conversations.assistant.text import display
from intents.offline.lexicon import CHAT_TOOLS, GROUPS, SOURCES
from skill_sessions.context import SkillContext
from skill_sessions.flow import summary_lines


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str


Check = Callable[..., list[Span]]

QUOTE_MAX_WORDS = 8
# fmt: off
PRONOUNS = frozenset({
    "i", "me", "my", "mine", "we", "us", "our", "ours", "you", "your", "yours", "they", "them",
    "their", "theirs", "he", "him", "his", "she", "her", "hers", "it", "its",
    # a pronoun and its verb: "it's", "that's" are a sentence, never a value
    "i'm", "i've", "i'd", "i'll", "we're", "we've", "we'd", "we'll", "you're", "you've",
    "you'd", "you'll", "they're", "they've", "it's", "that's", "there's", "here's",
})
# Verbs a leaked user phrase starts with ("get our …", "it takes …", "copy the …").
VERBS = frozenset({
    "get", "gets", "got", "take", "takes", "took", "send", "sends", "sent", "check", "checks",
    "watch", "watches", "copy", "copies", "make", "makes", "do", "does", "did", "run", "runs",
    "put", "puts", "call", "calls", "give", "gives", "keep", "keeps", "want", "wants", "need",
    "needs", "let", "lets", "should", "would", "could", "can", "will", "must", "is", "are",
})
# Words after which a verb is in its base form: "does analyzes", "will sends", "to watches".
# "do" and "did" are left out: "where do alerts go" is English.
AUXILIARIES = frozenset({
    "does", "doesn't", "didn't", "don't", "will", "won't", "would", "can", "can't", "cannot",
    "could", "should", "shall", "may", "might", "must", "to",
})
# Words ending in -s that are no verb form, whatever the words around them.
NOT_VERB_FORMS = frozenset({
    "its", "his", "hers", "ours", "yours", "theirs", "this", "us", "was", "is", "as", "yes",
    "plus", "thus", "less", "unless", "always", "perhaps", "news", "status", "series", "whereas",
})
# fmt: on
# The slot frames of a sentence, each followed by the value it frames.
FRAMES = (
    re.compile(r"\bagent that watches\s+", re.IGNORECASE),
    re.compile(r"\bwhich does\s+", re.IGNORECASE),
)
# Where a framed value ends: "watches Jira for overdue tickets and sends …".
_FRAMED_END_RE = re.compile(r"[.;:!?\n]|\s(?:and|every)\s")
# Labels whose value says what is done: an imperative is how it starts ("Action: Send a
# summary", "Does: Pull project updates out of Notion"), so only a pronoun or an inflected verb
# ("Does: sends …" reads "does sends") is wrong there.
VERB_PHRASE_LABELS = frozenset({text.LABELS["action"], wizard.LABELS["task"]})

# A word; a time (09:00), a time zone (America/Los_Angeles), a domain or a path counts as one.
_WORD_RE = re.compile(r"[^\W_]+(?:[_/:.][^\W_]+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})
# Text that is a name or an address, not prose: a slug (jira-tickets-monitor), a channel, an
# e-mail address, a URL or path, inline code.
_NOT_PROSE_RE = re.compile(
    r"`[^`\n]*`"
    r"|https?://\S+|(?<![\w/])/[\w./-]+/"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|#[\w-]+"
    r"|\b[\w.]+(?:-[\w.]+)+\b"
)


def _labels() -> tuple[str, ...]:
    """The labels of the detail lines the assistant and the skill builder write."""
    context = SkillContext(name="n", purpose="p", inputs="i", outputs="o", examples=["e"])
    skill = [line[2:].partition(":")[0] for line in summary_lines(context)]
    found = [*wizard.LABELS.values(), *text.LABELS.values(), *skill]
    return tuple(sorted(set(found), key=len, reverse=True))


LABELS = _labels()
_DETAIL_RE = re.compile(
    r"^[ \t]*(?:[-*\u2022][ \t]+)?(?:\*\*)?(" + "|".join(map(re.escape, LABELS)) + r"):(?:\*\*)?"
    r"[ \t]+([^\n]*)$",
    re.MULTILINE,
)


def _not_prose(reply: str, agent_names: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``reply`` names or addresses something: those spans are not the reply's prose."""
    spans = [match.span() for match in _NOT_PROSE_RE.finditer(reply)]
    for name in agent_names:
        if name:
            pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            spans += [m.span() for m in re.finditer(pattern, reply, re.IGNORECASE)]
    return spans


def _inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(low <= start and end <= high for low, high in spans)


def _words(value: str) -> list[tuple[str, int, int]]:
    return [(m.group().lower(), m.start(), m.end()) for m in _WORD_RE.finditer(value)]


def quoted_user_sentence(
    reply: str, *, user_messages: Sequence[str], agent_names: Iterable[str]
) -> list[Span]:
    """Stretches of the reply that repeat more than eight consecutive words of a user message
    (lowercased word tokens, punctuation ignored), unless the stretch is all inside a name,
    a channel, an e-mail address or a URL.

    A stretch stays within one line and does not take in the reply's own framing words (a
    detail line's label, "an agent that watches"), which the user may happen to have written too.
    """
    messages = [[word for word, _, _ in _words(message)] for message in user_messages]
    protected = _not_prose(reply, agent_names)
    spans = []
    for low, high in _own_words_apart(reply):
        words = [(word, low + start, low + end) for word, start, end in _words(reply[low:high])]
        runs = [run for said in messages for run in _common_runs(words, said)]
        for first, last in _merged(runs):
            start, end = words[first][1], words[last][2]
            if not _inside(start, end, protected):
                spans.append(Span(start, end, reply[start:end]))
    return spans


def _own_words_apart(reply: str) -> list[tuple[int, int]]:
    """The stretches of ``reply`` between line breaks, labels and sentence frames."""
    cuts = {0, len(reply)} | {match.start() for match in re.finditer(r"\n", reply)}
    for match in _DETAIL_RE.finditer(reply):
        cuts.add(match.start(2))
    for frame in FRAMES:
        cuts |= {match.end() for match in frame.finditer(reply)}
    ordered = sorted(cuts)
    return list(itertools.pairwise(ordered))


def _common_runs(
    words: Sequence[tuple[str, int, int]], said: Sequence[str]
) -> list[tuple[int, int]]:
    """Word index ranges [first, last] of ``words`` that repeat more than eight words of
    ``said`` in a row (longest common substrings, by dynamic programming)."""
    runs = []
    previous = [0] * (len(said) + 1)
    for at, (token, _, _) in enumerate(words):
        current = [0] * (len(said) + 1)
        for j, word in enumerate(said, start=1):
            if word == token:
                current[j] = previous[j - 1] + 1
                if current[j] > QUOTE_MAX_WORDS:
                    runs.append((at - current[j] + 1, at))
        previous = current
    return runs


def _merged(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in sorted(runs):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def _lexicon_verb_forms() -> frozenset[str]:
    """The -s forms the classifier's lexicon lists as verbs ("lists", "pulls", "makes")."""
    return frozenset(
        form
        for _, concepts, forms in GROUPS
        if any(concept.startswith("V_") for concept in concepts.split())
        for form in forms.split("|")
        if form.isalpha() and form.endswith("s")
    )


LEXICON_VERB_FORMS = _lexicon_verb_forms()


def _bases(word: str) -> set[str]:
    """The base forms an -s word may be the third person of ("copies" -> copy, copie, copi)."""
    bases = {word[:-1]}
    if word.endswith("es"):
        bases.add(word[:-2])
    if word.endswith("ies"):
        bases.add(f"{word[:-3]}y")
    return bases


def _is_inflected_verb(word: str, known: set[str]) -> bool:
    """Whether ``word`` is a third-person verb form: it ends in -s and its base form is a verb
    of the closed list or a word used elsewhere in the conversation ("analyzes" when the user
    wrote "analyze")."""
    if word in {"has", "does", "goes"} or word in LEXICON_VERB_FORMS:
        return True
    if len(word) < 4 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    if word in NOT_VERB_FORMS:
        return False
    return any(base in VERBS or base in known for base in _bases(word))


# A question word right before the auxiliary: its subject follows it, and may be a plural.
_QUESTION_LEAD_RE = re.compile(r"\b(?:how|what|where|when|why|who|often|long|much|many)\s+$", re.I)
# Two words in a row, the second looked ahead so that it can be the next pair's first.
_PAIR_RE = re.compile(r"\b([a-z]+(?:'[a-z]+)?)(?=([ \t]+)([a-z]+)\b)")


def doubled_verb(
    reply: str, *, user_messages: Sequence[str], agent_names: Iterable[str]
) -> list[Span]:
    """An auxiliary followed by an inflected verb: "does analyzes", "will sends", "to watches"."""
    normalized = reply.translate(_APOSTROPHES)
    known = {word for value in [reply, *user_messages] for word, _, _ in _words(value)}
    protected = _not_prose(normalized, agent_names)
    spans = []
    for match in _PAIR_RE.finditer(normalized):
        auxiliary, word = match.group(1), match.group(3)
        start, end = match.start(3), match.end(3)
        if auxiliary not in AUXILIARIES or _inside(start, end, protected):
            continue
        if _QUESTION_LEAD_RE.search(normalized, 0, match.start()):
            continue  # an inverted question: "how often should reports run?"
        # "to" is also a preposition ("sends it to reports", "to posts"): after it, only a
        # verb of the closed list counts.
        if auxiliary == "to":
            wrong = word in VERBS and word.endswith("s") and word not in NOT_VERB_FORMS
        else:
            wrong = _is_inflected_verb(word, known)
        if wrong:
            spans.append(Span(match.start(), end, reply[match.start() : end]))
    return spans


def _tool_spellings() -> dict[str, str]:
    """The product's tools as prose writes them in lowercase -> as the product spells them.

    A tool whose bare name the lexicon does not read as the tool is left out: "linear" and
    "monday" are ordinary words (a weekday) unless written "Linear app", "monday.com"."""
    spellings = {}
    for key, aliases in {**SOURCES, **CHAT_TOOLS}.items():
        plain = key.replace("_", " ")
        if plain not in aliases:
            continue
        spellings[plain] = display(key)
        spellings[key] = display(key)
    return spellings


TOOL_SPELLINGS = _tool_spellings()
_TOOL_RE = re.compile(
    r"(?<![\w#@./-])("
    + "|".join(sorted(map(re.escape, TOOL_SPELLINGS), key=len, reverse=True))
    # Each alternative matched whole: "jira" in jira-tickets-monitor is masked as a slug.
    + r")(?![\w@-]|\.\w)",
    re.IGNORECASE,
)


def lowercase_tool_name(
    reply: str, *, user_messages: Sequence[str], agent_names: Iterable[str]
) -> list[Span]:
    """A tool the product knows written in lowercase in prose ("Source: jira", "new sentry
    issues"), not in a slug, a channel, an e-mail address, a URL or inline code."""
    protected = _not_prose(reply, agent_names)
    spans = []
    for match in _TOOL_RE.finditer(reply):
        written = match.group()
        if written != written.lower() or _inside(*match.span(), protected):
            continue
        spans.append(Span(*match.span(), written))
    return spans


def _first_word(value: str) -> str:
    """The value's first word, lowercased; "" when it starts otherwise (a number, a channel).

    A lowercase "i" is left out: it is the article of Italian values ("i nuovi ticket")."""
    match = re.match(r"[\"'\u201c(]*([^\W\d_]+(?:'[^\W\d_]+)?)", value.translate(_APOSTROPHES))
    if not match or match.group(1) == "i":
        return ""
    return match.group(1).lower()


def _values(reply: str) -> Iterable[tuple[str, int, int]]:
    """The slot values of the reply: label, start and end of each."""
    for match in _DETAIL_RE.finditer(reply):
        label, start = match.group(1), match.start(2)
        # A change is "before → after": both sides are values.
        for part in re.finditer(r"[^\u2192]+", match.group(2)):
            left = len(part.group()) - len(part.group().lstrip())
            right = len(part.group().rstrip())
            if right > left:
                yield label, start + part.start() + left, start + part.start() + right
    for frame in FRAMES:
        for match in frame.finditer(reply):
            end = _FRAMED_END_RE.search(reply, match.end())
            yield "", match.end(), end.start() if end else len(reply)


def slot_starts_with_verb_or_pronoun(
    reply: str, *, user_messages: Sequence[str], agent_names: Iterable[str]
) -> list[Span]:
    """A detail line's value ("Takes: It takes a date string") or a framed value ("an agent
    that watches get our Zendesk backlog") that starts with a pronoun or a verb."""
    spans = []
    for label, start, end in _values(reply):
        value = reply[start:end]
        first = _first_word(value)
        if label in VERB_PHRASE_LABELS:
            wrong = first in PRONOUNS or (first in VERBS and first.endswith("s"))
        else:
            wrong = first in PRONOUNS or first in VERBS
        if wrong:
            spans.append(Span(start, end, value))
    return spans


CHECKS: tuple[Check, ...] = (
    quoted_user_sentence,
    doubled_verb,
    lowercase_tool_name,
    slot_starts_with_verb_or_pronoun,
)


def reply_violations(
    reply: str, *, user_messages: Sequence[str], agent_names: Iterable[str]
) -> dict[str, list[Span]]:
    """Every check's spans for one reply, by check name (checks that found nothing left out)."""
    names = list(agent_names)
    found = {
        check.__name__: check(reply, user_messages=user_messages, agent_names=names)
        for check in CHECKS
    }
    return {name: spans for name, spans in found.items() if spans}
