"""The token exchange, a vertical read, and what the official SDK is given."""

from datetime import timedelta

import pytest
import requests

# A restaurant on Zelty with one order of the till, declared in the marker.
BRASSERIE = {
    "consumers": [
        {
            "ref": "brasserie",
            "name": "Brasserie du Parc",
            "connections": [
                {
                    "integration": "Zelty",
                    "pos": {
                        "orders": [
                            {
                                "creation_date": "2026-01-14T12:00:00Z",
                                "items": [{"product": "Tomato soup", "quantity": 2}],
                            }
                        ]
                    },
                }
            ],
        }
    ]
}


@pytest.mark.sandbox_world(seed=7, clock="2026-01-15T09:00:00Z")
def test_token_exchange_and_the_pos_orders_of_the_seeded_consumer(sandbox_world):
    world = sandbox_world
    answer = requests.post(
        f"{world.base_url}/token",
        json={
            "clientId": world.env["SANDBOX_CLIENT_ID"],
            "clientSecret": world.env["SANDBOX_CLIENT_SECRET"],
            "accountId": world.env["SANDBOX_ACCOUNT_ID"],
        },
        timeout=10,
    )
    assert answer.status_code == 200
    token = answer.json()
    assert token["expires_on"] == int(world.clock.now().timestamp()) + 1800

    consumer = world.env["SANDBOX_CONSUMER_ID_POS"]
    today = world.clock.now().date()
    orders = requests.get(
        f"{world.base_url}/consumers/{consumer}/pos/orders",
        params={"date_from": str(today - timedelta(days=7)), "date_to": str(today)},
        headers={"Authorization": f"Bearer {token['access_token']}"},
        timeout=10,
    )
    assert orders.status_code == 200, orders.text
    page = orders.json()
    assert page["total"] > 0 and page["items"]
    for order in page["items"]:
        assert str(today - timedelta(days=7)) <= order["creation_date"][:10] <= str(today)


def test_the_world_keeps_its_token(sandbox_world):
    assert sandbox_world.token() == sandbox_world.token()
    for _ in range(3):
        assert sandbox_world.api.get("/consumers").status_code == 200
    assert len(sandbox_world.requests(path="/token")) == 1


@pytest.mark.sandbox_world(seed=7, clock="2026-01-15T09:00:00Z", fixtures=BRASSERIE)
def test_the_markers_fixtures_are_in_the_world(sandbox_world):
    consumers = {c["name"]: c["consumerid"] for c in sandbox_world.api.get("/consumers").json()}
    brasserie = consumers["Brasserie du Parc"]
    orders = sandbox_world.api.get(
        f"/consumers/{brasserie}/pos/orders",
        params={"date_from": "2026-01-14", "date_to": "2026-01-14"},
    )
    assert orders.status_code == 200, orders.text
    [order] = [o for o in orders.json()["items"] if o["creation_date"] == "2026-01-14T12:00:00.000Z"]
    assert order["closing_date"] == "2026-01-14T12:30:00.000Z"


def test_sdk_env_names_what_the_python_sdk_takes(sandbox_world):
    env = sandbox_world.sdk_env()
    # chift.api.client.ChiftClient(client_id=, client_secret=, account_id=, url_base=), which are also
    # the SDK's module settings (chift.client_id...).
    assert set(env) == {"client_id", "client_secret", "account_id", "url_base"}
    # What the SDK's ChiftAuth sends, then a call with its token.
    token = requests.post(
        env["url_base"] + "/token",
        json={
            "clientId": env["client_id"],
            "clientSecret": env["client_secret"],
            "accountId": env["account_id"],
        },
        timeout=10,
    ).json()
    consumer = sandbox_world.env["SANDBOX_CONSUMER_ID_INVOICING"]
    answer = requests.get(
        f"{env['url_base']}/consumers/{consumer}",
        headers={"Authorization": f"Bearer {token['access_token']}"},
        timeout=10,
    )
    assert answer.status_code == 200
    assert answer.json()["consumerid"] == consumer


def test_the_restricted_key_sees_its_consumer(sandbox_world):
    restricted = sandbox_world.exchange_token("restricted")
    own = sandbox_world.credentials["restricted"]["consumer_id"]
    headers = {"Authorization": f"Bearer {restricted['access_token']}"}
    assert sandbox_world.api.get(f"/consumers/{own}", headers=headers).status_code == 200
