"""The offline tier on text it was not tuned on: the two frozen blind sets and the dev sets.

``eval_blind.jsonl`` and ``eval_blind2.jsonl`` were written from the label definitions alone and
committed before any tuning (see ``intents/data/eval_blind.md`` and ``eval_blind2.md``); they are
only measured, never tuned on. The floors sit just under the scores recorded in
docs/BENCHMARKS.md, so a change that loses ground on unseen text fails here rather than in a
review. The dev sets (also written blind, but tuned on) guard the follow-up reader and the
phrasing work.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path

import pytest

from intents.evaluation import load_dataset, run_cases

DATA = Path(__file__).resolve().parents[3] / "intents" / "data"
# Per category: (floor, cases). Recorded 2026-11-24: 335/381 (0.879); 341/381 (0.895) at the
# end of the fourth session; 340/381 (0.892) at the end of the fifth; 343/381 (0.900) at the
# end of the sixth, each measured once. Category floors sit a case or so below: one retraining
# moves a category by a case either way.
BLIND_FLOORS = {
    "direct": 0.95,
    "paraphrase": 0.87,
    "implicit": 0.87,
    "contextual": 0.90,
    "ambiguous": 0.60,
    "out_of_scope": 0.91,
    "noisy": 0.93,
    "long": 0.87,
    "injection": 0.94,
    "non_english": 0.94,
}

# The second frozen set (intents/data/eval_blind2.md). Recorded 2026-11-24: 224/250 (0.896);
# 228/250 (0.912) at the end of the fourth session; 230/250 (0.920) at the end of the fifth;
# 233/250 (0.932) at the end of the sixth.
BLIND2_FLOORS = {
    "direct": 0.95,
    "paraphrase": 0.90,
    "implicit": 0.93,
    "contextual": 0.92,
    "ambiguous": 0.80,
    "out_of_scope": 0.93,
    "noisy": 0.95,
    "long": 0.86,
    "injection": 0.90,
    "non_english": 0.92,
}


def _scores(name: str) -> tuple[float, dict[str, float]]:
    cases = load_dataset(DATA / name)
    scored = list(run_cases(cases, offline_only=True))
    hits: dict[str, list[bool]] = defaultdict(list)
    for s in scored:
        hits[s.case.category].append(s.correct)
    overall = sum(s.correct for s in scored) / len(scored)
    return overall, {c: sum(v) / len(v) for c, v in hits.items()}


def test_the_blind_set_is_the_one_that_was_frozen() -> None:
    expected = (DATA / "eval_blind.sha256").read_text().split()[0]
    assert hashlib.sha256((DATA / "eval_blind.jsonl").read_bytes()).hexdigest() == expected


def test_the_second_blind_set_is_the_one_that_was_frozen() -> None:
    expected = (DATA / "eval_blind2.sha256").read_text().split()[0]
    assert hashlib.sha256((DATA / "eval_blind2.jsonl").read_bytes()).hexdigest() == expected


def test_the_second_blind_set_holds_its_floors_in_every_category() -> None:
    overall, per_category = _scores("eval_blind2.jsonl")
    assert overall >= 0.92, overall
    below = {c: round(score, 3) for c, score in per_category.items() if score < BLIND2_FLOORS[c]}
    assert below == {}, below


def test_the_blind_set_holds_its_floors_in_every_category() -> None:
    overall, per_category = _scores("eval_blind.jsonl")
    assert overall >= 0.90, overall
    below = {c: round(score, 3) for c, score in per_category.items() if score < BLIND_FLOORS[c]}
    assert below == {}, below


@pytest.mark.parametrize(
    ("name", "floor"),
    [
        ("dev_followups.jsonl", 0.96),
        ("dev_phrasing.jsonl", 0.92),
        ("dev_hard.jsonl", 0.91),
        ("dev_mixed.jsonl", 0.92),
        ("dev_r6.jsonl", 0.88),
        ("dev_r7.jsonl", 0.92),
        ("dev_r8.jsonl", 0.94),
        ("dev_r9.jsonl", 0.90),
        ("dev_r10.jsonl", 0.92),
        ("dev_r11.jsonl", 0.94),
        # Sixth session, first use on 1cba989: 0.881, 0.888 and 0.934 (0.877, 0.876 and
        # 0.929 once the three training rows they repeated were dropped).
        ("dev_r12.jsonl", 0.92),
        ("dev_r13.jsonl", 0.95),
        ("dev_r14.jsonl", 0.96),
        # Written blind late in the sixth session and scored once, never tuned on: 0.908 on
        # the session's first commit (1cba989), 0.916 at its end.
        ("dev_r15.jsonl", 0.91),
    ],
)
def test_the_dev_sets_hold_their_floors(name: str, floor: float) -> None:
    overall, _ = _scores(name)
    assert overall >= floor, overall
