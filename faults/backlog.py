"""Kafka away for longer than the audit stream's bound, for faults/run.py's audit-backlog. Standard library only.

The admission worker is restarted with a small bound (queuegate.admission.audit-backlog-limit) and with egress to
127.0.0.1 over http allowed (queuegate.egress.allow-private, allow-http), so that a shop's webhook receiver of this
module, on 127.0.0.1, can be told of each admission. The scenario runs last: it leaves the runner's worker stopped,
with its own settings back, for the runner to start again should another scenario follow.
"""
import http.server
import json
import threading
import time

import stack as S

BOUND = 25
USERS = 150
RATE = 10  # admissions a second: about two per step, one ADMITTED change each, so the bound is reached in seconds
SECRET = "faults-webhook-secret-of-the-audit-backlog"


class Receiver:
    """The shop: takes every webhook POST on 127.0.0.1, answers 204, keeps the event id and the user."""

    def __init__(self):
        self.deliveries = []  # (event id, user id)
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    user = json.loads(body).get("userId")
                except ValueError:
                    user = None
                with receiver.lock:
                    receiver.deliveries.append((self.headers.get("Queuegate-Event-Id"), user))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/events"

    def users(self):
        with self.lock:
            return {u for _, u in self.deliveries}

    def ids_naming_two_users(self):
        named = {}
        with self.lock:
            for event, user in self.deliveries:
                named.setdefault(event, set()).add(user)
        return [e for e, us in named.items() if len(us) > 1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def restart_worker(stack, env):
    # a graceful stop: a worker killed would keep its partitions of the entries topic until its session lapses
    stack.worker.stop(grace=30)
    stack.worker.extra_env = env
    stack.worker.start().wait_healthy()


def audit_backlog(stack, run):
    """Kafka SIGKILLed for longer than the audit stream's bound (25 unrelayed changes here) while a queue with a
    webhook admits and admitted users book: admissions hold at the bound (the operator view says audit_backlog) and
    no change is trimmed; once Kafka is back every admission reaches the shop's webhook, and a Redis lost afterwards
    gives back the exact sale (line, entries, bookings, stock)."""
    sc = "audit-backlog"
    R = run.R
    api = run.Api(stack)
    receiver = Receiver()
    standard = dict(stack.worker.extra_env)
    t0 = time.monotonic()
    try:
        restart_worker(stack, dict(standard, QUEUEGATE_ADMISSION_AUDIT_BACKLOG_LIMIT=str(BOUND),
                                   QUEUEGATE_EGRESS_ALLOW_PRIVATE="true", QUEUEGATE_EGRESS_ALLOW_HTTP="true"))
        t_worker = time.monotonic() - t0
        redis = run.redis_of(stack)
        p = S.new_product()
        k = run.keys(p)
        api.configure(p, 1000, RATE, 600, webhookUrl=receiver.url, webhookSecret=SECRET)
        stock = 40
        R.check(sc, "set-up: stock set", api.set_stock(p, stock).status == 200)
        es = run.run_entrants(api, p, USERS, 8, "ab", retry=True)
        for e in es:
            e.start()
        run.join(es, 60)
        tokens = {run.user_of(t): t for t in run.accepted_tokens(es)}
        if not R.check(sc, f"set-up: {USERS} entered", len(tokens) == USERS, len(tokens)):
            return
        S.wait_for(lambda: redis("ZCARD", k["entry"]) >= 6, 30, 0.1)
        admitted = list(redis("ZRANGE", k["entry"], 0, -1))
        booked = {}
        for u in admitted[:3]:
            r = api.book(p, tokens[u])
            if r.status == 201:
                booked[u] = (r.json() or {}).get("bookingId")
        R.check(sc, "set-up: 3 admitted users booked before the outage", len(booked) == 3, booked)

        # Kafka away: admissions go on until the stream holds BOUND changes, then hold; bookings tried meanwhile are
        # answered 503 and undone (a CONSUMED and a RESTORED change each), their records perhaps stored by Kafka later
        stack.kafka.kill9()
        t_down = time.monotonic()
        tried = admitted[3:6]
        answers = {}

        def book(u):
            answers[u] = api.book(p, tokens[u], timeout=30).status
        bookers = [threading.Thread(target=book, args=(u,)) for u in tried]
        for b in bookers:
            b.start()

        def view():
            return api.queue(p).json() or {}
        held = S.wait_for(lambda: view().get("admissionHold") == "audit_backlog", 30, 0.2)
        t_held = time.monotonic() - t_down
        at_hold = run.stats(redis, p).get("admittedTotal")
        ids = [e[0] for e in (redis("XRANGE", k["audit"], "-", "+") or [])]
        time.sleep(3)
        still = [e[0] for e in (redis("XRANGE", k["audit"], "-", "+") or [])]
        after = run.stats(redis, p).get("admittedTotal")
        for b in bookers:
            b.join(40)
        R.check(sc, "admissions hold at the bound: the operator view says audit_backlog within 30 s of the outage",
                held, view())
        R.check(sc, "nobody admitted while held (3 s), the line waits", held and at_hold == after
                and redis("ZCARD", k["waiting"]) > 0, f"admittedTotal {at_hold} -> {after}")
        R.check(sc, f"no change trimmed: the stream holds at least {BOUND} changes, the same ones 3 s later",
                len(ids) >= BOUND and still[:len(ids)] == ids, f"{len(ids)} then {len(still)}")
        R.check(sc, "bookings tried while Kafka was away answered 503 (undone)",
                sorted(answers.values()) == [503] * len(tried), answers)
        view_held = view()
        stack.kafka.start()
        t_up = time.monotonic()

        # back: every change relayed, the line moves again to the last user, every admission at the webhook
        resumed = S.wait_for(lambda: int(run.stats(redis, p).get("admittedTotal", 0)) == USERS
                             and redis("XLEN", k["audit"]) == 0, 90, 0.2)
        t_resumed = time.monotonic() - t_up
        R.check(sc, f"admissions resume once Kafka is back: all {USERS} admitted, the stream relayed", resumed,
                f"admittedTotal {run.stats(redis, p).get('admittedTotal')}, stream {redis('XLEN', k['audit'])}")
        R.check(sc, "the operator view no longer says held", view().get("admissionHold") is None, view())
        delivered = S.wait_for(lambda: receiver.users() >= set(tokens), 60, 0.2)
        t_delivered = time.monotonic() - t_up
        R.check(sc, f"every admission reached the shop's webhook: {USERS} users", delivered,
                f"{len(set(tokens) - receiver.users())} missing")
        R.check(sc, "each webhook event id names one user (a repeat is the same event)",
                not receiver.ids_naming_two_users(), receiver.ids_naming_two_users()[:3])

        # Redis lost: the sale comes back from the log exactly as it was
        waiting, entry, gone, _ = run.line_snapshot(redis, p)
        bookings = sorted(redis("HKEYS", k["bookings"]) or [])
        stock_before = redis("GET", k["stock"])
        redis.close()
        stack.redis.kill9()
        t_kill = time.monotonic()
        S.wait_for(lambda: not S.port_open(stack.redis.port), 10, 0.02)
        stack.redis.start(fresh=True)
        redis = run.redis_of(stack)

        def restored():
            try:
                w, e, g, _ = run.line_snapshot(redis, p)
                return (w, e, g, sorted(redis("HKEYS", k["bookings"]) or []), redis("GET", k["stock"]))
            except (OSError, ConnectionError, S.RedisError):
                return None
        want = (waiting, entry, gone, bookings, stock_before)
        same = S.wait_for(lambda: restored() == want, 60, 0.2)
        t_restored = time.monotonic() - t_kill
        got = restored() or (None,) * 5
        R.check(sc, "after a Redis loss the exact sale is back: the same entries (with their expiry), the same "
                    "users gone, the same bookings, the same stock", same,
                f"entries {len(got[1] or {})} vs {len(entry)}, gone {len(got[2] or ())} vs {len(gone)}, "
                f"bookings {got[3]} vs {bookings}, stock {got[4]} vs {stock_before}")
        R.check(sc, "stock = as set minus the bookings that stood", stock_before == str(stock - len(booked)),
                stock_before)
        R.check(sc, "the bookings undone while Kafka was away are not booked again",
                set(bookings) == set(booked.values()), f"{bookings} vs {sorted(booked.values())}")
        R.figure(sc, "worker restarted with the bound", f"{t_worker:.1f} s")
        R.figure(sc, "held", f"{t_held:.1f} s after the broker was killed, at {at_hold} admitted of {USERS}, "
                             f"{view_held.get('auditBacklog')} changes unrelayed")
        R.figure(sc, "after the broker was back", f"all admitted and relayed in {t_resumed:.1f} s, every webhook "
                                                  f"delivered in {t_delivered:.1f} s "
                                                  f"({len(receiver.deliveries)} deliveries for {USERS} users)")
        R.figure(sc, "Redis lost", f"the sale back in {t_restored:.1f} s: {len(entry)} entries, {len(gone)} gone, "
                                   f"{len(bookings)} bookings, stock {stock_before}")
        redis.close()
    finally:
        receiver.close()
        if not S.port_open(stack.kafka.port):
            stack.kafka.start()
        # the runner's worker as it was: stopped here, and started again with its own settings by the runner when
        # another scenario follows (run.py, main), so a run that ends here spends no start on it
        stack.worker.stop(grace=30)
        stack.worker.extra_env = standard
