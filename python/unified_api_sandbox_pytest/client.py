"""A sandbox's worlds over HTTP, usable with or without pytest.

``World.create(url)`` makes an isolated world on a running sandbox (``POST /__sandbox/worlds``) and
wraps its credentials, its API and its control endpoints; ``server.py`` starts the sandbox itself.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union
from urllib.parse import quote

import requests

__all__ = ["SandboxError", "World"]

#: A token is renewed when it has less than this many seconds of sandbox time left.
TOKEN_MARGIN_SECONDS = 60
#: Seconds a control or API call waits for an answer unless told otherwise.
DEFAULT_TIMEOUT = 30


class SandboxError(Exception):
    """A control endpoint or the worlds API answered an error status."""

    def __init__(self, method: str, url: str, response: requests.Response):
        self.status = response.status_code
        self.response = response
        try:
            self.body: Any = response.json()
        except ValueError:
            self.body = response.text
        detail = self.body
        if isinstance(detail, dict):
            detail = detail.get("message") or detail.get("detail") or detail
        super().__init__(f"{method} {url} answered {self.status}: {detail}")


# ---------------------------------------------------------------------------------------------------
# Worlds.


def _bearer(token: Optional[str]) -> Dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _call(
    http: Any,
    method: str,
    url: str,
    headers: Mapping[str, str],
    *,
    json_body: Any = None,
    params: Optional[Mapping[str, Any]] = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Any:
    """A control call: the JSON answer, None for 204, a SandboxError for any other non-2xx."""
    kwargs: Dict[str, Any] = {"headers": dict(headers), "timeout": timeout}
    if json_body is not None:
        kwargs["json"] = json_body
    if params:
        kwargs["params"] = {k: v for k, v in params.items() if v is not None}
    response = http.request(method, url, **kwargs)
    if not 200 <= response.status_code < 300:
        raise SandboxError(method, url, response)
    if response.status_code == 204 or not response.content:
        return None
    return response.json()


def _iso(value: Union[str, datetime]) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("give an aware datetime (with tzinfo), or an ISO string with an offset")
        return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    return value


def parse_instant(value: str) -> datetime:
    """An ISO instant of the sandbox (``2026-01-15T09:00:00.000Z``) as an aware datetime."""
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


class _Clock:
    """The world's clock: ``POST``/``GET /__sandbox/clock`` with its control token."""

    def __init__(self, world: "World"):
        self._world = world

    def now(self) -> datetime:
        """The world's time, as an aware datetime (UTC)."""
        return self._world._clock_answer(self._world._control("GET", "/__sandbox/clock"))

    @property
    def mode(self) -> str:
        """``system`` (follows the machine's time) or ``manual`` (stands still until moved)."""
        self.now()
        return self._world._clock_mode

    def advance(self, seconds: float) -> datetime:
        """Moves the clock forward (negative: back); background work that came due is done first."""
        answer = self._world._control("POST", "/__sandbox/clock", {"advance_seconds": seconds})
        return self._world._clock_answer(answer)

    def set(self, instant: Union[str, datetime]) -> datetime:
        """Sets the clock to an instant (an ISO string with an offset, or an aware datetime)."""
        answer = self._world._control("POST", "/__sandbox/clock", {"now": _iso(instant)})
        return self._world._clock_answer(answer)

    def set_mode(self, mode: str) -> datetime:
        """``system``: back to the machine's time; ``manual``: stop the clock where it stands."""
        answer = self._world._control("POST", "/__sandbox/clock", {"mode": mode})
        return self._world._clock_answer(answer)


class _Faults:
    """The world's faults: ``/__sandbox/faults``."""

    def __init__(self, world: "World"):
        self._world = world

    def add(self, rule: Optional[Mapping[str, Any]] = None, **fields: Any) -> Dict[str, Any]:
        """Arms a fault (``{"match": {...}, "effect": {...}, "times": n}``); the armed fault with its id."""
        body = dict(rule or {})
        body.update(fields)
        return self._world._control("POST", "/__sandbox/faults", body)

    def list(self) -> List[Dict[str, Any]]:
        """The armed faults, oldest first, with their counters (``fired``, ``remaining``)."""
        return self._world._control("GET", "/__sandbox/faults")

    def get(self, fault_id: str) -> Dict[str, Any]:
        return self._world._control("GET", f"/__sandbox/faults/{quote(fault_id, safe='')}")

    def remove(self, fault_id: str) -> None:
        self._world._control("DELETE", f"/__sandbox/faults/{quote(fault_id, safe='')}")

    def clear(self) -> None:
        self._world._control("DELETE", "/__sandbox/faults")


