"""The context window, over synthetic rows: no database, no tokenizer."""

from __future__ import annotations

from typing import Any

from conversations.store.context import MIN_RECENT, assemble_context, to_history
from conversations.store.selectors import RecentMessage


def msg(
    seq: int,
    *,
    tokens: int = 10,
    role: str | None = None,
    content: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> RecentMessage:
    return RecentMessage(
        id=f"m{seq:04d}",
        seq=seq,
        role=role or ("user" if seq % 2 else "assistant"),
        content=content if content is not None else f"message {seq}",
        token_count=tokens,
        metadata=metadata or {},
    )


def conversation(count: int, *, tokens: int = 10) -> list[RecentMessage]:
    return [msg(seq, tokens=tokens) for seq in range(1, count + 1)]


def seqs(messages: list[RecentMessage]) -> list[int]:
    return [m.seq for m in messages]


# --- assemble_context ------------------------------------------------------------------------


def test_an_empty_history_gives_an_empty_window() -> None:
    assert assemble_context([], token_budget=2000, max_messages=20) == []


def test_a_single_message_is_the_window() -> None:
    only = msg(1)
    assert assemble_context([only], token_budget=2000, max_messages=20) == [only]


def test_everything_within_budget_and_cap_is_kept_in_chronological_order() -> None:
    history = conversation(12, tokens=50)
    window = assemble_context(history, token_budget=2000, max_messages=20)
    assert window == history


def test_older_messages_are_dropped_once_the_budget_is_spent() -> None:
    history = conversation(10, tokens=100)
    window = assemble_context(history, token_budget=750, max_messages=20)
    # The last 6 cost 600; one more older message fits (700), the next would make 800.
    assert seqs(window) == [4, 5, 6, 7, 8, 9, 10]


def test_the_fill_stops_at_the_first_older_message_that_does_not_fit() -> None:
    costs = [5, 5, 5, 500, 5, 10, 10, 10, 10, 10, 10]
    history = [msg(seq, tokens=cost) for seq, cost in enumerate(costs, start=1)]
    window = assemble_context(history, token_budget=200, max_messages=20)
    # Seq 4 (500 tokens) does not fit: the cheap messages before it are not reached over it.
    assert seqs(window) == [5, 6, 7, 8, 9, 10, 11]


def test_the_last_six_are_kept_even_when_they_alone_exceed_the_budget() -> None:
    history = [msg(seq, tokens=10) for seq in range(1, 5)] + [
        msg(seq, tokens=400) for seq in range(5, 11)
    ]
    window = assemble_context(history, token_budget=1000, max_messages=20)
    assert seqs(window) == [5, 6, 7, 8, 9, 10]


def test_when_every_message_is_over_budget_exactly_the_last_six_are_kept() -> None:
    history = conversation(15, tokens=5000)
    window = assemble_context(history, token_budget=2000, max_messages=20)
    assert MIN_RECENT == 6
    assert seqs(window) == [10, 11, 12, 13, 14, 15]


def test_max_messages_caps_the_window_to_the_latest() -> None:
    history = conversation(30, tokens=1)
    window = assemble_context(history, token_budget=2000, max_messages=20)
    assert len(window) == 20
    assert seqs(window) == list(range(11, 31))


def test_max_messages_below_min_recent_still_caps() -> None:
    history = conversation(10, tokens=1)
    window = assemble_context(history, token_budget=2000, max_messages=4)
    assert seqs(window) == [7, 8, 9, 10]


def test_min_recent_larger_than_the_history_keeps_everything() -> None:
    history = conversation(3, tokens=5000)
    window = assemble_context(history, token_budget=10, max_messages=20, min_recent=10)
    assert window == history


def test_a_custom_min_recent_is_honoured() -> None:
    history = conversation(10, tokens=100)
    window = assemble_context(history, token_budget=100, max_messages=20, min_recent=2)
    assert seqs(window) == [9, 10]


def test_the_window_is_always_chronological() -> None:
    costs = [30, 1, 200, 7, 90, 3, 45, 60, 2, 80, 15, 5, 120, 9, 40]
    history = [msg(seq, tokens=cost) for seq, cost in enumerate(costs, start=1)]
    for budget in (0, 50, 300, 500, 10_000):
        for cap in (1, 6, 8, 20):
            window = seqs(assemble_context(history, token_budget=budget, max_messages=cap))
            assert window == sorted(window)
            # A suffix of the history: contiguous, ending at the newest message.
            assert window == list(range(16 - len(window), 16))


def test_it_counts_the_stored_token_count_not_the_content() -> None:
    huge = msg(1, tokens=1, content="word " * 50_000)
    history = [huge] + [msg(seq, tokens=1) for seq in range(2, 8)]
    window = assemble_context(history, token_budget=7, max_messages=20)
    assert window[0] is huge
    assert seqs(window) == [1, 2, 3, 4, 5, 6, 7]


def test_a_stored_count_over_budget_drops_even_a_short_message() -> None:
    short = msg(1, tokens=10_000, content="hi")
    history = [short] + [msg(seq, tokens=1) for seq in range(2, 8)]
    window = assemble_context(history, token_budget=2000, max_messages=20)
    assert short not in window
    assert seqs(window) == [2, 3, 4, 5, 6, 7]


def test_it_does_not_change_the_input() -> None:
    history = conversation(30, tokens=100)
    before = list(history)
    assemble_context(history, token_budget=700, max_messages=20)
    assert history == before


# --- to_history ------------------------------------------------------------------------------

INTENT = {
    "action_type": "execute_task",
    "confidence": 0.91,
    "entities": {"agent": "notion-reporter"},
    "reasoning": "the user named an agent",
    "is_ambiguous": False,
    "alternative_action": None,
    "clarifying_question": None,
    "method": "offline",
    "model": None,
    "latency_ms": 0.4,
}


def test_history_turns_carry_role_and_content_in_order() -> None:
    rows = [
        msg(1, role="user", content="list my agents"),
        msg(2, role="assistant", content="1. notion-reporter"),
        msg(3, role="system", content="note"),
    ]
    assert to_history(rows) == [
        {"role": "user", "content": "list my agents"},
        {"role": "assistant", "content": "1. notion-reporter"},
        {"role": "system", "content": "note"},
    ]


def test_user_turns_carry_no_metadata() -> None:
    row = msg(1, role="user", metadata={"listed_agents": ["a"], "intent": INTENT})
    assert to_history([row]) == [{"role": "user", "content": "message 1"}]


def test_assistant_turns_carry_only_the_compact_routing_annotation() -> None:
    metadata = {
        "listed_agents": ["notion-reporter", "jira-monitor"],
        "options": [{"n": 1, "action_type": "create_agent", "label": "Create it"}],
        "offer": {"action_type": "execute_task", "entities": {"agent": "jira-monitor"}},
        "wizard": {"kind": "create_agent", "gathered": {"source": "notion"}, "asking": ["when"]},
        "agent_run": "notion-reporter",
        "agents_referenced": ["notion-reporter"],
        "intent": INTENT,
        "routing": "execute",
        "reply_to": "m0001",
        "intent_usage": {"prompt_tokens": 900},
        "degraded": ["history"],
    }
    row = msg(2, role="assistant", content="Running notion-reporter.", metadata=metadata)

    (turn,) = to_history([row])

    assert turn["role"] == "assistant"
    assert turn["content"] == "Running notion-reporter."
    assert turn["metadata"] == {
        "listed_agents": ["notion-reporter", "jira-monitor"],
        "options": [{"n": 1, "action_type": "create_agent", "label": "Create it"}],
        "offer": {"action_type": "execute_task", "entities": {"agent": "jira-monitor"}},
        "agent_run": "notion-reporter",
        "agents_referenced": ["notion-reporter"],
        "intent": {
            "action_type": "execute_task",
            "method": "offline",
            "entities": {"agent": "notion-reporter"},
        },
    }


def test_empty_routing_values_are_left_out() -> None:
    row = msg(2, role="assistant", metadata={"listed_agents": [], "offer": None, "intent": INTENT})
    (turn,) = to_history([row])
    assert turn["metadata"] == {
        "intent": {
            "action_type": "execute_task",
            "method": "offline",
            "entities": {"agent": "notion-reporter"},
        }
    }


def test_an_assistant_turn_without_metadata_has_no_annotation() -> None:
    (turn,) = to_history([msg(2, role="assistant", metadata={})])
    assert turn == {"role": "assistant", "content": "message 2"}


def test_an_unknown_role_is_read_as_a_user_turn_without_metadata() -> None:
    (turn,) = to_history([msg(1, role="tool", metadata={"listed_agents": ["a"]})])
    assert turn == {"role": "user", "content": "message 1"}


def test_the_window_feeds_the_history_chronologically() -> None:
    history = [msg(seq, tokens=1, content=f"turn {seq}") for seq in range(1, 31)]
    turns = to_history(assemble_context(history, token_budget=2000, max_messages=20))
    assert [t["content"] for t in turns] == [f"turn {seq}" for seq in range(11, 31)]
