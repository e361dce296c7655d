"""Several clients at the same moment, against a live server: real concurrent requests."""

import json
import threading
import urllib.error
import urllib.request


def send(url, body, token, method="POST"):
    """One JSON request with the edit token: (status, body)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", "X-Game-Token": token},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def race(calls):
    """Every call (a tuple of ``send``'s arguments) from its own thread, released at once."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i):
        barrier.wait()
        results[i] = send(*calls[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results
