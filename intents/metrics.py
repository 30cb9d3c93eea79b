"""Prometheus metrics of the intent service (served at /metrics)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

CLASSIFICATION_SECONDS = Histogram(
    "omniforge_intent_classification_seconds",
    "Time to classify one message, by the method that produced the result.",
    ["method"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
)
CLASSIFICATIONS = Counter(
    "omniforge_intent_classifications_total",
    "Messages classified, by method and action type.",
    ["method", "action_type"],
)
FALLBACKS = Counter(
    "omniforge_intent_fallbacks_total",
    "Classifications the LLM tier handed to the offline tier, by reason.",
    ["reason"],
)