class _Fixtures:
    """The world's fixtures: ``POST /__sandbox/fixtures`` (docs/fixtures.md)."""

    def __init__(self, world: "World"):
        self._world = world

    def load(self, document: Union[Mapping[str, Any], str, os.PathLike]) -> Dict[str, Any]:
        """Loads a fixture document (a dict, or the path of a JSON file); what was created, with ids."""
        if not isinstance(document, Mapping):
            with open(document, encoding="utf-8") as file:
                document = json.load(file)
        return self._world._control("POST", "/__sandbox/fixtures", dict(document))

    def schema(self) -> Dict[str, Any]:
        """The JSON Schema of fixture documents."""
        return self._world._control("GET", "/__sandbox/fixtures/schema")


class _Api:
    """The world's API, with its access token: ``world.api.get("/consumers")``.

    Each call answers a ``requests.Response`` whatever its status (nothing is raised); a path is
    joined to the world's base url, a full url is taken as it is. An ``Authorization`` header given
    in ``headers`` replaces the world's token.
    """

    def __init__(self, world: "World"):
        self._world = world

    @property
    def session(self) -> requests.Session:
        return self._world.session

    def url(self, path: str) -> str:
        return self._world.url(path)

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = dict(kwargs.pop("headers", None) or {})
        if not any(name.lower() == "authorization" for name in headers):
            headers["Authorization"] = f"Bearer {self._world.token()}"
        kwargs.setdefault("timeout", DEFAULT_TIMEOUT)
        return self._world.session.request(method, self.url(path), headers=headers, **kwargs)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("DELETE", path, **kwargs)


