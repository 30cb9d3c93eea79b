"""Conversation scenarios, written blind from the contract and the spec, run through POST chat/.

Each line of ``scenarios/dev.jsonl`` and ``scenarios/dev2.jsonl`` is one test case;
``scenarios/heldout.jsonl`` runs as a single test that only reports how many checks passed (see
``scenarios/README.md``). A scenario's turns are posted in one conversation, as the scenario's
user, and each turn's checks are asserted against the reply, the intent and the tenant's agents
and runs after the turn.

Run with ``-s`` to see per-scenario pass counts of the dev set; with ``SCENARIO_TRACE=1`` every
turn and reply of a dev scenario is printed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache

from conversations.agents.selectors import agent_name
from conversations.models import Agent, AgentRun, Tenant
from conversations.tenancy.services import tenant_create, user_add
from tests.conftest import World

pytestmark = pytest.mark.django_db

URL = "/api/v1/chat/"
SCENARIOS = Path(__file__).parent / "scenarios"
USERS = {"owner": "owner", "member": "member", "admin": "admin_a", "outsider": "outsider"}
# Filler words that do not show which numbered option a reply followed ("create", "run",
# "update" and the option's subject do).
# fmt: off
STOPWORDS = frozenset({
    "the", "and", "for", "you", "your", "our", "this", "that", "with", "from", "them", "they",
    "what", "which", "would", "could", "should", "about", "there", "their", "these", "those",
    "where", "while", "anyway", "something", "option", "options", "instead", "first", "second",
    "third", "specifically", "agent", "agents", "new", "one", "now", "can", "will", "may", "help",
    "tell", "more", "own", "words", "reply", "number", "ask",
})
# fmt: on


def load(name: str) -> list[dict[str, Any]]:
    path = SCENARIOS / name
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


# dev2.jsonl: a second round written the same way (182/226 checks when first run, 2026-11-24).
DEV = load("dev.jsonl") + load("dev2.jsonl")
# Later rounds, tuned on and not all passing yet: one counted test each, with a floor, every
# failed check printed. First runs: dev3 188/260, dev4 373/459, dev5 399/502, dev6 315/387,
# dev7 322/427 checks (305 on the fifth session's first commit, 39c7ac1), dev8 421/519 (on
# 1cba989, the sixth session's first commit).
COUNTED = (
    ("dev3.jsonl", 0.99),
    ("dev4.jsonl", 0.98),
    ("dev5.jsonl", 0.99),
    ("dev6.jsonl", 0.97),
    ("dev7.jsonl", 0.98),
    ("dev8.jsonl", 0.96),
)
# Read by its own test only (not on import): other modules reuse this runner (test_reply_lint).
HELDOUT_PATH = SCENARIOS / "heldout.jsonl"
# Frozen: the checksum the scenarios were written with (scenarios/heldout.sha256).
HELDOUT_SHA256 = (SCENARIOS / "heldout.sha256").read_text().split()[0]


@dataclass
class Check:
    scenario: str
    turn: int  # 1-based
    say: str
    name: str
    ok: bool
    detail: str = ""
    reply: str = ""
    intent: str | None = None

    def describe(self) -> str:
        return (
            f"scenario {self.scenario!r}, turn {self.turn} (user said {self.say!r}):\n"
            f"  check {self.name} FAILED: {self.detail}\n"
            f"  intent: {self.intent}\n"
            f"  reply:\n{_indent(self.reply)}"
        )


@dataclass
class Outcome:
    scenario: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(check.ok for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.ok]


def _indent(text: str) -> str:
    return "\n".join(f"    | {line}" for line in (text or "<empty>").splitlines() or [""])


def _agents(tenant: Tenant) -> list[Agent]:
    return list(Agent.objects.for_tenant(tenant).order_by("created_at", "id"))


def _is_named(agent: Agent, name: str) -> bool:
    """Whether ``agent`` is the one called ``name``: agent names are slugs ("Late Load Digest"
    is stored as late-load-digest), so a name written otherwise must also be kept as written,
    case and accents intact, in what the agent stores."""
    if agent.name == name:
        return True
    stored = json.dumps(agent.config, ensure_ascii=False) + agent.description
    return agent.name == agent_name(name) and name in stored


def _agent_text(agent: Agent) -> str:
    """What the agent stores, as checks read it: name, description, config, and whether it is
    paused (kept beside the config, in ``paused_at``)."""
    config = json.dumps(agent.config, ensure_ascii=False, sort_keys=True)
    paused = " (paused)" if agent.paused_at else ""
    return f"{agent.name} {agent.description} {config}{paused}".lower()


def _numbered_item(text: str, number: int) -> str | None:
    """The text of item ``number`` of a numbered list ("2. …", "2) …", "**2.** …")."""
    pattern = re.compile(rf"^\s*(?:[-*]\s*)?(?:\*\*)?{number}[.)](?:\*\*)?\s+(.+)$", re.MULTILINE)
    match = pattern.search(text)
    return match.group(1) if match else None


def _named_agent(text: str, names: list[str]) -> str | None:
    """The agent name that occurs first in ``text`` (the longest one at a tie)."""
    lowered = text.lower()
    found = [(lowered.find(name), -len(name), name) for name in names if name in lowered]
    return min(found)[2] if found else None


def make_world(index: int) -> World:
    """A world like the ``world`` fixture's, in a tenant of its own (one per held-out scenario)."""
    tenant_a = tenant_create(slug=f"acme-h{index}", name=f"Acme {index}")
    tenant_b = tenant_create(slug=f"globex-h{index}", name=f"Globex {index}")
    return World(
        tenant_a=tenant_a,
        tenant_b=tenant_b,
        owner=user_add(tenant=tenant_a, username=f"olivia-h{index}", password="pw-olivia-1").user,
        member=user_add(tenant=tenant_a, username=f"mark-h{index}", password="pw-mark-1").user,
        outsider=user_add(tenant=tenant_b, username=f"oscar-h{index}", password="pw-oscar-1").user,
        admin_a=user_add(
            tenant=tenant_a, username=f"ada-h{index}", password="pw-ada-1", admin=True
        ).user,
    )


