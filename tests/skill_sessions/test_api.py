"""``skill-sessions/`` and ``skills/`` over HTTP: shapes, who sees what, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from skill_sessions.models import Skill, SkillCreationSession
from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/skill-sessions/"


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
        "completed", "completed", "turns-messy-dates-iso",
    )  # fmt: skip
    skills = client.get("/api/v1/skills/").json()
    assert [s["name"] for s in skills] == ["turns-messy-dates-iso"]
    assert skills[0]["definition"]["outputs"][0]["description"] == "ISO 8601"
    detail = client.get(f"{URL}{sid}/").json()
    assert detail["status"] == "completed" and len(detail["history"]) == 8
    listed = client.get(URL, {"status": "completed"}).json()
    assert [s["session_id"] for s in listed] == [sid]


def test_a_member_sees_their_own_sessions_and_an_admin_the_tenants(world: World) -> None:
    mine = start(world.client(world.owner))["session_id"]
    theirs = start(world.client(world.member))["session_id"]
    outsider = start(world.client(world.outsider))["session_id"]
    owner = world.client(world.owner)
    assert [s["session_id"] for s in owner.get(URL).json()] == [mine]
    admin = world.client(world.admin_a)
    assert {s["session_id"] for s in admin.get(URL).json()} == {mine, theirs}
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
    assert client.get(URL).json() == []
    assert [s["session_id"] for s in client.get(URL, {"status": "deleted"}).json()] == [sid]
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
    assert APIClient().get("/api/v1/skills/").status_code in (401, 403)