class World:
    """An isolated world on a sandbox (``POST /__sandbox/worlds``), its keys and its controls.

    ``World.create(base_url, seed=..., clock=..., fixtures=..., pace=...)`` makes one; ``delete()``
    (or leaving a ``with`` block) removes it, with its own control token (no admin token needed). Its
    API keys select it on the shared server, so any client given ``env`` or ``sdk_env()`` reaches
    this world alone.
    """

    def __init__(self, base_url: str, created: Mapping[str, Any], admin_token: Optional[str] = None):
        self.base_url = base_url.rstrip("/")
        self.admin_token = admin_token
        #: The whole answer of ``POST /__sandbox/worlds``.
        self.info: Dict[str, Any] = dict(created)
        self.id: str = created["id"]
        self.seed: int = created["seed"]
        self.control_token: str = created["control_token"]
        self.credentials: Dict[str, Any] = dict(created["credentials"])
        self.env: Dict[str, str] = dict(created["env"])
        self.base_path: str = created.get("base_path", f"/__worlds/{self.id}")
        self.expires_at: Optional[str] = created.get("expires_at")
        self.session = requests.Session()
        self.api = _Api(self)
        self.clock = _Clock(self)
        self.faults = _Faults(self)
        self.fixtures = _Fixtures(self)
        self.deleted = False
        self._token: Optional[Dict[str, Any]] = None
        # What is known of the world's clock: its reading (epoch seconds) at a machine instant, and
        # its mode. A token is renewed against this estimate: the moves made through this object are
        # seen, the moves another client makes are not.
        clock = created.get("clock") or {}
        self._clock_mode: str = clock.get("mode", "system")
        self._clock_at: Optional[float] = parse_instant(clock["now"]).timestamp() if "now" in clock else None
        self._clock_seen: float = time.monotonic()

    # -- making and removing -----------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        base_url: str,
        *,
        admin_token: Optional[str] = None,
        seed: Optional[int] = None,
        fixtures: Optional[Mapping[str, Any]] = None,
        clock: Optional[Union[str, datetime]] = None,
        pace: Optional[str] = None,
        connection_life: Optional[str] = None,
        ttl_seconds: Optional[int] = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> "World":
        """``POST /__sandbox/worlds``. ``clock``: ``"system"``, ``"now"``, an ISO instant or a datetime."""
        body: Dict[str, Any] = {}
        if seed is not None:
            body["seed"] = seed
        if fixtures is not None:
            body["fixtures"] = dict(fixtures)
        if clock is not None:
            body["clock"] = _iso(clock)
        if pace is not None:
            body["pace"] = pace
        if connection_life is not None:
            body["connection_life"] = connection_life
        if ttl_seconds is not None:
            body["ttl_seconds"] = ttl_seconds
        base_url = base_url.rstrip("/")
        created = _call(
            requests,
            "POST",
            f"{base_url}/__sandbox/worlds",
            _bearer(admin_token),
            json_body=body,
            timeout=timeout,
        )
        return cls(base_url, created, admin_token)

    def delete(self) -> bool:
        """``DELETE /__sandbox/worlds/{id}`` with its control token; False when it was gone already."""
        if self.deleted:
            return False
        self.deleted = True
        self.session.close()
        try:
            _call(
                requests, "DELETE", f"{self.base_url}/__sandbox/worlds/{self.id}", _bearer(self.control_token)
            )
        except SandboxError as error:
            if error.status in (401, 404):  # gone (expired): its token names no world any more
                return False
            raise
        return True

    def summary(self) -> Dict[str, Any]:
        """``GET /__sandbox/worlds/{id}``: its clock, bytes and expiry; once deleted, read as admin."""
        token = self.admin_token if self.deleted else self.control_token
        return _call(requests, "GET", f"{self.base_url}/__sandbox/worlds/{self.id}", _bearer(token))

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.delete()

    def __repr__(self) -> str:
        return f"World(id={self.id!r}, seed={self.seed!r}, base_url={self.base_url!r})"

    # -- the API -----------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        """The full url of a path of the API (a full url is answered as it is)."""
        if path.startswith(("http://", "https://")):
            return path
        return f"{self.base_url}/{path.lstrip('/')}"

    def token(self, *, renew: bool = False) -> str:
        """An access token of the world's sandbox key (``POST /token``), kept until near its expiry.

        It is renewed when less than a minute of sandbox time is left, as far as this object knows
        the world's clock (its reading when last seen, plus the machine's time since when the clock
        follows it).
        """
        held = self._token
        if not renew and held is not None:
            now = self._sandbox_now()
            if now is None or now < held["expires_on"] - TOKEN_MARGIN_SECONDS:
                return held["access_token"]
        answer = self.exchange_token()
        self._token = answer
        issued = answer["expires_on"] - answer.get("expires_in", 1800)
        self._clock_at, self._clock_seen = float(issued), time.monotonic()
        return answer["access_token"]

    def exchange_token(self, key: str = "sandbox") -> Dict[str, Any]:
        """``POST /token`` with one of the world's keys (``sandbox``, ``production``, ``restricted``)."""
        keys = self.credentials[key]
        body = {
            "clientId": keys["client_id"],
            "clientSecret": keys["client_secret"],
            "accountId": self.credentials["account_id"],
        }
        return _call(self.session, "POST", self.url("/token"), {}, json_body=body)

    def _sandbox_now(self) -> Optional[float]:
        if self._clock_at is None:
            return None
        if self._clock_mode == "manual":
            return self._clock_at
        return self._clock_at + (time.monotonic() - self._clock_seen)

    def _clock_answer(self, answer: Mapping[str, Any]) -> datetime:
        now = parse_instant(answer["now"])
        self._clock_at, self._clock_seen = now.timestamp(), time.monotonic()
        self._clock_mode = answer.get("mode", self._clock_mode)
        return now

    # -- the control endpoints ---------------------------------------------------------------------

    def _control(
        self, method: str, path: str, body: Any = None, params: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return _call(
            self.session,
            method,
            self.url(path),
            _bearer(self.control_token),
            json_body=body,
            params=params,
        )

    def requests(self, **filters: Any) -> List[Dict[str, Any]]:
        """The request journal, newest first (``GET /__sandbox/requests``).

        Filters: ``method``, ``path`` (a pattern: ``{name}`` one segment, ``*`` several),
        ``consumer_id``, ``status`` (``201`` or ``4xx``), ``since``, ``until``. Every page is read
        unless ``page`` is given (then that page alone, of ``size`` entries, 50 by default).
        """
        for name in ("since", "until"):
            if isinstance(filters.get(name), datetime):
                filters[name] = _iso(filters[name])
        if "status" in filters and filters["status"] is not None:
            filters["status"] = str(filters["status"])
        if "page" in filters:
            return self._control("GET", "/__sandbox/requests", params=filters)["items"]
        filters["size"] = filters.get("size") or 100
        entries: List[Dict[str, Any]] = []
        page = 1
        while True:
            answer = self._control("GET", "/__sandbox/requests", params={**filters, "page": page})
            entries.extend(answer["items"])
            if not answer["items"] or len(entries) >= answer["total"]:
                return entries
            page += 1

    def report(
        self,
        *,
        consumer_id: Optional[str] = None,
        connection_id: Optional[str] = None,
        format: str = "json",
        fail_on: Optional[Union[str, Sequence[str]]] = None,
    ) -> Any:
        """The integration readiness report of what the client did to this world.

        ``GET /__sandbox/report``: a dict (``format="json"``), or the Markdown or JUnit XML text
        (``"markdown"``, ``"junit"``). ``fail_on`` (kinds, or a severity: ``error``, ``warning``,
        ``any``) marks the findings the JUnit text counts as failures.
        """
        if fail_on is not None and not isinstance(fail_on, str):
            fail_on = ",".join(fail_on)
        params = {
            "consumer_id": consumer_id,
            "connection_id": connection_id,
            "format": format,
            "fail_on": fail_on,
        }
        if format == "json":
            return self._control("GET", "/__sandbox/report", params=params)
        response = self.session.get(
            self.url("/__sandbox/report"),
            headers=_bearer(self.control_token),
            params={k: v for k, v in params.items() if v is not None},
            timeout=DEFAULT_TIMEOUT,
        )
        if response.status_code != 200:
            raise SandboxError("GET", self.url("/__sandbox/report"), response)
        return response.text

    def request_entry(self, entry_id: str) -> Dict[str, Any]:
        """One entry of the journal, by its id (``req_12``)."""
        return self._control("GET", f"/__sandbox/requests/{quote(entry_id, safe='')}")

    def clear_requests(self) -> None:
        """Forgets every request of the journal."""
        self._control("DELETE", "/__sandbox/requests")

    def reset(self) -> Dict[str, Any]:
        """Puts the world's seeded data back (``POST /__sandbox/reset``); the clock and pace stay."""
        return self._control("POST", "/__sandbox/reset")

    def set_pace(self, pace: str, from_: Optional[str] = None) -> Dict[str, Any]:
        """``quiet``, ``normal`` or ``busy`` from a day (``YYYY-MM-DD``; default: the clock's day) on."""
        body: Dict[str, Any] = {"pace": pace}
        if from_ is not None:
            body["from"] = from_
        return self._control("POST", "/__sandbox/pace", body)

    def pace(self) -> Dict[str, Any]:
        """``{"pace", "changes"}``: the pace of the clock's day and every change."""
        return self._control("GET", "/__sandbox/pace")

    def control(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        """Any other control endpoint of the world (``/__sandbox/timeline``...), with its control token."""
        answer = self._control(method, path, body, params or None)
        if path.rstrip("/") == "/__sandbox/clock" and isinstance(answer, dict) and "now" in answer:
            self._clock_answer(answer)
        return answer

    # -- for other clients -------------------------------------------------------------------------

    def sdk_env(self) -> Dict[str, str]:
        """The keyword arguments of the official Python SDK's client (``chift.api.client.ChiftClient``).

        The same names are the SDK's module settings, so either of these reaches this world::

            client = ChiftClient(**world.sdk_env())
            chift.Consumer.get(consumer_id, client=client)

            for name, value in world.sdk_env().items():
                setattr(chift, name, value)
        """
        return {
            "client_id": self.credentials["sandbox"]["client_id"],
            "client_secret": self.credentials["sandbox"]["client_secret"],
            "account_id": self.credentials["account_id"],
            "url_base": self.base_url,
        }

    def environ(self, extra: Optional[Iterable[tuple]] = None) -> Dict[str, str]:
        """``os.environ`` with the world's ``SANDBOX_*`` lines on top (for a subprocess under test)."""
        merged = dict(os.environ)
        merged.update(self.env)
        if extra:
            merged.update(dict(extra))
        return merged