class Run:
    """One scenario played through POST chat/, recording every check."""

    def __init__(self, world: World, scenario: dict[str, Any]) -> None:
        self.world = world
        self.scenario = scenario
        self.sid: str = scenario["id"]
        self.user = getattr(world, USERS[scenario.get("user", "owner")])
        self.tenant = world.tenant_a
        self.client = world.client(self.user)
        self.conversation_id: str | None = None
        self.replies: list[str] = []
        self.outcome = Outcome(self.sid)

    def play(self) -> Outcome:
        if "LocMemCache" in settings.CACHES["default"]["BACKEND"]:
            # Throttles and caches start empty for every scenario. (A shared Redis is never
            # flushed: other test processes use it; their keys carry a prefix of their own.)
            cache.clear()
        for spec in self.scenario.get("agents", []):
            # Stored as the assistant stores a name it is given ("call it Invoice Chaser"):
            # the slug invoice-chaser, and the name as written in the agent's details.
            config = dict(spec.get("config", {}))
            if agent_name(spec["name"]) != spec["name"]:
                config.setdefault("details", f"Called \u201c{spec['name']}\u201d")
            Agent.objects.create(
                tenant=self.tenant,
                name=agent_name(spec["name"]),
                description=spec.get("description", ""),
                config=config,
                created_by=self.user,
            )
        previous_id = previous_say = ""
        for index, turn in enumerate(self.scenario["turns"], start=1):
            if turn.get("resend"):
                client_message_id, say = previous_id, turn.get("say", previous_say)
            else:
                client_message_id, say = f"{self.sid[:48]}-{index}", turn["say"]
            self.turn(index, turn, say, client_message_id)
            previous_id, previous_say = client_message_id, say
        return self.outcome

    def turn(self, index: int, turn: dict[str, Any], say: str, client_message_id: str) -> None:
        body: dict[str, Any] = {"message": say, "client_message_id": client_message_id}
        if self.conversation_id:
            body["conversation_id"] = self.conversation_id
        response = self.client.post(URL, body, format="json")
        checks = list(self.checks_of(turn))
        if response.status_code != 200:
            detail = f"HTTP {response.status_code}: {response.content[:500]!r}"
            for name, _ in checks:
                self.record(index, say, name, False, detail, "", None)
            self.replies.append("")
            return
        data = response.json()
        self.conversation_id = data["conversation_id"]
        reply = str((data.get("assistant_message") or {}).get("content") or "")
        intent = (data.get("intent") or {}).get("action_type")
        for name, check in checks:
            ok, detail = check(reply, intent)
            self.record(index, say, name, ok, detail, reply, intent)
        if os.environ.get("SCENARIO_TRACE"):
            print(f"\n[{self.sid} {index}] {say}\n  -> ({intent}) {reply}")
        self.replies.append(reply)

    def record(self, *args: Any) -> None:
        self.outcome.checks.append(Check(self.sid, *args))

    # -- the checks of one turn, in the order they are asserted ------------------------------

    def checks_of(self, turn: dict[str, Any]) -> Iterator[tuple[str, Any]]:
        if "intent" in turn:
            yield f"intent == {turn['intent']!r}", self._intent(turn["intent"])
        for text in turn.get("reply_contains", []):
            yield f"reply_contains {text!r}", self._contains(text)
        for group in turn.get("reply_contains_any", []):
            yield f"reply_contains_any {group!r}", self._contains_any(group)
        for text in turn.get("reply_not_contains", []):
            yield f"reply_not_contains {text!r}", self._not_contains(text)
        if turn.get("reply_same_as_previous"):
            yield "reply_same_as_previous", self._same_as_previous
        if turn.get("reply_names_agent"):
            yield "reply_names_agent (the latest agent's name)", self._names_latest_agent
        if "reply_contains_listed_item" in turn:
            number = turn["reply_contains_listed_item"]
            yield f"reply_contains_listed_item {number}", self._listed_item(number)
        if "picks_option" in turn:
            yield f"picks_option {turn['picks_option']}", self._picks_option(turn["picks_option"])
        if "agents_after" in turn:
            yield (
                f"agents_after == {turn['agents_after']!r}",
                self._agents_after(turn["agents_after"]),
            )
        if "runs_after" in turn:
            yield f"runs_after == {turn['runs_after']!r}", self._runs_after(turn["runs_after"])
        expected = turn.get("agent")
        if expected is not None:
            which = expected.get("name")
            label = f"agent[{which}]" if which else "agent[latest]"
            if which:
                yield f"{label} exists", self._agent_check(which, lambda text, agent: (True, ""))
            for text in expected.get("mentions", []):
                yield f"{label} mentions {text!r}", self._agent_check(which, _mentions(text))
            for group in expected.get("mentions_any", []):
                yield (
                    f"{label} mentions_any {group!r}",
                    self._agent_check(which, _mentions_any(group)),
                )
            for text in expected.get("not_mentions", []):
                yield (
                    f"{label} not_mentions {text!r}",
                    self._agent_check(which, _not_mentions(text)),
                )
            for key, value in expected.get("config", {}).items():
                yield (
                    f"{label} config[{key!r}] contains {value!r}",
                    self._agent_check(which, _config_has(key, value)),
                )

    def _intent(self, expected: str) -> Any:
        return lambda reply, intent: (intent == expected, f"expected {expected!r}, got {intent!r}")

    def _contains(self, text: str) -> Any:
        return lambda reply, intent: (text.lower() in reply.lower(), f"{text!r} not in the reply")

    def _contains_any(self, group: list[str]) -> Any:
        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            lowered = reply.lower()
            return any(text.lower() in lowered for text in group), f"none of {group!r} in the reply"

        return check

    def _not_contains(self, text: str) -> Any:
        return lambda reply, intent: (
            text.lower() not in reply.lower(),
            f"{text!r} is in the reply",
        )

    def _same_as_previous(self, reply: str, intent: str | None) -> tuple[bool, str]:
        previous = self.replies[-1] if self.replies else ""
        return reply.strip() == previous.strip(), f"the first answer was:\n{_indent(previous)}"

    def _names_latest_agent(self, reply: str, intent: str | None) -> tuple[bool, str]:
        agents = _agents(self.tenant)
        if not agents:
            return False, "no agent exists"
        name = agents[-1].name
        return name.lower() in reply.lower(), f"the latest agent {name!r} is not named"

    def _listed_item(self, number: int) -> Any:
        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            names = [agent.name.lower() for agent in _agents(self.tenant)]
            for earlier in reversed(self.replies):
                item = _numbered_item(earlier, number)
                if item is None:
                    continue
                name = _named_agent(item, names)
                if name is None:
                    return False, f"item {number} of the last list names no agent: {item!r}"
                return name in reply.lower(), f"item {number} was {name!r}, not named in the reply"
            return False, f"no earlier reply has a numbered item {number}"

        return check

    def _picks_option(self, number: int) -> Any:
        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            previous = self.replies[-1] if self.replies else ""
            item = _numbered_item(previous, number)
            if item is None:
                return False, f"the previous reply has no option {number}"
            if reply.strip() == previous.strip():
                return False, "the reply repeats the options instead of taking one"
            name = _named_agent(item, [agent.name.lower() for agent in _agents(self.tenant)])
            if name is not None:
                return name in reply.lower(), f"option {number} ({item!r}) names {name!r}"
            words = set(re.findall(r"[a-z]{3,}", item.lower())) - STOPWORDS
            shared = sorted(word for word in words if word in reply.lower())
            return bool(shared), f"the reply shares no word with option {number}: {item!r}"

        return check

    def _agents_after(self, expected: int | list[int]) -> Any:
        allowed = expected if isinstance(expected, list) else [expected]

        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            agents = _agents(self.tenant)
            listed = ", ".join(f"{a.name} {a.config}" for a in agents) or "none"
            return len(agents) in allowed, f"expected {expected}, found {len(agents)}: {listed}"

        return check

    def _runs_after(self, expected: int) -> Any:
        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            runs = list(AgentRun.objects.for_tenant(self.tenant).select_related("agent"))
            listed = ", ".join(run.agent.name for run in runs) or "none"
            return len(runs) == expected, f"expected {expected}, found {len(runs)}: {listed}"

        return check

    def _agent_check(self, name: str | None, test: Any) -> Any:
        def check(reply: str, intent: str | None) -> tuple[bool, str]:
            agents = _agents(self.tenant)
            if name is not None:
                agents = [agent for agent in agents if _is_named(agent, name)]
            if not agents:
                return False, f"no agent {name!r}" if name else "no agent exists"
            agent = agents[-1]
            ok, detail = test(_agent_text(agent), agent)
            return ok, f"{detail}; agent: {_agent_text(agent)}"

        return check


