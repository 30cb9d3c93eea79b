"""The learned part of the offline classifier: features and a multinomial logistic regression.

The model is trained from ``intents/data/training.jsonl`` on first use (a few seconds,
deterministic) and kept for the life of the process, and its weights in a file that the next
process loads instead of training (``OMNIFORGE_MODEL_CACHE_DIR``, else a directory of the
user's own under the system's temporary directory).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import random
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from intents.offline.lexicon import AGENT_WORD, STOPWORDS
from intents.offline.text import (
    TOKEN_RE,
    Analyzer,
    Lexicon,
    Parsed,
    agent_keys,
    normalize,
    parse,
)
from intents.types import ActionType

TRAINING_PATH = Path(__file__).resolve().parent.parent / "data" / "training.jsonl"
LABELS: tuple[ActionType, ...] = tuple(ActionType)
N_LABELS = len(LABELS)
_PAIR_WINDOW = 4  # units apart: verb-object pairs survive German verb-final word order

# Agent names the training sentences use; they are matched like a tenant's agents.
TRAINING_AGENTS = (
    "notion-reporter",
    "jira-overdue-monitor",
    "financial-analyzer",
    "sales-digest",
    "support-triage",
    "invoice-chaser",
    "standup-bot",
    "hubspot-sync",
    "kpi-weekly",
    "churn-watch",
)

# Hyper-parameters picked by cross-validation on the training set (see docs/intents-offline.md).
EPOCHS = 10
LEARNING_RATE = 0.35
L2 = 2e-4
# SGD stops short of the optimum, so where it stops depends on the order it saw the rows: one
# run's predictions on new text differ from another seed's on ~5% of messages. The average of
# ten runs' weights (still one linear model, so no slower to use) cuts that churn to ~1.5%.
ENSEMBLE_SEEDS = tuple(range(13, 23))


@dataclass(frozen=True)
class TrainingExample:
    message: str
    label: ActionType
    agents: tuple[str, ...] = ()


def load_training(path: Path = TRAINING_PATH) -> list[TrainingExample]:
    """Read the JSONL training file; blank lines and ``//`` comments are skipped."""
    examples: list[TrainingExample] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            row = json.loads(line)
            examples.append(
                TrainingExample(
                    message=row["message"],
                    label=ActionType(row["label"]),
                    agents=tuple(row.get("agents", ())),
                )
            )
    return examples


def features(parsed: Parsed) -> list[str]:
    """Sparse features: canonical words, bigrams, concepts, concept pairs and shape flags.

    Concepts repeat (up to three times) so that a long message mentioning billing four times
    weighs billing more than one passing mention of something else.
    """
    # A dict, not a set: insertion order is deterministic, so the float sums are too.
    out: dict[str, None] = {"x:bias": None}
    repeated: list[str] = []
    seen_concepts: dict[str, int] = {}
    units = parsed.units
    content: list[str] = []
    concept_at: list[tuple[int, str]] = []
    for index, unit in enumerate(units):
        canon = unit.canon
        if canon not in STOPWORDS:
            out["w:" + canon] = None
            content.append(canon)
        for concept in unit.concepts:
            count = seen_concepts.get(concept, 0) + 1
            seen_concepts[concept] = count
            if count == 1:
                out["c:" + concept] = None
            elif count <= 3:
                repeated.append("c:" + concept)
            concept_at.append((index, concept))
    for a, b in itertools.pairwise(content):
        out[f"b:{a}|{b}"] = None
    n_concepts = len(concept_at)
    for i in range(n_concepts):
        pos_a, con_a = concept_at[i]
        for j in range(i + 1, n_concepts):
            pos_b, con_b = concept_at[j]
            if pos_b - pos_a > _PAIR_WINDOW:
                break
            if con_a != con_b:
                out[_pair_name(con_a, con_b)] = None
    # "ok, run it" and "cool, show me" start where the interjection ends.
    lead = 0
    while lead < len(units) - 1 and not _INTERJECTION.isdisjoint(units[lead].concepts):
        lead += 1
    if units:
        out["f:" + units[lead].canon] = None
        for concept in units[lead].concepts:
            out["fc:" + concept] = None
        if lead + 1 < len(units):
            out["f2:" + units[lead].canon + "|" + units[lead + 1].canon] = None
    if not concept_at:
        out["x:no_concepts"] = None
    if len(units) <= 2:
        out["x:short"] = None
    if parsed.norm.endswith("?"):
        out["x:question"] = None
    for flag in sorted(parsed.flags):
        out["x:" + flag] = None
    return [*out, *repeated]


@functools.lru_cache(maxsize=8192)
def _pair_name(a: str, b: str) -> str:
    """The feature of two concepts seen close together, in either order."""
    return f"p:{a}|{b}" if a < b else f"p:{b}|{a}"


_INTERJECTION = frozenset({"YES", "THANKS", "GREET"})


class Model:
    """Multinomial logistic regression over sparse binary features."""

    def __init__(self, weights: dict[str, tuple[float, ...]]) -> None:
        self.weights = weights

    def logits(self, feats: Iterable[str]) -> list[float]:
        get = self.weights.get
        rows = [w for f in feats if (w := get(f)) is not None]
        if not rows:
            return [0.0] * N_LABELS
        return [sum(col) for col in zip(*rows, strict=True)]


