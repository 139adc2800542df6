"""A world per test: isolation, the marker, the factory, and the session's server."""

import os

import pytest
import requests

from unified_api_sandbox_pytest import SandboxError, SandboxServer, World
from unified_api_sandbox_pytest.plugin import find_launcher

NAME = "Created by pytest"
_seen = {}


def consumer_names(world):
    answer = world.api.get("/consumers")
    assert answer.status_code == 200
    return [consumer["name"] for consumer in answer.json()]


def test_a_consumer_created_in_one_test(sandbox_world):
    created = sandbox_world.api.post("/consumers", json={"name": NAME})
    assert created.status_code == 200, created.text
    assert NAME in consumer_names(sandbox_world)
    _seen["world"] = sandbox_world.id
    _seen["consumer"] = created.json()["consumerid"]


def test_is_absent_in_the_next(sandbox_world):
    assert NAME not in consumer_names(sandbox_world)
    if _seen:  # the test above ran first, in this process
        assert sandbox_world.id != _seen["world"]
        assert sandbox_world.api.get(f"/consumers/{_seen['consumer']}").status_code == 404


def test_two_worlds_of_one_test_do_not_see_each_other(sandbox_world_factory):
    first, second = sandbox_world_factory(seed=3), sandbox_world_factory(seed=3)
    assert first.id != second.id
    assert first.credentials["sandbox"]["client_id"] != second.credentials["sandbox"]["client_id"]
    # One seed, one data: the same well-known ids in both.
    assert first.env["SANDBOX_CONSUMER_ID_POS"] == second.env["SANDBOX_CONSUMER_ID_POS"]

    created = first.api.post("/consumers", json={"name": "Only in the first"}).json()
    assert "Only in the first" in consumer_names(first)
    assert "Only in the first" not in consumer_names(second)
    assert second.api.get(f"/consumers/{created['consumerid']}").status_code == 404
    # A world's token reaches its world alone, whatever url it is sent to.
    other = requests.get(
        f"{second.base_url}/consumers/{created['consumerid']}",
        headers={"Authorization": f"Bearer {first.token()}"},
        timeout=10,
    )
    assert other.status_code == 200
    # Each world's journal holds its own requests.
    assert not second.requests(method="POST", path="/consumers")
    assert len(first.requests(method="POST", path="/consumers")) == 1


@pytest.mark.sandbox_world(seed=7, clock="2026-01-15T09:00:00Z")
def test_the_marker_chooses_seed_and_clock(sandbox_world):
    assert sandbox_world.seed == 7
    assert sandbox_world.clock.now().isoformat() == "2026-01-15T09:00:00+00:00"
    assert sandbox_world.clock.mode == "manual"
    assert sandbox_world.env["SANDBOX_BASE_URL"] == sandbox_world.base_url


def test_the_default_clock_is_the_machines_second_standing_still(sandbox_world):
    from datetime import datetime, timezone

    first = sandbox_world.clock.now()
    assert sandbox_world.clock.mode == "manual"
    assert abs((datetime.now(timezone.utc) - first).total_seconds()) < 120
    assert sandbox_world.clock.now() == first


@pytest.mark.sandbox_world(seed=11)
class TestMarkersMerge:
    @pytest.mark.sandbox_world(pace="busy")
    def test_class_and_test_markers_merge(self, sandbox_world):
        assert sandbox_world.seed == 11
        assert sandbox_world.pace()["pace"] == "busy"


def test_a_world_without_pytest_is_deleted_after_its_block(sandbox_server):
    with World.create(sandbox_server.url, admin_token=sandbox_server.admin_token, seed=2) as world:
        assert world.summary()["id"] == world.id
        assert world.api.get("/consumers").status_code == 200
    assert world.deleted
    with pytest.raises(SandboxError) as gone:
        world.summary()
    assert gone.value.status == 404
    assert world.delete() is False
    live = [item["id"] for item in sandbox_server.list_worlds()["items"]]
    assert world.id not in live


def test_a_world_is_deleted_with_its_own_control_token(sandbox_server, pytestconfig):
    # A server with an admin token: whoever runs it creates the world, the job given it deletes it.
    if sandbox_server.admin_token:
        deletes_with_its_control_token(sandbox_server)
        return
    with find_launcher(pytestconfig).start(["--admin-token", "pytest-admin"]) as server:
        deletes_with_its_control_token(server)


def deletes_with_its_control_token(server):
    made = World.create(server.url, admin_token=server.admin_token, seed=2)
    other = World.create(server.url, admin_token=server.admin_token, seed=2)
    given = World(server.url, made.info)  # the control token, not the admin token
    assert given.summary()["id"] == made.id
    with pytest.raises(SandboxError) as hidden:
        World(server.url, {**other.info, "control_token": made.control_token}).summary()
    assert hidden.value.status == 404
    assert given.delete() is True
    assert World(server.url, made.info).delete() is False
    live = [item["id"] for item in server.list_worlds()["items"]]
    assert other.id in live and made.id not in live
    assert other.delete() is True


def test_the_session_server_is_running(sandbox_server):
    assert "items" in sandbox_server.list_worlds()
    if os.environ.get("SANDBOX_URL"):
        assert sandbox_server.pid is None
    else:
        assert sandbox_server.started and sandbox_server.process.poll() is None
        os.kill(sandbox_server.pid, 0)  # the process exists
