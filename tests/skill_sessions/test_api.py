"""``skill-sessions/`` and ``skills/`` over HTTP: shapes, who sees what, bad input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from skill_sessions.models import Skill, SkillCreationSession
from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/skill-sessions/"
SKILLS = "/api/v1/skills/"


DATES = "Create a skill that turns messy dates into ISO 8601"


def start(client: APIClient, message: str = DATES) -> dict[str, Any]:
    response = client.post(URL, {"message": message}, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def say(client: APIClient, session_id: str, message: str) -> Any:
    return client.post(f"{URL}{session_id}/messages/", {"message": message}, format="json")


def test_a_session_runs_from_start_to_a_skill(world: World) -> None:
    client = world.client(world.owner)
    turn = start(client)
    assert set(turn) == {"session_id", "reply", "state", "status", "skill_name"}
    assert (turn["state"], turn["status"]) == ("gathering_details", "active")
    sid = turn["session_id"]
    for message in ("free-form dates like 3rd of March", "input: 3rd of March -> output: 03-03"):
        assert say(client, sid, message).status_code == 200
    done = say(client, sid, "yes").json()
    assert (done["state"], done["status"], done["skill_name"]) == (
        "completed", "completed", "dates-converter",
    )  # fmt: skip
    skills = client.get(SKILLS).json()["results"]
    assert [s["name"] for s in skills] == ["dates-converter"]
    assert skills[0]["definition"]["outputs"][0]["description"] == "ISO 8601"
    detail = client.get(f"{URL}{sid}/").json()
    assert detail["status"] == "completed" and len(detail["history"]) == 8
    listed = client.get(URL, {"status": "completed"}).json()["results"]
    assert [s["session_id"] for s in listed] == [sid]


def test_a_member_sees_their_own_sessions_and_an_admin_the_tenants(world: World) -> None:
    mine = start(world.client(world.owner))["session_id"]
    theirs = start(world.client(world.member))["session_id"]
    outsider = start(world.client(world.outsider))["session_id"]
    owner = world.client(world.owner)
    assert [s["session_id"] for s in owner.get(URL).json()["results"]] == [mine]
    admin = world.client(world.admin_a)
    assert {s["session_id"] for s in admin.get(URL).json()["results"]} == {mine, theirs}
    # Another member's session and another tenant's are not found, whatever the method.
    for sid in (theirs, outsider):
        assert owner.get(f"{URL}{sid}/").status_code == 404
        assert say(owner, sid, "hello").status_code == 404
        assert owner.delete(f"{URL}{sid}/").status_code == 404
    assert admin.get(f"{URL}{outsider}/").status_code == 404
    assert owner.get(f"{URL}sk_nope/").status_code == 404


def stored(world: World, session_id: str) -> tuple[Any, ...]:
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get(session_id=session_id)
    return (row.version, row.status, row.state, row.context, row.updated_at)


def test_an_admin_reads_a_members_session_but_cannot_answer_in_it(world: World) -> None:
    member = world.client(world.member)
    sid = start(member)["session_id"]
    for message in ("free-form dates like 3rd of March", "input: 3rd of March -> output: 03-03"):
        assert say(member, sid, message).status_code == 200
    before = stored(world, sid)
    admin = world.client(world.admin_a)
    assert admin.get(f"{URL}{sid}/").status_code == 200  # the audit view

    # "yes" would complete the session and create the skill: refused, and nothing stored.
    refused = say(admin, sid, "yes")

    assert refused.status_code == 403
    assert "detail" in refused.json()
    assert stored(world, sid) == before
    assert not Skill.objects.for_tenant(world.tenant_a).exists()
    assert say(member, sid, "yes").json()["status"] == "completed"  # still the member's to end


def test_an_admin_cannot_delete_a_members_session(world: World) -> None:
    sid = start(world.client(world.member))["session_id"]
    before = stored(world, sid)

    refused = world.client(world.admin_a).delete(f"{URL}{sid}/")

    assert refused.status_code == 403
    assert stored(world, sid) == before
    assert world.client(world.member).get(f"{URL}{sid}/").json()["status"] == "active"


def test_an_admin_of_another_tenant_finds_no_session_to_answer_or_delete(world: World) -> None:
    sid = start(world.client(world.outsider))["session_id"]
    admin = world.client(world.admin_a)
    assert say(admin, sid, "hello").status_code == 404
    assert admin.delete(f"{URL}{sid}/").status_code == 404


def test_delete_is_soft_and_hides_the_session(world: World) -> None:
    client = world.client(world.owner)
    sid = start(client)["session_id"]
    assert client.delete(f"{URL}{sid}/").status_code == 204
    assert client.get(f"{URL}{sid}/").status_code == 404
    assert client.get(URL).json() == {"results": [], "next": None, "previous": None}
    deleted = client.get(URL, {"status": "deleted"}).json()["results"]
    assert [s["session_id"] for s in deleted] == [sid]
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get(session_id=sid)
    assert row.status == "deleted"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"message": ""},
        {"message": "   "},
        {"message": 42},
        {"message": "a\u0000b"},
        {"message": "hi", "extra": 1},
    ],
)
def test_bad_input_is_a_400_and_stores_nothing(world: World, body: dict[str, Any]) -> None:
    client = world.client(world.owner)
    response = client.post(URL, body, format="json")
    assert response.status_code == 400
    assert SkillCreationSession.objects.for_tenant(world.tenant_a).count() == 0
    assert client.get(URL, {"status": "nonsense"}).status_code == 400


def test_a_skill_is_deleted_by_its_creator_or_an_admin(world: World) -> None:
    skill = Skill.objects.create(tenant=world.tenant_a, created_by=world.owner, name="x")
    url = f"/api/v1/skills/{skill.id}/"
    assert world.client(world.member).delete(url).status_code == 403
    assert world.client(world.outsider).delete(url).status_code == 404
    assert world.client(world.admin_a).delete(url).status_code == 204
    assert world.client(world.owner).get(url).status_code == 404


def test_without_credentials_nothing_is_shown(world: World) -> None:
    assert APIClient().get(URL).status_code in (401, 403)
    assert APIClient().get(SKILLS).status_code in (401, 403)


# --- Lists: cursor pages ---------------------------------------------------------------------

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def make_sessions(world: World, user: Any, count: int, *, tied: bool = False) -> list[str]:
    """``count`` sessions of ``user``, each updated a minute after the one before (or all at
    the same instant with ``tied``); their session ids, newest first."""
    rows = [
        SkillCreationSession(
            tenant=world.tenant_a,
            user=user,
            session_id=f"sk_{user.username}_{i:03d}",
            context="{}",
            state="gathering_details",
            updated_at=T0 if tied else T0 + timedelta(minutes=i),
        )
        for i in range(count)
    ]
    SkillCreationSession.objects.bulk_create(rows)
    ordered = sorted(rows, key=lambda row: (row.updated_at, row.id), reverse=True)
    return [row.session_id for row in ordered]


def session_ids(page: dict[str, Any]) -> list[str]:
    return [s["session_id"] for s in page["results"]]


@pytest.mark.parametrize("tied", [False, True], ids=["spread", "all-updated-at-once"])
def test_skill_sessions_are_listed_in_cursor_pages_newest_first_both_ways(
    world: World, tied: bool
) -> None:
    newest_first = make_sessions(world, world.member, 7, tied=tied)
    client = world.client(world.member)

    page1 = client.get(URL, {"limit": 3}).json()
    page2 = client.get(page1["next"]).json()
    page3 = client.get(page2["next"]).json()
    back = client.get(page3["previous"]).json()

    assert set(page1) == {"results", "next", "previous"}
    assert session_ids(page1) == newest_first[:3]
    assert session_ids(page2) == newest_first[3:6]
    assert session_ids(page3) == newest_first[6:]
    assert (page1["previous"], page3["next"]) == (None, None)
    assert session_ids(back) == newest_first[3:6]


def test_an_admins_session_pages_hold_the_tenants_sessions_and_keep_the_status_filter(
    world: World,
) -> None:
    members = make_sessions(world, world.member, 3)
    owners = make_sessions(world, world.owner, 3)
    SkillCreationSession.objects.for_tenant(world.tenant_a).filter(session_id=owners[0]).update(
        status="completed"
    )
    admin = world.client(world.admin_a)

    page1 = admin.get(URL, {"limit": 4}).json()
    page2 = admin.get(page1["next"]).json()
    completed = admin.get(URL, {"status": "completed", "limit": 4}).json()

    # Each member's n-th session was updated at the same minute: the id breaks the tie.
    listed = session_ids(page1) + session_ids(page2)
    assert sorted(listed) == sorted(members + owners) and page2["next"] is None
    assert session_ids(completed) == [owners[0]] and completed["next"] is None
    assert "status=active" in admin.get(URL, {"status": "active", "limit": 1}).json()["next"]


@pytest.mark.parametrize("url", [URL, SKILLS])
def test_a_limit_of_100_is_the_most_a_list_page_holds(world: World, url: str) -> None:
    make_sessions(world, world.owner, 105)
    Skill.objects.bulk_create(
        [Skill(tenant=world.tenant_a, name=f"skill-{i:03d}") for i in range(105)]
    )
    client = world.client(world.owner)
    body = client.get(url, {"limit": 100}).json()
    assert len(body["results"]) == 100 and body["next"] is not None
    assert len(client.get(url).json()["results"]) == 50  # the default, as on every list
    refused = client.get(url, {"limit": 101})
    assert refused.status_code == 400 and "limit" in refused.json()


@pytest.mark.parametrize(
    ("url", "cursor"),
    [(URL, "nlatest"), (URL, ""), (URL, "x1.abc"), (SKILLS, "n.."), (SKILLS, "")],
)
def test_a_cursor_that_names_no_position_is_a_400(world: World, url: str, cursor: str) -> None:
    response = world.client(world.owner).get(url, {"cursor": cursor})
    assert response.status_code == 400 and "cursor" in response.json()


def test_skills_are_listed_in_cursor_pages_by_name_both_ways(world: World) -> None:
    names = [f"skill-{i}" for i in "abcdefg"]
    Skill.objects.bulk_create([Skill(tenant=world.tenant_a, name=n) for n in reversed(names)])
    Skill.objects.create(tenant=world.tenant_b, name="skill-b")
    client = world.client(world.member)

    page1 = client.get(SKILLS, {"limit": 3}).json()
    page2 = client.get(page1["next"]).json()
    page3 = client.get(page2["next"]).json()
    back = client.get(page3["previous"]).json()

    names_of = lambda page: [s["name"] for s in page["results"]]  # noqa: E731
    assert set(page1) == {"results", "next", "previous"}
    assert names_of(page1) == names[:3]
    assert names_of(page2) == names[3:6]
    assert names_of(page3) == names[6:]
    assert (page1["previous"], page3["next"]) == (None, None)
    assert names_of(back) == names[3:6]


@pytest.mark.parametrize("sessions", [3, 40])
@pytest.mark.parametrize("who", ["member", "admin_a"])
def test_the_skill_session_list_costs_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: Any, sessions: int, who: str
) -> None:
    make_sessions(world, world.member, sessions)
    make_sessions(world, world.owner, sessions)
    client = world.client(getattr(world, who))
    client.get(URL)  # warm the token and membership lookups' code paths
    # token + user, membership + tenant, the caller's role, the page (users joined)
    with django_assert_num_queries(4):
        response = client.get(URL, {"limit": 20})
    assert len(response.json()["results"]) == min(sessions * (2 if who == "admin_a" else 1), 20)


@pytest.mark.parametrize("skills", [3, 40])
def test_the_skill_list_costs_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: Any, skills: int
) -> None:
    Skill.objects.bulk_create(
        [Skill(tenant=world.tenant_a, created_by=world.owner, name=f"s-{i:03d}")
         for i in range(skills)]
    )  # fmt: skip
    client = world.client(world.member)
    client.get(SKILLS)  # warm the token and membership lookups' code paths
    # token + user, membership + tenant, the page (creators joined)
    with django_assert_num_queries(3):
        response = client.get(SKILLS, {"limit": 20})
    assert len(response.json()["results"]) == min(skills, 20)
