"""The world's own control endpoints: clock, faults, the request journal, fixtures, reset, pace."""

import pytest
import requests

from unified_api_sandbox_pytest import SandboxError

START = "2026-01-15T09:00:00Z"


def test_advancing_a_worlds_clock_moves_that_world_alone(sandbox_world_factory):
    moved, other = sandbox_world_factory(clock=START), sandbox_world_factory(clock=START)
    assert moved.clock.advance(3600).isoformat() == "2026-01-15T10:00:00+00:00"
    assert moved.clock.now().isoformat() == "2026-01-15T10:00:00+00:00"
    assert other.clock.now().isoformat() == "2026-01-15T09:00:00+00:00"
    assert moved.clock.set("2026-02-01T00:00:00Z").isoformat() == "2026-02-01T00:00:00+00:00"
    assert other.clock.now().isoformat() == "2026-01-15T09:00:00+00:00"


@pytest.mark.sandbox_world(clock=START)
def test_a_token_expires_with_the_worlds_clock_and_the_world_renews_its_own(sandbox_world):
    world = sandbox_world
    token = world.exchange_token()["access_token"]
    held = world.token()
    read = lambda bearer: world.api.get("/consumers", headers={"Authorization": f"Bearer {bearer}"})  # noqa: E731
    assert read(token).status_code == 200

    world.clock.advance(1800)
    assert read(token).status_code == 401
    assert read(held).status_code == 401
    # world.token() knows the clock moved: it takes a new token.
    assert world.api.get("/consumers").status_code == 200
    assert world.token() != held
    assert len(world.requests(path="/token")) == 3


def test_an_armed_fault_fails_the_request_with_its_status(sandbox_world):
    fault = sandbox_world.faults.add(
        match={"method": "GET", "path": "/consumers"}, effect={"status": 503}, times=1
    )
    assert fault["id"].startswith("fault_")
    assert sandbox_world.api.get("/consumers").status_code == 503
    assert sandbox_world.api.get("/consumers").status_code == 200
    [listed] = sandbox_world.faults.list()
    assert listed["fired"] == 1 and listed["remaining"] == 0

    sandbox_world.faults.add({"match": {"path": "/consumers/{consumer_id}"}, "effect": {"status": 500}})
    consumer = sandbox_world.env["SANDBOX_CONSUMER_ID_POS"]
    assert sandbox_world.api.get(f"/consumers/{consumer}").status_code == 500
    sandbox_world.faults.remove(sandbox_world.faults.list()[1]["id"])
    assert sandbox_world.api.get(f"/consumers/{consumer}").status_code == 200
    with pytest.raises(SandboxError) as refused:
        sandbox_world.faults.add(match={"path": "/consumers"}, effect={})
    assert refused.value.status == 422


def test_the_fault_of_one_world_leaves_another_alone(sandbox_world_factory):
    faulty, healthy = sandbox_world_factory(), sandbox_world_factory()
    faulty.token()  # taken before: "*" matches POST /token too
    faulty.faults.add(match={"path": "*"}, effect={"status": 500})
    assert faulty.api.get("/consumers").status_code == 500
    assert faulty.api.post("/token", json={}).status_code == 500
    assert healthy.api.get("/consumers").status_code == 200


def test_requests_lists_what_the_test_sent(sandbox_world):
    unknown = "00000000-0000-4000-8000-000000000000"
    consumer = sandbox_world.env["SANDBOX_CONSUMER_ID_INVOICING"]
    sandbox_world.api.get("/consumers")
    sandbox_world.api.get(f"/consumers/{consumer}")
    sandbox_world.api.get(f"/consumers/{unknown}")
    sandbox_world.api.post("/consumers", json={"name": "Journaled"})

    everything = sandbox_world.requests()
    assert [(e["method"], e["path"]) for e in everything] == [
        ("POST", "/consumers"),
        ("GET", f"/consumers/{unknown}"),
        ("GET", f"/consumers/{consumer}"),
        ("GET", "/consumers"),
        ("POST", "/token"),
    ]
    [posted] = sandbox_world.requests(method="POST", path="/consumers")
    assert posted["request"]["body"] == {"name": "Journaled"}
    assert posted["request"]["headers"]["authorization"] == sandbox_world.credentials["sandbox"]["client_id"]
    assert [e["status"] for e in sandbox_world.requests(status="4xx")] == [404]
    assert [e["path"] for e in sandbox_world.requests(path="/consumers/{consumer_id}")] == [
        f"/consumers/{unknown}",
        f"/consumers/{consumer}",
    ]
    assert len(sandbox_world.requests(page=1, size=2)) == 2
    [token] = sandbox_world.requests(path="/token")
    assert token["redacted"] is True

    sandbox_world.clear_requests()
    assert sandbox_world.requests() == []