def train(examples: Sequence[tuple[list[str], int]], *, seed: int = 13) -> Model:
    """Plain SGD with a class-balanced loss and per-epoch weight decay; deterministic."""
    counts = Counter(label for _, label in examples)
    total = len(examples)
    class_weight = [total / (N_LABELS * counts[c]) if counts[c] else 0.0 for c in range(N_LABELS)]
    weights: dict[str, list[float]] = {}
    # Each example keeps references to its weight rows, so an update touches them in place.
    example_rows = [
        ([weights.setdefault(f, [0.0] * N_LABELS) for f in feats], label)
        for feats, label in examples
    ]
    order = list(range(total))
    rng = random.Random(seed)
    for epoch in range(EPOCHS):
        rng.shuffle(order)
        lr = LEARNING_RATE / (1.0 + 0.3 * epoch)
        for idx in order:
            rows, label = example_rows[idx]
            scores = [sum(col) for col in zip(*rows, strict=True)]
            top = max(scores)
            exps = [math.exp(v - top) for v in scores]
            norm = sum(exps)
            step = class_weight[label] * lr
            grads = [step * e / norm for e in exps]
            grads[label] -= step
            # Classes the example already scores right barely move; skipping them is most
            # of the training time saved.
            active = [(c, g) for c, g in enumerate(grads) if g > 1e-4 or g < -1e-4]
            for row in rows:
                for c, g in active:
                    row[c] -= g
        decay = 1.0 - lr * L2 * total / 100.0
        for row in weights.values():
            for c in range(N_LABELS):
                row[c] *= decay
    return Model({f: tuple(w) for f, w in weights.items()})


def train_averaged(
    examples: Sequence[tuple[list[str], int]], seeds: Sequence[int] = ENSEMBLE_SEEDS
) -> Model:
    """One model whose weights are the mean of a ``train`` run per seed."""
    runs = [train(examples, seed=seed).weights for seed in seeds]
    zero = (0.0,) * N_LABELS
    merged: dict[str, tuple[float, ...]] = {}
    for feature in dict.fromkeys(itertools.chain.from_iterable(runs)):
        rows = [run.get(feature, zero) for run in runs]
        merged[feature] = tuple(sum(col) / len(runs) for col in zip(*rows, strict=True))
    return Model(merged)


@dataclass(frozen=True)
class Engine:
    analyzer: Analyzer
    model: Model


def _analyzer_for(examples: Sequence[TrainingExample]) -> Analyzer:
    """The lexicon with the training vocabulary (what typos are corrected towards)."""
    vocab: Counter[str] = Counter()
    for ex in examples:
        vocab.update(TOKEN_RE.findall(normalize(ex.message)))
    return Analyzer(_lexicon(), vocab)


def build_engine(examples: Sequence[TrainingExample]) -> Engine:
    """Vocabulary, analyzer and model from a list of training examples."""
    analyzer = _analyzer_for(examples)
    default_keys = agent_keys(TRAINING_AGENTS)
    rows: list[tuple[list[str], int]] = []
    for ex in examples:
        label = LABELS.index(ex.label)
        keys = agent_keys(ex.agents) if ex.agents else default_keys
        with_names = parse(ex.message, analyzer, keys)
        rows.append((features(with_names), label))
        if any(u.canon == AGENT_WORD for u in with_names.units):
            # Also learn the message as a tenant without that agent would send it, so a name
            # the caller did not pass in ``agents`` still reads as a reference to an agent.
            rows.append((features(parse(ex.message, analyzer)), label))
    return Engine(analyzer=analyzer, model=train_averaged(rows))


@functools.cache
def _lexicon() -> Lexicon:
    return Lexicon()


_engine: Engine | None = None
_engine_lock = threading.Lock()


def engine() -> Engine:
    """The process-wide engine, trained once on first use (the startup thread's or a turn's).

    The trained weights are kept in a file keyed by everything they depend on, so a restarted
    process loads them in a fraction of a second instead of training (CPU-bound, a few seconds
    during which the process serves little else).
    """
    global _engine
    if _engine is None:
        with _engine_lock:
            if _engine is None:
                _engine = _cached_engine(load_training())
    return _engine


# What the weights depend on: the training data and the code that turns text into features.
_SOURCES = (TRAINING_PATH, *sorted((Path(__file__).parent / "lexicon").glob("*.py")),
            Path(__file__).parent / "text.py", Path(__file__))  # fmt: skip


def _cache_file() -> Path | None:
    """Where the weights are kept: a directory only this user may write, else no cache."""
    root = os.environ.get("OMNIFORGE_MODEL_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), f"omniforge-{os.getuid()}"
    )
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        info = os.stat(root)
    except OSError:
        return None
    if info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None  # someone else could plant weights there
    digest = hashlib.sha256()
    for source in _SOURCES:
        digest.update(source.read_bytes())
    return Path(root) / f"intents-model-{digest.hexdigest()[:32]}.json"


def _cached_engine(examples: Sequence[TrainingExample]) -> Engine:
    path = _cache_file()
    if path is not None and path.exists():
        try:
            weights = json.loads(path.read_text(encoding="utf-8"))
            if all(isinstance(w, list) and len(w) == N_LABELS for w in weights.values()):
                return Engine(
                    analyzer=_analyzer_for(examples),
                    model=Model({f: tuple(float(x) for x in w) for f, w in weights.items()}),
                )
        except (OSError, ValueError, AttributeError, TypeError):
            pass  # unreadable or from another version: train again
    built = build_engine(examples)
    if path is not None:
        try:
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(built.model.weights), encoding="utf-8")
            os.replace(partial, path)
        except OSError:
            pass  # a read-only disk only costs the next process its training time
    return built
