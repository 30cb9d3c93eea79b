"""Count the regular-expression patterns written in the project (target: at most 80).

Run ``python bench/regex_count.py`` (``--by-file`` for every file, ``--json`` for a machine-
readable object) or ``make regex-count``; ``count_patterns()`` returns the same figures, and
``tests/test_language_budget.py`` holds them to a ceiling that only goes down.

Scanned: every ``.py`` file of the project except ``tests/``, ``bench/``, ``migrations/`` and
hidden directories (``.venv``), read with ``ast`` (nothing is imported or run). What counts,
once per place a pattern is written (one written once and used three times counts once, where
it is written):

- A call to ``re.compile/search/match/fullmatch/sub/subn/split/findall/finditer`` (also through
  ``import re as x``, ``from re import compile [as c]`` and the ``regex`` module) whose pattern
  (the first argument, or ``pattern=``) is written in the code:

  - a string literal (adjacent literals are one), an f-string, a concatenation or ``%`` of
    strings, or a ``"sep".join(...)``/``.format(...)`` call: one pattern, even when it is built
    from other patterns (``f"{_A_RE.pattern}|..."`` is a new pattern; the pieces, unless they are
    passed to ``re`` themselves, are not counted apart);
  - a name bound to one of those: a module-level constant (``X = r"..."``), a constant
    imported from another project module, or a local assignment in the enclosing function;
    counted where the string is written;
  - ``_A_RE.pattern``: the pattern ``_A_RE`` was compiled from (counted once);
  - a loop variable (``re.compile(p) for p in (r"...", r"...")``, ``for name, pattern in
    ((..., r"..."), ...)``, the same over a module-level or imported tuple, list or dict, or its
    ``.items()``/``.values()``/``.keys()``): one pattern per element (per row of a tuple of
    tuples, per entry of a dict).

- The same through a helper: a project function that hands one of its parameters to ``re``
  as the pattern makes its own calls pattern sites (the argument in that position counts).
- Patterns Django and DRF compile: ``RegexValidator(...)``, ``*RegexField(...)``,
  ``re_path(...)``, a path converter's ``regex = "..."`` class attribute, and a ``"pattern"``
  key of a dict literal (a JSON-schema pattern the OpenAPI document states).

An empty pattern (``""``) matches everything and reads nothing: not counted. A pattern that
is not written in the code (a parameter nobody calls with a literal, a value read from a
schema at run time) is not counted; the report lists them under "not counted".

Data files: the ``.json``, ``.jsonl``, ``.yaml``/``.yml`` and ``.txt`` files under
``conversations/``, ``intents/``, ``skill_sessions/`` and ``config/``. In JSON, JSON Lines
(lines starting with ``//`` are comments) and YAML, a pattern is a string (or each string of a
list) under a key named ``pattern``, ``patterns``, ``regex``, ``regexes``, ``regexp`` or
ending in ``_pattern``, ``_patterns``, ``_regex`` or ``_re``; a ``.txt`` file holds patterns
only when its name says so (``*pattern*``/``*regex*``), one per non-blank line not starting
with ``#``. The frozen evaluation sets (``eval_blind*``, ``heldout*``, ``blind22*``) are never
opened. The chat page's JavaScript is not Python and is not counted.

The same reading says which files use ``re``: an ``import re``/``regex`` (or ``from re
import ...``), or a name imported from a project module that is a compiled pattern (or a
collection of them) or a helper as above (``policy_importing_re()``).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
TARGET = 80
EXCLUDED_DIRS = frozenset({"tests", "bench", "migrations", "node_modules", "__pycache__"})
DATA_ROOTS = ("conversations", "intents", "skill_sessions", "config")
DATA_SUFFIXES = frozenset({".json", ".jsonl", ".yaml", ".yml", ".txt"})
FROZEN = ("eval_blind*", "heldout*", "blind22*")  # frozen evaluation sets: never opened
PATTERN_KEYS = frozenset({"pattern", "patterns", "regex", "regexes", "regexp"})
PATTERN_KEY_ENDINGS = ("_pattern", "_patterns", "_regex", "_re")
REGEX_MODULES = frozenset({"re", "regex"})
REGEX_FUNCTIONS = frozenset(
    {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}
)
# The policy: what decides a turn, which must read text through the reader, not with re.
POLICY_GLOBS = ("conversations/assistant/*.py", "skill_sessions/flow.py")

Origin = tuple[str, int, int]  # file, line, column where a pattern is written


@dataclass
class Counts:
    total: int
    by_package: dict[str, int]
    by_file: dict[str, int]
    by_kind: dict[str, int]
    not_counted: list[str]
    # Every scanned file that uses re, with how (see the module docstring).
    importing_re: dict[str, list[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "target": TARGET,
            "by_package": self.by_package,
            "by_kind": self.by_kind,
            "by_file": self.by_file,
            "not_counted": self.not_counted,
            "policy_importing_re": policy_importing_re(self),
        }


@dataclass
class _Module:
    name: str
    path: str
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]
    constants: dict[str, ast.expr]  # module-level NAME = value
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    imports: dict[str, tuple[str, str]]  # local name -> (module, name); name "" for a module
    regex_modules: set[str]  # local names of re / regex
    regex_functions: dict[str, str]  # local name -> re function


# A binding of a name: the expression it is bound to, a loop over an iterable, or a parameter.
@dataclass(frozen=True)
class _Value:
    expr: ast.expr
    module: _Module


@dataclass(frozen=True)
class _Loop:
    iterable: ast.expr
    module: _Module


@dataclass(frozen=True)
class _Param:
    module: _Module
    function: str
    index: int  # position among the function's positional parameters (-1: keyword-only)
    name: str


_Binding = _Value | _Loop | _Param


def _module_name(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _targets(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _targets(element)
    elif isinstance(target, ast.Starred):
        yield from _targets(target.value)


def _read_module(path: str, source: str) -> _Module:
    tree = ast.parse(source, filename=path)
    name = _module_name(path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    module = _Module(name, path, tree, parents, {}, {}, {}, set(), {})
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.value is not None:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    module.constants[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if isinstance(node.target, ast.Name):
                module.constants[node.target.id] = node.value
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions[node.name] = node
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in REGEX_MODULES:
                    module.regex_modules.add(alias.asname or alias.name)
                elif alias.asname:
                    module.imports[alias.asname] = (alias.name, "")
        elif isinstance(node, ast.ImportFrom):
            source_module = node.module or ""
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                source_module = ".".join([*base, *([source_module] if source_module else [])])
            for alias in node.names:
                local = alias.asname or alias.name
                if source_module in REGEX_MODULES:
                    if alias.name in REGEX_FUNCTIONS:
                        module.regex_functions[local] = alias.name
                else:
                    module.imports[local] = (source_module, alias.name)
    return module


class _Project:
    def __init__(self, sources: Mapping[str, str]) -> None:
        self.modules = {m.name: m for m in (_read_module(p, s) for p, s in sources.items())}
        self.origins: dict[Origin, str] = {}  # where a pattern is written -> its kind
        self.not_counted: list[str] = []
        # (module, function) -> (positional index, parameter name) handing a pattern to re
        self.helpers: dict[tuple[str, str], tuple[int, str]] = {}

    # --- names ---------------------------------------------------------------------------

    def _imported(self, module: _Module, name: str) -> tuple[_Module | None, str]:
        """The project module a name comes from and its name there (a module: name "")."""
        source, original = module.imports.get(name, ("", ""))
        if not source:
            return None, ""
        if original and f"{source}.{original}" in self.modules:
            return self.modules[f"{source}.{original}"], ""
        return self.modules.get(source), original

    def _global(self, module: _Module, name: str, depth: int = 0) -> _Binding | None:
        if name in module.constants:
            return _Value(module.constants[name], module)
        target, original = self._imported(module, name)
        if target is not None and original and depth < 5:
            return self._global(target, original, depth + 1)
        return None

    def _bind(self, name: str, node: ast.AST, module: _Module) -> _Binding | None:
        """What ``name`` means where ``node`` is: a loop, a parameter, a local or a global."""
        child: ast.AST = node
        scope = module.parents.get(node)
        while scope is not None:
            if isinstance(scope, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
                for generator in scope.generators:
                    if name in _targets(generator.target) and child is not generator:
                        return _Loop(generator.iter, module)
            elif isinstance(scope, ast.For | ast.AsyncFor):
                if child is not scope.iter and name in _targets(scope.target):
                    return _Loop(scope.iter, module)
            elif isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                arguments = scope.args
                positional = [*arguments.posonlyargs, *arguments.args]
                for index, argument in enumerate(positional):
                    if argument.arg == name:
                        function = getattr(scope, "name", "<lambda>")
                        return _Param(module, function, index, name)
                if any(argument.arg == name for argument in arguments.kwonlyargs):
                    return _Param(module, getattr(scope, "name", "<lambda>"), -1, name)
                if not isinstance(scope, ast.Lambda):
                    assigned = [
                        statement.value
                        for statement in ast.walk(scope)
                        if isinstance(statement, ast.Assign | ast.AnnAssign)
                        and statement.value is not None
                        and any(
                            name in _targets(target)
                            for target in (
                                statement.targets
                                if isinstance(statement, ast.Assign)
                                else [statement.target]
                            )
                        )
                    ]
                    if assigned:
                        return _Value(assigned[-1], module)
            child, scope = scope, module.parents.get(scope)
        return self._global(module, name)

    # --- patterns ------------------------------------------------------------------------

    def _written(self, expr: ast.expr, module: _Module, depth: int = 0) -> list[Origin] | None:
        """Where the pattern ``expr`` evaluates to is written; None when it is not in the code."""
        here = (module.path, expr.lineno, expr.col_offset)
        if depth > 8:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str | bytes):
            return [here] if expr.value else []
        if isinstance(expr, ast.JoinedStr):
            return [here]
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add | ast.Mod):
            return [here]
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and (
                expr.func.attr == "format"
                or (
                    expr.func.attr == "join"
                    and isinstance(expr.func.value, ast.Constant)
                    and isinstance(expr.func.value.value, str)
                )
            )
        ):
            return [here]
        if isinstance(expr, ast.Attribute) and expr.attr == "pattern":
            compiled = self._value_of(expr.value, module)
            if compiled is not None and isinstance(compiled.expr, ast.Call):
                pattern = self._regex_call_pattern(compiled.expr, compiled.module)
                if pattern is not None:
                    return self._written(pattern, compiled.module, depth + 1)
            return None
        if isinstance(expr, ast.Name):
            binding = self._bind(expr.id, expr, module)
            if isinstance(binding, _Value):
                return self._written(binding.expr, binding.module, depth + 1)
            if isinstance(binding, _Loop):
                return self._elements(binding.iterable, binding.module, depth + 1)
        return None

    def _value_of(self, expr: ast.expr, module: _Module) -> _Value | None:
        if isinstance(expr, ast.Name):
            binding = self._bind(expr.id, expr, module)
            return binding if isinstance(binding, _Value) else None
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            target, original = self._imported(module, expr.value.id)
            if target is not None and not original and expr.attr in target.constants:
                return _Value(target.constants[expr.attr], target)
        return None

    def _elements(self, iterable: ast.expr, module: _Module, depth: int) -> list[Origin] | None:
        """One origin per element a loop takes from ``iterable``, when it is written out."""
        if depth > 8:
            return None
        if isinstance(iterable, ast.Tuple | ast.List | ast.Set):
            origins: list[Origin] = []
            for element in iterable.elts:
                if isinstance(element, ast.Starred):
                    inner = self._elements(element.value, module, depth + 1)
                    if inner is None:
                        return None
                    origins.extend(inner)
                else:
                    origins.append((module.path, element.lineno, element.col_offset))
            return origins
        if isinstance(iterable, ast.Dict):
            return [
                (module.path, key.lineno, key.col_offset)
                for key in iterable.keys
                if key is not None
            ]
        if isinstance(iterable, ast.Call):
            function = iterable.func
            if (
                isinstance(function, ast.Attribute)
                and function.attr in ("items", "values", "keys")
                and not iterable.args
            ):
                return self._elements(function.value, module, depth + 1)
            if (
                isinstance(function, ast.Name)
                and function.id in ("sorted", "tuple", "list", "reversed", "enumerate", "set")
                and iterable.args
            ):
                return self._elements(iterable.args[0], module, depth + 1)
            return None
        value = self._value_of(iterable, module)
        if value is not None:
            return self._elements(value.expr, value.module, depth + 1)
        return None

    # --- where patterns are handed over --------------------------------------------------

    def _is_regex_call(self, call: ast.Call, module: _Module) -> bool:
        function = call.func
        if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            return function.value.id in module.regex_modules and function.attr in REGEX_FUNCTIONS
        return isinstance(function, ast.Name) and function.id in module.regex_functions

    @staticmethod
    def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
        if 0 <= index < len(call.args) and not isinstance(call.args[index], ast.Starred):
            return call.args[index]
        return next((k.value for k in call.keywords if k.arg == keyword), None)

    def _regex_call_pattern(self, call: ast.Call, module: _Module) -> ast.expr | None:
        return self._argument(call, 0, "pattern") if self._is_regex_call(call, module) else None

    def _helper(self, call: ast.Call, module: _Module) -> tuple[int, str] | None:
        function = call.func
        if isinstance(function, ast.Name):
            if (module.name, function.id) in self.helpers:
                return self.helpers[(module.name, function.id)]
            target, original = self._imported(module, function.id)
            if target is not None and original:
                return self.helpers.get((target.name, original))
        elif isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            target, original = self._imported(module, function.value.id)
            if target is not None and not original:
                return self.helpers.get((target.name, function.attr))
        return None

    def _sinks(self, module: _Module) -> Iterator[tuple[str, ast.expr, ast.AST]]:
        """(kind, pattern expression, node) for every place a pattern is handed to a compiler."""
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call):
                function = node.func
                called = (
                    function.id
                    if isinstance(function, ast.Name)
                    else function.attr
                    if isinstance(function, ast.Attribute)
                    else ""
                )
                pattern: ast.expr | None = None
                kind = "re"
                if self._is_regex_call(node, module):
                    pattern = self._argument(node, 0, "pattern")
                elif (helper := self._helper(node, module)) is not None:
                    pattern = self._argument(node, *helper)
                elif called == "RegexValidator" or called.endswith("RegexField"):
                    pattern, kind = self._argument(node, 0, "regex"), "django"
                elif called == "re_path":
                    pattern, kind = self._argument(node, 0, "route"), "django"
                if pattern is not None:
                    yield kind, pattern, node
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "pattern":
                        yield "schema", value, node
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if (
                        isinstance(statement, ast.Assign)
                        and any(
                            isinstance(t, ast.Name) and t.id == "regex" for t in statement.targets
                        )
                        and isinstance(statement.value, ast.Constant)
                    ):
                        yield "django", statement.value, statement

    def _find_helpers(self) -> None:
        """Functions that hand a parameter to re as the pattern (repeated: helpers of helpers)."""
        for _ in range(4):
            before = len(self.helpers)
            for module in self.modules.values():
                for _kind, pattern, _node in self._sinks(module):
                    if not isinstance(pattern, ast.Name):
                        continue
                    binding = self._bind(pattern.id, pattern, module)
                    if (
                        isinstance(binding, _Param)
                        and binding.function in module.functions
                        and binding.index >= 0
                    ):
                        key = (module.name, binding.function)
                        self.helpers[key] = (binding.index, binding.name)
            if len(self.helpers) == before:
                return

    def count(self) -> None:
        self._find_helpers()
        for module in sorted(self.modules.values(), key=lambda m: m.path):
            for kind, pattern, node in self._sinks(module):
                origins = self._written(pattern, module)
                if origins is None:
                    if isinstance(pattern, ast.Name):
                        binding = self._bind(pattern.id, pattern, module)
                        if (
                            isinstance(binding, _Param)
                            and (module.name, binding.function) in self.helpers
                        ):
                            continue  # a helper's parameter: its callers are counted
                    line = getattr(node, "lineno", pattern.lineno)
                    self.not_counted.append(f"{module.path}:{line} {ast.unparse(pattern)}")
                    continue
                for origin in origins:
                    self.origins.setdefault(origin, kind)

    # --- which files use re --------------------------------------------------------------

    def _is_compiled(self, expr: ast.expr, module: _Module) -> bool:
        """A compiled pattern, or a collection whose elements are (built with a re call)."""
        return any(
            isinstance(node, ast.Call) and self._is_regex_call(node, module)
            for node in ast.walk(expr)
        )

    def _uses_re(self, module: _Module, name: str) -> bool:
        if (module.name, name) in self.helpers:
            return True
        value = module.constants.get(name)
        if value is not None:
            return self._is_compiled(value, module)
        target, original = self._imported(module, name)
        return target is not None and bool(original) and self._uses_re(target, original)

    def importing_re(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for module in self.modules.values():
            how: list[str] = []
            for node in ast.walk(module.tree):
                if isinstance(node, ast.Import):
                    how += [f"import {a.name}" for a in node.names if a.name in REGEX_MODULES]
                elif isinstance(node, ast.ImportFrom):
                    if node.module in REGEX_MODULES and not node.level:
                        how.append(f"from {node.module} import ...")
                        continue
                    for alias in node.names:
                        target, original = self._imported(module, alias.asname or alias.name)
                        if target is not None and original and self._uses_re(target, original):
                            how.append(f"{alias.name} from {target.name} (uses re)")
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    target, original = self._imported(module, node.value.id)
                    if target is not None and not original and self._uses_re(target, node.attr):
                        how.append(f"{node.value.id}.{node.attr} (uses re)")
            if how:
                found[module.path] = sorted(set(how))
        return found


# --- files ----------------------------------------------------------------------------------


def _frozen(name: str) -> bool:
    return any(fnmatch(name, pattern) for pattern in FROZEN)


def project_files(root: Path = ROOT, suffixes: Iterable[str] = (".py",)) -> list[str]:
    """The project's files (paths relative to ``root``, with ``/``), as this module scans them."""
    wanted = tuple(suffixes)
    found: list[str] = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in EXCLUDED_DIRS)
        relative = Path(directory).relative_to(root)
        found += [(relative / f).as_posix() for f in sorted(files) if f.endswith(wanted)]
    return found


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _patterns_in_data(value: Any) -> int:
    if isinstance(value, dict):
        count = 0
        for key, item in value.items():
            named = str(key).lower()
            if named in PATTERN_KEYS or named.endswith(PATTERN_KEY_ENDINGS):
                count += sum(1 for s in _strings(item) if s)
            else:
                count += _patterns_in_data(item)
        return count
    if isinstance(value, list):
        return sum(_patterns_in_data(item) for item in value)
    return 0


