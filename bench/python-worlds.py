"""python3 bench/python-worlds.py <base url> <admin token> [count]

A fresh world per test as the pytest plugin makes one (``sandbox_world``): ``World.create`` (POST
/__sandbox/worlds), the test's first call (its token, then GET /consumers), and ``delete()`` when the
test ends, through the plugin's own client, ``count`` times in a row. Run by bench/run.ts against a
server it started; prints one line of JSON, in milliseconds: the median and 99th percentile of a
world made and answering (what a test waits for before its first assertion), and of its deletion.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

from unified_api_sandbox_pytest.client import World  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> None:
    base_url, admin_token = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    made, deleted = [], []
    for _ in range(count + 5):
        start = time.perf_counter()
        world = World.create(base_url, admin_token=admin_token, clock="2026-01-15T09:00:00Z")
        answer = world.api.get("/consumers")
        answered = time.perf_counter()
        if answer.status_code != 200:
            raise SystemExit(f"GET /consumers answered {answer.status_code}")
        world.delete()
        made.append((answered - start) * 1000)
        deleted.append((time.perf_counter() - answered) * 1000)
    # The first five warm the server's code and the client's imports: not counted.
    made, deleted = made[5:], deleted[5:]
    print(
        json.dumps(
            {
                "p50": round(percentile(made, 0.5), 1),
                "p99": round(percentile(made, 0.99), 1),
                "deleteP50": round(percentile(deleted, 0.5), 1),
                "count": count,
            }
        )
    )


if __name__ == "__main__":
    main()