def test_fixtures_load_adds_to_this_world(sandbox_world_factory):
    world, other = sandbox_world_factory(), sandbox_world_factory()
    loaded = world.fixtures.load({"consumers": [{"ref": "acme", "name": "Acme Bakery"}]})
    [acme] = loaded["consumers"]
    assert acme["ref"] == "acme" and loaded["replaced"] is False
    assert world.api.get(f"/consumers/{acme['consumerid']}").json()["name"] == "Acme Bakery"
    assert other.api.get(f"/consumers/{acme['consumerid']}").status_code == 404

    with pytest.raises(SandboxError) as refused:
        world.fixtures.load({"consumers": [{"name": "Typo", "conections": []}]})
    assert refused.value.status == 422


def test_fixtures_load_reads_a_json_file(sandbox_world, tmp_path):
    path = tmp_path / "world.json"
    path.write_text('{"replace": true, "consumers": [{"name": "Alone"}]}', encoding="utf-8")
    assert sandbox_world.fixtures.load(path)["replaced"] is True
    assert [c["name"] for c in sandbox_world.api.get("/consumers").json()] == ["Alone"]


def test_reset_puts_the_seeded_world_back_and_keeps_the_clock(sandbox_world):
    sandbox_world.api.post("/consumers", json={"name": "Gone after the reset"})
    before = sandbox_world.clock.advance(600)
    assert sandbox_world.reset()["status"] == "reset"
    names = [c["name"] for c in sandbox_world.api.get("/consumers").json()]
    assert "Gone after the reset" not in names
    assert sandbox_world.clock.now() == before


@pytest.mark.sandbox_world(clock=START)
def test_set_pace_from_a_day(sandbox_world):
    answer = sandbox_world.set_pace("quiet", from_="2026-02-01")
    assert answer["pace"] == "normal"
    assert {"from": "2026-02-01", "pace": "quiet"} in answer["changes"]
    assert sandbox_world.set_pace("busy")["pace"] == "busy"


def test_control_endpoints_need_the_worlds_control_token(sandbox_world):
    answer = requests.get(
        f"{sandbox_world.base_url}/__sandbox/faults",
        headers={"Authorization": f"Bearer {sandbox_world.token()}"},
        timeout=10,
    )
    assert answer.status_code == 401


def test_report_names_what_the_client_will_meet_in_production(sandbox_world):
    consumer = sandbox_world.env["SANDBOX_CONSUMER_ID_INVOICING"]
    for _ in range(2):
        created = sandbox_world.api.post(
            f"/consumers/{consumer}/invoicing/contacts", json={"company_name": "Twice SA"}
        )
        assert created.status_code == 200
    report = sandbox_world.report()
    kinds = {finding["kind"] for finding in report["findings"]}
    assert {"write_without_request_id", "duplicate_write"} <= kinds
    duplicate = next(f for f in report["findings"] if f["kind"] == "duplicate_write")
    assert sandbox_world.request_entry(duplicate["requests"][0])["method"] == "POST"
    junit = sandbox_world.report(format="junit", fail_on=["duplicate_write"])
    assert '<failure type="duplicate_write"' in junit
    assert "`duplicate_write`" in sandbox_world.report(format="markdown")


def test_a_client_that_reads_every_page_is_ready(sandbox_world):
    consumer = sandbox_world.env["SANDBOX_CONSUMER_ID_INVOICING"]
    page, read = 1, 0
    while True:
        answer = sandbox_world.api.get(
            f"/consumers/{consumer}/invoicing/invoices", params={"page": page, "size": 100}
        ).json()
        read += len(answer["items"])
        if read >= answer["total"]:
            break
        page += 1
    report = sandbox_world.report()
    assert page > 1
    assert [f["kind"] for f in report["findings"] if f["severity"] != "info"] == []
