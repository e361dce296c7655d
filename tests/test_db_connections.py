"""How many PostgreSQL connections the start command's server holds, whatever the traffic.

The server is ASGI: Django runs each request's code in a thread of its own, so a connection kept
for the next request (``CONN_MAX_AGE``) stayed with a finished thread until the garbage collector
closed it. Two processes held 10 to 18 connections after 100 plain GETs, and a test run reached
97 of PostgreSQL's 100, where new requests answered 503. Each process now takes its connections
from a pool of ``DATABASE_POOL_SIZE``, plus one that listens for the live streams.
"""

import json
import threading
import urllib.request

import psycopg
import pytest

from tests.servers import get, serving

pytestmark = [pytest.mark.once, pytest.mark.alone]  # counts connections of busy servers: once in CI, alone


def held(url):
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'", (name,)
        ).fetchone()
    return row[0]


def test_busy_server_processes_hold_at_most_their_pools_and_listeners(tmp_path, fresh_postgresql):
    workers, pool = 2, 3
    url = fresh_postgresql
    env = {"DATABASE_POOL_SIZE": str(pool)}
    with serving(tmp_path, url, workers=workers, env=env, migrate=False) as (port, _log):
        body = json.dumps({"players": ["Ana", "Ben"]}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games/", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            game = json.load(response)
        codes: list[int] = []

        def phone():
            for _ in range(15):
                codes.append(get(port, f"/g/{game['id']}/", timeout=10)[0])
                codes.append(get(port, f"/api/games/{game['id']}/", timeout=10)[0])

        threads = [threading.Thread(target=phone) for _ in range(12)]  # 12 phones at once, 360 requests
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert codes.count(200) == len(codes) == 360
        assert held(url) <= workers * (pool + 1)