def data_patterns(path: Path, text: str) -> int:
    """The patterns one data file holds (see the module docstring for how they are found)."""
    if path.suffix == ".txt":
        if "pattern" not in path.name and "regex" not in path.name:
            return 0
        return sum(1 for line in text.splitlines() if line.strip() and not line.startswith("#"))
    if path.suffix == ".jsonl":
        documents: list[Any] = []
        for line in text.splitlines():
            if line.strip() and not line.lstrip().startswith("//"):
                try:
                    documents.append(json.loads(line))
                except ValueError:
                    continue
        return _patterns_in_data(documents)
    if path.suffix == ".json":
        try:
            return _patterns_in_data(json.loads(text))
        except ValueError:
            return 0
    try:
        return _patterns_in_data(yaml.safe_load(text))
    except yaml.YAMLError:
        return 0


def _package(path: str) -> str:
    return path.split("/", 1)[0]


def scan(sources: Mapping[str, str], data: Mapping[str, int] | None = None) -> Counts:
    """The counts for ``sources`` ({relative path: Python source}) and data-file counts."""
    project = _Project(sources)
    project.count()
    by_file: Counter[str] = Counter(path for path, _line, _column in project.origins)
    by_kind: Counter[str] = Counter(project.origins.values())
    for path, count in (data or {}).items():
        if count:
            by_file[path] += count
            by_kind["data"] += count
    by_package: Counter[str] = Counter()
    for path, count in by_file.items():
        by_package[_package(path)] += count
    return Counts(
        total=sum(by_file.values()),
        by_package=dict(by_package.most_common()),
        by_file=dict(sorted(by_file.items(), key=lambda item: (-item[1], item[0]))),
        by_kind=dict(by_kind.most_common()),
        not_counted=project.not_counted,
        importing_re=project.importing_re(),
    )