def _mentions(text: str) -> Any:
    return lambda agent_text, agent: (text.lower() in agent_text, f"{text!r} not mentioned")


def _mentions_any(group: list[str]) -> Any:
    return lambda agent_text, agent: (
        any(text.lower() in agent_text for text in group),
        f"none of {group!r} mentioned",
    )


def _not_mentions(text: str) -> Any:
    return lambda agent_text, agent: (text.lower() not in agent_text, f"{text!r} mentioned")


def _config_has(key: str, value: str) -> Any:
    def check(agent_text: str, agent: Agent) -> tuple[bool, str]:
        stored = agent.config.get(key) if isinstance(agent.config, dict) else None
        found = stored is not None and value.lower() in json.dumps(stored).lower()
        return found, f"config[{key!r}] is {stored!r}"

    return check


# -- dev: one case per scenario, failing on its first failed check --------------------------

_DEV_OUTCOMES: dict[str, Outcome] = {}


def dev_report(outcomes: dict[str, Outcome]) -> str:
    """Per-scenario pass counts of the dev scenarios that ran (printed with ``-s``)."""
    lines = ["", "dev scenarios (passed/total checks):"]
    for sid, outcome in outcomes.items():
        status = "ok  " if not outcome.failures else "FAIL"
        lines.append(f"  {status} {outcome.passed:3d}/{len(outcome.checks):<3d} {sid}")
    passed = sum(outcome.passed for outcome in outcomes.values())
    total = sum(len(outcome.checks) for outcome in outcomes.values())
    whole = sum(not outcome.failures for outcome in outcomes.values())
    lines.append(f"dev: {whole}/{len(outcomes)} scenarios, {passed}/{total} checks")
    return "\n".join(lines)


