"""The trained weights are kept on disk so a restarted process does not train again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from intents.offline import model

SENTENCE = ["w:run", "w:notion"]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("OMNIFORGE_MODEL_CACHE_DIR", str(directory))
    return directory


def test_a_second_process_loads_the_same_weights_instead_of_training(cache_dir: Path) -> None:
    examples = model.load_training()
    first = model._cached_engine(examples)
    (stored,) = cache_dir.glob("intents-model-*.json")
    assert oct(cache_dir.stat().st_mode & 0o777) == "0o700"

    loaded = model._cached_engine(examples)  # what a restarted process does
    assert loaded.model.weights == first.model.weights
    assert loaded.model.logits(SENTENCE) == first.model.logits(SENTENCE)
    assert stored.exists()


def test_an_unreadable_cache_file_is_trained_over(cache_dir: Path) -> None:
    examples = model.load_training()
    path = model._cache_file()
    assert path is not None
    path.write_text("{not json", encoding="utf-8")
    built = model._cached_engine(examples)
    assert built.model.weights  # trained again
    assert path.read_text(encoding="utf-8").startswith("{")  # and stored again


def test_a_directory_others_may_write_is_not_used(cache_dir: Path) -> None:
    cache_dir.mkdir(mode=0o700)
    os.chmod(cache_dir, 0o777)  # noqa: S103 - the unsafe directory under test
    assert model._cache_file() is None
