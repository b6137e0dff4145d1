#!/usr/bin/env python3
"""The pipeline of a running stack (./run.sh --detach), tried as its clients would, through every topic each service
writes: a queue's settings (the worker, sale topic), enters (ingest, entries topic) placed in order and admitted (the
worker reads the enters and relays the admissions to the audit topic), a leave (ingest, leaves topic), a stock setting
(the booking service, sale topic) and a booking (bookings topic). CI runs it against the stack on the Kafka broker with
SCRAM and ACLs (KAFKA_SECURITY=scram), where a grant missing from kafka/acls.txt fails it.

    python3 scripts/pipeline-check.py [--help]

Environment: ADMIN_TOKEN (default: the one ./run.sh keeps in .local/admin-token), QG_INGEST, QG_ADMIN, QG_BOOKING
(default http://127.0.0.1:8080, :8081, :8082). Standard library only. Prints PASS or FAIL per check, exits 1 when any
fails, 2 on an unknown argument.
"""
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if sys.argv[1:]:
    print(__doc__.strip(), file=sys.stderr)
    print(f"[queuegate] ERROR: unknown argument: {sys.argv[1]}", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INGEST = os.environ.get("QG_INGEST", "http://127.0.0.1:8080")
ADMIN = os.environ.get("QG_ADMIN", "http://127.0.0.1:8081")
BOOKING = os.environ.get("QG_BOOKING", "http://127.0.0.1:8082")


def admin_token():
    if os.environ.get("ADMIN_TOKEN"):
        return os.environ["ADMIN_TOKEN"]
    with open(os.path.join(ROOT, ".local", "admin-token")) as file:
        return file.read().strip()


ADMIN_HEADERS = {"Authorization": f"Bearer {admin_token()}"}
failures, checks = [], 0


def call(method, url, body=None, headers=None):
    """The status and the JSON body (None when there is none) of one request."""
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, None


def check(label, held, detail=""):
    global checks
    checks += 1
    print(("PASS " if held else "FAIL ") + label + ("" if held else f" -- {detail}"), flush=True)
    if not held:
        failures.append(label)
    return held


def wait_until(probe, seconds):
    """probe's first truthy answer within the time, else its last answer."""
    deadline = time.monotonic() + seconds
    while True:
        answer = probe()
        if answer or time.monotonic() > deadline:
            return answer
        time.sleep(0.25)


product = random.randint(10**9, 9 * 10**9)
status, _ = call("PUT", f"{ADMIN}/api/v1/queues/{product}",
                 {"maxActive": 5, "admitPerSecond": 1000, "entryTtlSeconds": 120, "open": True}, ADMIN_HEADERS)
check("a queue's settings are saved (worker -> sale topic)", status == 200, status)

tokens = []
for _ in range(20):
    status, body = call("POST", f"{INGEST}/api/v1/queues/{product}/entries", {})
    tokens.append((body or {}).get("token") if status == 202 else None)
check("20 enters are taken (ingest -> entries topic)", all(tokens), tokens)


def states():
    answers = [call("GET", f"{INGEST}/api/v1/queues/{product}/entries/{token}")[1] or {} for token in tokens if token]
    settled = len(answers) == 20 and all(a.get("status") in ("WAITING", "AVAILABLE") for a in answers)
    return answers if settled else None


settled = wait_until(states, 60)
check("the enters are placed in order: the first 5 admitted, the rest waiting at 1..15 (worker reads the entries)",
      settled and [a["status"] for a in settled[:5]] == ["AVAILABLE"] * 5
      and [a.get("position") for a in settled[5:]] == list(range(1, 16)), settled)

status, _ = call("DELETE", f"{INGEST}/api/v1/queues/{product}/entries/{tokens[9]}")
check("a leave is taken (ingest -> leaves topic)", status == 204, status)
moved = wait_until(lambda: (call("GET", f"{INGEST}/api/v1/queues/{product}/entries/{tokens[10]}")[1] or {})
                   .get("position") == 5, 20)
check("the one behind the leaver moves up", moved)

status, _ = call("PUT", f"{BOOKING}/api/v1/products/{product}/stock", {"available": 10}, ADMIN_HEADERS)
check("the stock is set (booking -> sale topic)", status == 200, status)
status, body = call("POST", f"{BOOKING}/api/v1/bookings", {"productId": product, "token": tokens[0], "quantity": 1})
check("an admitted person books (booking -> bookings topic)", 200 <= status < 300, (status, body))
status, body = call("POST", f"{BOOKING}/api/v1/bookings", {"productId": product, "token": tokens[0], "quantity": 1})
check("the same token books no second time", status == 403, (status, body))
admitted = wait_until(lambda: (call("GET", f"{INGEST}/api/v1/queues/{product}/entries/{tokens[5]}")[1] or {})
                      .get("status") == "AVAILABLE", 20)
check("the booking frees a place: the first in line is admitted", admitted)

status, body = call("GET", f"{ADMIN}/api/v1/queues/{product}", headers=ADMIN_HEADERS)
check("the admin API reads the queue", status == 200, (status, body))

print(f"pipeline: {checks - len(failures)}/{checks} checks hold"
      + (f"; failing: {', '.join(failures)}" if failures else ""))
sys.exit(1 if failures else 0)