@pytest.fixture(scope="module", autouse=True)
def _print_dev_report() -> Iterator[None]:
    yield
    if _DEV_OUTCOMES:
        print(dev_report(_DEV_OUTCOMES))


@pytest.mark.parametrize("scenario", DEV, ids=[scenario["id"] for scenario in DEV])
def test_dev_scenario(world: World, scenario: dict[str, Any]) -> None:
    outcome = Run(world, scenario).play()
    _DEV_OUTCOMES[scenario["id"]] = outcome
    if outcome.failures:
        first, *others = outcome.failures
        also = "".join(f"\n  - turn {c.turn}: {c.name}: {c.detail}" for c in others)
        pytest.fail(
            f"{first.describe()}\n"
            f"{outcome.passed}/{len(outcome.checks)} checks passed"
            + (f"; later failures:{also}" if others else ""),
            pytrace=False,
        )


@pytest.mark.parametrize(("name", "floor"), COUNTED, ids=[name for name, _ in COUNTED])
def test_counted_scenarios(world: World, name: str, floor: float) -> None:
    """A dev round held to a floor as a whole, printing every failed check."""
    passed = total = 0
    failures: list[str] = []
    for index, scenario in enumerate(load(name)):
        outcome = Run(world if index == 0 else make_world(2000 + index), scenario).play()
        passed += outcome.passed
        total += len(outcome.checks)
        failures += [" ".join(f.describe().splitlines()[:2]) for f in outcome.failures]
    print(f"\n{name}: {passed}/{total} checks" + "".join(f"\n  {f}" for f in failures))
    assert passed / total >= floor, f"{name}: {passed}/{total} checks"


# -- held-out: one case for all, reporting only the pass count ------------------------------


def test_heldout_scenarios(world: World) -> None:
    """Frozen scenarios never tuned on: only the total is reported, never which checks failed."""
    passed = total = 0
    for index, scenario in enumerate(load(HELDOUT_PATH.name)):
        outcome = Run(world if index == 0 else make_world(index), scenario).play()
        passed += outcome.passed
        total += len(outcome.checks)
    print(f"\nheld-out scenarios: {passed}/{total} checks")
    # The floor sits under the score recorded in docs/BENCHMARKS.md (202/206 at the end of the
    # fourth session; 191 and 170 before), set from the total alone; an environment may raise it.
    floor = float(os.environ.get("OMNIFORGE_HELDOUT_FLOOR", "0.95"))
    assert total > 0
    assert hashlib.sha256(HELDOUT_PATH.read_bytes()).hexdigest() == HELDOUT_SHA256
    assert passed / total >= floor, f"held-out scenarios: {passed}/{total} checks, floor {floor}"