def count_patterns(root: Path = ROOT) -> Counts:
    """Every pattern written in the project's code and data files under ``root``."""
    sources = {path: (root / path).read_text(encoding="utf-8") for path in project_files(root)}
    data: dict[str, int] = {}
    for top in DATA_ROOTS:
        if not (root / top).is_dir():
            continue
        for path in project_files(root / top, DATA_SUFFIXES):
            file = root / top / path
            if _frozen(file.name):
                continue  # frozen evaluation sets are not read
            data[f"{top}/{path}"] = data_patterns(file, file.read_text(encoding="utf-8"))
    return scan(sources, data)


def policy_files(root: Path = ROOT) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for g in POLICY_GLOBS for p in root.glob(g))


def policy_importing_re(counts: Counts, root: Path = ROOT) -> dict[str, list[str]]:
    """The policy modules that use re, with how."""
    return {p: counts.importing_re[p] for p in policy_files(root) if p in counts.importing_re}


def _report(counts: Counts, by_file: bool) -> Iterator[str]:
    yield f"Regular-expression patterns in the project: {counts.total} (target: at most {TARGET})"
    yield "by package:"
    for package, count in counts.by_package.items():
        yield f"  {package:<28}{count:>5}"
    yield "by kind: " + ", ".join(f"{kind} {count}" for kind, count in counts.by_kind.items())
    if by_file:
        yield "by file:"
        for path, count in counts.by_file.items():
            yield f"  {path:<52}{count:>5}"
    policy = policy_importing_re(counts)
    yield f"policy modules that still use re: {len(policy)} of {len(policy_files())}"
    for path in policy:
        yield f"  {path}"
    if counts.not_counted:
        yield "not counted (the pattern is not written in the code):"
        for place in counts.not_counted:
            yield f"  {place}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--by-file", action="store_true", help="also the count of every file")
    arguments = parser.parse_args(argv)
    counts = count_patterns()
    if arguments.json:
        print(json.dumps(counts.as_json(), indent=2))
    else:
        print("\n".join(_report(counts, arguments.by_file)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
