#!/usr/bin/env python3
"""Queuegate under faults, races and hostile input; the figures are in docs/RELIABILITY.md. Standard library only.

    faults/run.sh                      build the jars if missing, then run every scenario
    python3 faults/run.py [scenario..] run some scenarios; the stack is started and stopped here

Scenarios, in running order: hostile-input, forgery, impersonation, consumer-crash, ingest-crash, booking-crash,
admission-races, kafka-down, kafka-frozen, kafka-broker-loss, redis-frozen, redis-down, redis-loss, redis-last-writes,
redis-failover, redis-failover-behind, overload, slow-clients, audit-backlog.

Starts a private Redis (:6390), a private Kafka broker (:19092/19093) and the services as separate `java -jar`
processes (the redis-failover scenarios a Redis master :6391, its replica :6392 and Sentinels :26391-26393 too;
kafka-broker-loss three brokers :19192-19194 with controllers :19195-19197, and an ingest, a worker and a booking
service of its own on :28120-28122), each by the project's launcher (scripts/redis.sh, scripts/kafka.sh, scripts/service.sh): ingest :28080, admission worker :28081 (more on :28091, :28092), booking :28082, each with its Actuator
500 ports above. Kills, freezes and floods them, and checks that nothing accepted is lost, duplicated or reordered and that nobody passes who should
not. Prints a summary table (also written to .local/faults/summary.md) and exits non-zero when any check fails.
Environment:
  FAULTS_SCALE=0.2     scale every count (default 1: a 50,000-enter burst, 1,000,000 forged tokens)
  FAULTS_FORGERY_HTTP  forged tokens sent over HTTP (default 1,000,000 x FAULTS_SCALE, half status, half booking)
  FAULTS_PORT_BASE, FAULTS_REDIS_PORT, FAULTS_KAFKA_PORT, FAULTS_KAFKA_CONTROLLER_PORT   move the ports
  FAULTS_KAFKA_CLUSTER_PORT  the first of kafka-broker-loss's six broker and controller ports (default 19192)
  FAULTS_SENTINEL_MASTER_PORT, FAULTS_SENTINEL_REPLICA_PORT, FAULTS_SENTINEL_PORT (the first of three)   and these
  FAULTS_REDIS_LOSS_N  the burst redis-loss, redis-last-writes and the redis-failover scenarios kill Redis in
                       (default 20,000 x FAULTS_SCALE)
  FAULTS_REDIS_LOSS_AT the share of that burst answered when Redis is killed (default 0.4); 1 waits for the whole
                       burst to be in the line, to time the rebuild of that many waiting people
  FAULTS_KEEP=1 leaves the stack running; FAULTS_REUSE=1 attaches to a kept one (both for development)
"""
import collections
import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backlog  # noqa: E402
import brokers  # noqa: E402
import door  # noqa: E402
import failover  # noqa: E402
import hostile  # noqa: E402
import impostors  # noqa: E402
import stack as S  # noqa: E402
import versions  # noqa: E402

SCALE = float(os.environ.get("FAULTS_SCALE", "1") or 1)
ENTERS = "/api/v1/queues/{}/entries"


def scaled(n, minimum=1):
    return max(minimum, int(n * SCALE))


# --- results -------------------------------------------------------------------------------------------------

class Report:
    def __init__(self):
        self.checks, self.figures, self.times = [], collections.defaultdict(list), {}

    def check(self, scenario, label, ok, detail=""):
        self.checks.append((scenario, label, bool(ok), "" if ok else str(detail)[:600]))
        S.log(("PASS " if ok else "FAIL ") + f"{scenario}: {label}" + ("" if ok else f" -- {str(detail)[:600]}"))
        return ok

    def figure(self, scenario, label, value):
        self.figures[scenario].append((label, value))
        S.log(f"     {scenario}: {label} = {value}")

    def failed(self):
        return [c for c in self.checks if not c[2]]

    def markdown(self):
        lines = ["| scenario | time | checks held | figures |", "|---|---|---|---|"]
        for scenario in self.times:
            held = [c for c in self.checks if c[0] == scenario]
            ok = sum(c[2] for c in held)
            figs = "; ".join(f"{k}: {v}" for k, v in self.figures.get(scenario, []))
            lines.append(f"| {scenario} | {self.times[scenario]:.0f} s | {ok}/{len(held)} | {figs} |")
        failing = self.failed()
        if failing:
            lines += ["", "Failing checks:"] + [f"- {c[0]}: {c[1]} -- {c[3]}" for c in failing]
        return "\n".join(lines)


R = Report()


# --- the API, as a client sees it ----------------------------------------------------------------------------

# Who a line's places belong to (the queue setting "identity"). The scenarios name their users: the line's checks read
# who is where, a retried enter must keep its place, the log is counted by user. So their lines are "trusted", entered
# the way a shop's backend enters its users, with the enter key; a scenario that needs no names (overload) enters
# visitors, with {}, and impersonation goes through all three.
VISITOR, TRUSTED, PASS = "visitor", "trusted", "pass"


class Api:
    def __init__(self, stack):
        self.stack = stack
        self.admin = {"Authorization": f"Bearer {stack.admin_token}"}
        self.shop = S.key_header(stack.enter_key)  # what the shop's backend enters its users with

    @property
    def ingest(self):
        return self.stack.ingest.base

    def configure(self, p, max_active, rate, ttl, open_=True, identity=TRUSTED, **settings):
        r = S.client(self.stack.worker.base).call(
            "PUT", f"/api/v1/queues/{p}", {"maxActive": max_active, "admitPerSecond": rate,
                                           "entryTtlSeconds": ttl, "open": open_, "identity": identity, **settings},
            self.admin)
        if r.status != 200:
            raise RuntimeError(f"configuring queue {p} failed: {r}")
        return r

    def queue(self, p):
        return S.client(self.stack.worker.base).call("GET", f"/api/v1/queues/{p}", headers=self.admin)

    def enter(self, p, user, timeout=None, client=None):
        """Enters user as the shop's backend does in a line of identity "trusted": named, with the enter key. With
        user None, a visitor's first enter ({}): the server makes the user id. On client, or this thread's."""
        c = client or S.client(self.ingest)
        if user is None:
            return c.call("POST", ENTERS.format(p), {}, timeout=timeout)
        return c.call("POST", ENTERS.format(p), {"userId": user}, self.shop, timeout=timeout)

    def token(self, p, user, within=30):
        """The user's token: enters again, as a client does, while ingest answers 503 (a log that does not acknowledge
        within the publish timeout, as the first sends of a freshly started stack may not); None if none came."""
        return S.wait_for(lambda: (self.enter(p, user, timeout=20).json() or {}).get("token"), within, 0.2)

    def status(self, p, token, timeout=None):
        return S.client(self.ingest).call("GET", ENTERS.format(p) + "/" + token, timeout=timeout)

    def leave(self, p, token, timeout=None):
        return S.client(self.ingest).call("DELETE", ENTERS.format(p) + "/" + token, timeout=timeout)

    def set_stock(self, p, n, timeout=None):
        return S.client(self.stack.booking.base).call("PUT", f"/api/v1/products/{p}/stock", {"available": n},
                                                      self.admin, timeout=timeout)

    def book(self, p, token, qty=1, timeout=None):
        return S.client(self.stack.booking.base).call("POST", "/api/v1/bookings",
                                                      {"productId": p, "token": token, "quantity": qty},
                                                      timeout=timeout)


keys = S.keys


user_of = hostile.user_of  # the user id a token names: the line's sets hold user ids


def stats(redis, p):
    flat = redis("HGETALL", keys(p)["stats"]) or []
    return {flat[i]: flat[i + 1] for i in range(0, len(flat), 2)}


def ms(seconds):
    return f"{seconds * 1000:.0f} ms"


# --- load: clients that enter users one after another, as many browsers would ---------------------------------

class Entrant(threading.Thread):
    """One client thread: enters its users one after another and keeps the order of its 202s.

    With retry=True a refused or unanswered enter is tried again (after Retry-After, at most 0.5 s) until it gets
    a 202 or the deadline passes, as a well-behaved client would; every answer is recorded."""

    def __init__(self, api, p, users, retry=False, deadline=None, stop=None, pace=0.0, timeout=15):
        super().__init__(daemon=True)
        self.api, self.p, self.users, self.retry = api, p, users, retry
        self.deadline, self.stop_event, self.pace, self.timeout = deadline, stop, pace, timeout
        self.accepted = []  # (user, token) in the order the 202s arrived
        self.answers = []   # (t_sent, status, elapsed, retry_after, content_type, error)
        self.tokens_of = {}
        self.unknown = 0    # sent, but no answer (connection dropped): may or may not be stored

    def run(self):
        c = S.Client(self.api.ingest, timeout=self.timeout)
        for user in self.users:
            while True:
                if self.stop_event is not None and self.stop_event.is_set():
                    return
                if self.deadline is not None and time.monotonic() > self.deadline:
                    return
                t = time.monotonic()
                r = self.api.enter(self.p, user, client=c)
                self.answers.append((t, r.status, r.elapsed, r.header("Retry-After"), r.header("Content-Type"),
                                     r.error))
                if r.status == 202:
                    token = (r.json() or {}).get("token")
                    if user in self.tokens_of and self.tokens_of[user] != token:
                        self.tokens_of[user + "#changed"] = token
                    self.tokens_of[user] = token
                    self.accepted.append((user, token))
                    break
                if r.status == 0:
                    self.unknown += 1
                if not self.retry:
                    break
                wait = 0.25 if r.status == 0 else 0.05  # nothing listening: do not spin on refused connects
                if r.header("Retry-After"):
                    try:
                        wait = min(0.5, float(r.header("Retry-After")))
                    except ValueError:
                        pass
                time.sleep(wait)
            if self.pace:
                time.sleep(self.pace)


def run_entrants(api, p, n, threads, tag, **kw):
    per = [[f"{tag}-{t}-{i}" for i in range(t, n, threads)] for t in range(threads)]
    return [Entrant(api, p, users, **kw) for users in per]


def progress(entrants):
    return sum(len(e.answers) for e in entrants)


def join(entrants, timeout=600):
    end = time.monotonic() + timeout
    for e in entrants:
        e.join(max(0.1, end - time.monotonic()))


def accepted_tokens(entrants):
    return [tok for e in entrants for _, tok in e.accepted]


def wait_applied(redis, p, tokens, timeout):
    """Waits until the line has placed every token's user (waiting, entry or gone); returns the seconds it took,
    or None."""
    t0 = time.monotonic()
    want = {user_of(t) for t in tokens}
    k = keys(p)
    while True:
        if redis("ZCARD", k["waiting"]) + redis("ZCARD", k["entry"]) + redis("SCARD", k["gone"]) >= len(want):
            waiting, entry, gone, _ = line_snapshot(redis, p)
            if want <= set(waiting) | set(entry) | gone:
                return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            return None
        time.sleep(0.5)


LINE = """
return {redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES'), redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES'),
        redis.call('SMEMBERS', KEYS[3]), redis.call('HGETALL', KEYS[4])}
"""


def line_snapshot(redis, p):
    """waiting, entry (user -> score), gone (a set of users) and stats of p, read in one atomic step (admission
    may move users meanwhile)."""
    k = keys(p)
    parts = redis.eval(LINE, [k["waiting"], k["entry"], k["gone"], k["stats"]])
    pairs = [{f[i]: f[i + 1] for i in range(0, len(f), 2)} for f in (parts[0], parts[1], parts[3])]
    return ({u: float(s) for u, s in pairs[0].items()}, {u: float(s) for u, s in pairs[1].items()}, set(parts[2]),
            pairs[2])


def check_line(scenario, redis, p, entrants, extra_ok_tokens=()):
    """Every 202 token's user is in the line exactly once, in the order each client got its 202s; nothing else is."""
    waiting, entry, gone, st = line_snapshot(redis, p)
    accepted = [user_of(t) for t in accepted_tokens(entrants)]
    distinct = set(accepted)
    extra_ok = {user_of(t) for t in extra_ok_tokens}
    placed = set(waiting) | set(entry) | gone
    missing = [u for u in distinct if u not in placed]
    R.check(scenario, "every token that got a 202 is in the line", not missing,
            f"{len(missing)} of {len(distinct)} missing, e.g. {missing[:2]}")
    both = set(waiting) & set(entry)
    R.check(scenario, "no token in waiting and entry at once", not both, f"{len(both)}: {list(both)[:2]}")
    held = set(waiting) | set(entry)
    not_placed = [u for u in distinct if u not in held]
    R.check(scenario, "every 202 token holds a place (waiting or entry)", not not_placed,
            f"{len(not_placed)} without a place, e.g. {not_placed[:2]}")
    strangers = [u for u in placed if u not in distinct and u not in extra_ok]
    # a request whose answer was lost (crash, timeout) may still have been stored; anything else is a stranger
    unknown = sum(e.unknown for e in entrants) + sum(1 for e in entrants for a in e.answers if a[1] == 503)
    R.check(scenario, "the line holds no token nobody asked for", len(strangers) <= unknown,
            f"{len(strangers)} tokens without a 202, more than the {unknown} requests left unanswered or refused")
    seq = int(st.get("seq", 0))
    entered = int(st.get("enteredTotal", 0))
    # each set holds a user once; a user applied twice would sit in two of them, or take two sequence numbers
    dup = len(both) + len(set(waiting) & gone) + len(set(entry) & gone)
    scores = [int(s) for s in waiting.values()]
    applied = len(placed)
    R.check(scenario, "each applied once: in one place only, seq == enteredTotal == applied users",
            dup == 0 and seq == entered == applied, f"dup={dup} seq={seq} enteredTotal={entered} applied={applied}")
    bad_scores = len(scores) - len(set(scores)) + sum(1 for v in scores if not 1 <= v <= seq)
    R.check(scenario, "waiting scores are distinct sequence numbers (1..seq)", bad_scores == 0, bad_scores)
    # Admission takes the head of the line, so of one client's users those admitted (in entry or gone) come first,
    # and those still waiting follow in the order of their 202s.
    order_breaks, pairs = 0, 0
    for e in entrants:
        prev = None
        for _, tok in e.accepted:
            u = user_of(tok)
            if u not in placed:
                continue
            s = waiting.get(u, 0.0)  # admitted: ahead of everyone still waiting
            if prev is not None:
                pairs += 1
                if s < prev or (s == prev and s > 0):
                    order_breaks += 1
            prev = s
    R.check(scenario, "causal order: each client's later 202 stands behind its earlier one",
            order_breaks == 0, f"{order_breaks} of {pairs} consecutive pairs out of order")
    return {"accepted": len(accepted), "distinct": len(distinct), "pairs": pairs, "missing": len(missing),
            "dup": dup, "order_breaks": order_breaks}


def line_figure(scenario, res):
    """The figure every line check reports, from check_line's result."""
    R.figure(scenario, "missing / duplicated / out of order",
             f"{res['missing']} / {res['dup']} / {res['order_breaks']} of {res['accepted']:,} accepted "
             f"({res['pairs']:,} ordered pairs)")


def redis_of(stack):
    return S.Redis(stack.redis.port, timeout=30)


# --- scenarios -------------------------------------------------------------------------------------------------

def consumer_crash(stack, api):
    """kill -9 the admission worker (the only writer of waiting) in the middle of a 50,000-enter burst."""
    sc = "consumer-crash"
    redis = redis_of(stack)
    p = S.new_product()
    api.configure(p, 1, 1, 3600)  # one admitted at most: the line stays in waiting, where it can be inspected
    n, threads = scaled(50_000, 200), 64
    es = run_entrants(api, p, n, threads, "cc")
    t0 = time.monotonic()
    for e in es:
        e.start()
    S.wait_for(lambda: progress(es) >= n * 0.4, 300, 0.01)
    applied_at_kill, answered_at_kill = int(stats(redis, p).get("enteredTotal", 0)), progress(es)
    stack.worker.kill9()
    t_kill = time.monotonic()
    stack.worker.start()
    join(es)
    burst = time.monotonic() - t0
    stack.worker.wait_healthy()
    t_up = time.monotonic()
    took = wait_applied(redis, p, accepted_tokens(es), 180)
    statuses = collections.Counter(a[1] for e in es for a in e.answers)
    R.check(sc, f"all {n} enters answered 202 during the burst", statuses.get(202, 0) == n, dict(statuses))
    R.check(sc, "the line caught up after the restart", took is not None, "not all 202 tokens applied in 180 s")
    res = check_line(sc, redis, p, es)
    R.figure(sc, "enters (202)", f"{res['accepted']:,}")
    R.figure(sc, "burst", f"{burst:.1f} s ({n / burst:,.0f}/s, 64 client threads)")
    R.figure(sc, "killed at", f"{answered_at_kill:,} answered, {applied_at_kill:,} of them in the line")
    R.figure(sc, "worker restart to healthy", f"{t_up - t_kill:.1f} s")
    R.figure(sc, "line complete after restart", f"{(t_up - t_kill) + (took or 0):.1f} s after the kill")
    line_figure(sc, res)


def ingest_crash(stack, api):
    """kill -9 ingest-service mid-burst; every 202 it gave must survive."""
    sc = "ingest-crash"
    redis = redis_of(stack)
    p = S.new_product()
    api.configure(p, 1, 1, 3600)
    n, threads = scaled(10_000, 200), 64
    es = run_entrants(api, p, n, threads, "ic", retry=True, deadline=time.monotonic() + 240)
    t0 = time.monotonic()
    for e in es:
        e.start()
    S.wait_for(lambda: progress(es) >= n * 0.4, 300, 0.01)
    before_kill = {tok for e in es for _, tok in e.accepted}
    stack.ingest.kill9()
    t_kill = time.monotonic()
    time.sleep(1)
    stack.ingest.start()
    stack.ingest.wait_healthy()
    t_up = time.monotonic()
    join(es, 300)
    burst = time.monotonic() - t0
    took = wait_applied(redis, p, accepted_tokens(es), 180)
    R.check(sc, "the line caught up", took is not None, "not all 202 tokens applied in 180 s")
    waiting, entry, gone, _ = line_snapshot(redis, p)
    placed = set(waiting) | set(entry) | gone
    lost = [t for t in before_kill if user_of(t) not in placed]
    R.check(sc, "every 202 given before the kill survives", not lost, f"{len(lost)} lost, e.g. {lost[:2]}")
    res = check_line(sc, redis, p, es)
    got = sum(len(e.accepted) for e in es)
    R.check(sc, "every user got a 202 once ingest was back (retrying)", got == n, f"{got} of {n}")
    changed = sum(1 for e in es for u in e.tokens_of if u.endswith("#changed"))
    R.check(sc, "a retried enter gets the same token", changed == 0, changed)
    errors = sum(1 for e in es for a in e.answers if a[1] == 0)
    R.figure(sc, "enters (202)", f"{got:,}; {len(before_kill):,} of them before the kill")
    R.figure(sc, "requests without answer while ingest was down", f"{errors:,} (connection refused/reset)")
    R.figure(sc, "ingest restart to healthy", f"{t_up - t_kill:.1f} s")
    R.figure(sc, "burst incl. outage", f"{burst:.1f} s")
    line_figure(sc, res)


class Booker(threading.Thread):
    """One buyer's client at the booking counter: books each of its users once, as a page would. A 503 or an unanswered
    request (the service killed, not yet back) is tried again with the same token; so is a 403 that follows an
    unanswered request, whose booking may be a reservation the crash stranded, until the deadline. Every answer is
    kept."""

    def __init__(self, api, p, tokens, deadline, pace):
        super().__init__(daemon=True)
        self.api, self.p, self.tokens, self.deadline, self.pace = api, p, tokens, deadline, pace
        self.booked = {}    # user -> booking id of the 201
        self.answers = collections.Counter()
        self.gave_up = []   # users still refused at the deadline

    def run(self):
        for user, token in self.tokens:
            unknown_until = None  # a 403 is tried again until then: the sweeper settles within about 12 s
            while True:
                r = self.api.book(self.p, token, timeout=10)
                self.answers[r.status] += 1
                if r.status == 201:
                    self.booked[user] = (r.json() or {}).get("bookingId")
                    break
                if r.status == 0 and unknown_until is None:
                    unknown_until = time.monotonic() + 25
                stranded = r.status == 403 and unknown_until is not None and time.monotonic() < unknown_until
                if time.monotonic() > self.deadline or (r.status not in (0, 503) and not stranded):
                    self.gave_up.append((user, r.status))
                    break
                time.sleep(0.25)
            time.sleep(self.pace)


def settled_by_sweeper(worker):
    """The worker's queuegate.reservations.settled counters, by outcome, from its Prometheus page."""
    out = {}
    r = S.client(worker.management).call("GET", "/actuator/prometheus", headers={"Accept": "text/plain"}, timeout=10)
    for line in (r.body or "").splitlines():
        if line.startswith("queuegate_reservations_settled_total{"):
            outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
            out[outcome] = out.get(outcome, 0) + float(line.rsplit(" ", 1)[1])
    return out


def booking_crash(stack, api):
    """kill -9 booking-service under a stream of bookings, restart it: every consumed token has its booking in the log
    or is usable again, the stock is the initial stock less what the log sold, nobody is booked twice."""
    sc = "booking-crash"
    redis = redis_of(stack)
    p = S.new_product()
    k = keys(p)
    n, threads = scaled(600, 120), 24
    stock = n + 100  # never sold out: every buyer can book once the counter is back
    api.configure(p, n, 1000, 600)
    r = api.set_stock(p, stock, timeout=20)
    R.check(sc, "stock set", r.status == 200, r)
    es = run_entrants(api, p, n, 16, "bk", retry=True, deadline=time.monotonic() + 60)
    for e in es:
        e.start()
    join(es, 90)
    tokens = {u: t for e in es for u, t in e.accepted}
    admitted = S.wait_for(lambda: int(redis("ZCARD", k["entry"]) or 0) >= n, 60, 0.2)
    R.check(sc, f"all {n} users entered and admitted", len(tokens) == n and admitted,
            f"{len(tokens)} entered, {redis('ZCARD', k['entry'])} admitted")
    users = sorted(tokens)
    # the sweeper waits the publish timeout and its margin (2 s + 10 s by default) before it settles a reservation
    deadline = time.monotonic() + 60
    bookers = [Booker(api, p, [(u, tokens[u]) for u in users[i::threads]], deadline, 0.02) for i in range(threads)]
    for b in bookers:
        b.start()
    S.wait_for(lambda: sum(len(b.booked) for b in bookers) >= n * 0.3, 60, 0.01)
    # kill while reservations are in flight: between the gate's reservation and the booking's publish
    S.wait_for(lambda: int(redis("HLEN", k["reservations"]) or 0) > 0, 10, 0)
    stack.booking.kill9()
    t_kill = time.monotonic()
    stranded = int(redis("HLEN", k["reservations"]) or 0)
    booked_at_kill = sum(len(b.booked) for b in bookers)
    stack.booking.start()
    stack.booking.wait_healthy()
    t_up = time.monotonic()
    settled = S.wait_for(lambda: int(redis("HLEN", k["reservations"]) or 0) == 0, 40, 0.2)
    t_settled = time.monotonic()
    for b in bookers:
        b.join(max(1, deadline - time.monotonic() + 15))
    R.check(sc, "the kill stranded reservations (reserved, not yet published)", stranded > 0, stranded)
    R.check(sc, "no reservation stranded: every one settled (confirmed or released) after the restart", settled,
            f"{redis('HLEN', k['reservations'])} reservations left")
    # the releases' RESTORED changes reach the audit topic through the relay
    S.wait_for(lambda: int(redis("XLEN", k["audit"]) or 0) == 0, 30, 0.2)
    bootstrap = f"127.0.0.1:{stack.kafka.port}"
    undone = {e.get("bookingId") for e in brokers.log_events(bootstrap, brokers.AUDIT)
              if e.get("productId") == p and e.get("type") == "RESTORED"}
    in_log = [b for b in brokers.log_events(bootstrap, brokers.BOOKINGS) if b.get("productId") == p]
    standing = [b for b in in_log if b["bookingId"] not in undone]
    per_user = collections.Counter(b["userId"] for b in standing)
    twice = [u for u, c in per_user.items() if c > 1]
    R.check(sc, "nobody is booked twice (bookings in the log, less those a RESTORED change undid)", not twice,
            f"{len(twice)} users, e.g. {twice[:3]}")
    left = int(redis("GET", k["stock"]) or 0)
    sold = sum(int(b.get("quantity", 1)) for b in standing)
    R.check(sc, "stock = initial - units of the bookings in the log", left == stock - sold,
            f"stock {left}, initial {stock}, {sold} units booked in the log")
    gone = set(redis("SMEMBERS", k["gone"]) or [])
    entry = set(redis("ZRANGE", k["entry"], 0, -1) or [])
    consumed_unbooked = [u for u in gone if u not in per_user]
    R.check(sc, "every consumed token has its booking in the log or is usable again", not consumed_unbooked,
            f"{len(consumed_unbooked)} consumed without a booking in the log, e.g. {consumed_unbooked[:3]}")
    lost = [u for u in users if u not in per_user and u not in entry]
    R.check(sc, "every buyer is booked in the log or still holds a usable entry", not lost,
            f"{len(lost)}, e.g. {lost[:3]}")
    told = {u: bid for b in bookers for u, bid in b.booked.items()}
    standing_ids = {b["bookingId"] for b in standing}
    untrue = [u for u, bid in told.items() if bid not in standing_ids]
    R.check(sc, "every 201 names a booking that stands in the log", not untrue, f"{len(untrue)}, e.g. {untrue[:3]}")
    # a buyer whose answer the kill took may be booked without a 201: the log says so, and the retry reads 403
    gave_up = [g for b in bookers for g in b.gave_up if g[0] not in per_user]
    R.check(sc, "every buyer booked in the end (a 201, or the booking in the log), retrying the same token",
            not gave_up and len(set(told) | set(per_user)) == n,
            f"{len(set(told) | set(per_user))} of {n} booked; refused at the end: {gave_up[:5]}")
    statuses = sum((b.answers for b in bookers), collections.Counter())
    R.figure(sc, "bookings", f"{len(told):,} of {n:,} users; {booked_at_kill:,} before the kill")
    R.figure(sc, "reservations in flight at the kill", stranded)
    swept = settled_by_sweeper(stack.worker)
    R.figure(sc, "settled by the sweeper", f"{swept.get('confirmed', 0):.0f} confirmed (in the log), "
             f"{swept.get('released', 0):.0f} released; {len(in_log) - len(standing)} released bookings in the log "
             f"all the same")
    R.figure(sc, "answers", dict(sorted(statuses.items())))
    R.figure(sc, "booking restart to healthy", f"{t_up - t_kill:.1f} s")
    R.figure(sc, "nothing reserved unsettled", f"{t_settled - t_kill:.1f} s after the kill")


SNAPSHOT = """
local e = redis.call('ZCARD', KEYS[1])
local w = redis.call('ZCARD', KEYS[2])
local both = 0
local m = redis.call('ZRANGE', KEYS[1], 0, -1)
for i = 1, #m do if redis.call('ZSCORE', KEYS[2], m[i]) then both = both + 1 end end
local s = redis.call('HMGET', KEYS[3], 'enteredTotal', 'admittedTotal', 'expiredTotal', 'leftTotal', 'consumedTotal')
return {e, w, both, s[1] or '0', s[2] or '0', s[3] or '0', s[4] or '0', s[5] or '0'}
"""


def admission_races(stack, api):
    """Three admission workers walk one queue (its lease holder steps it) while users leave; one is killed."""
    sc = "admission-races"
    redis = redis_of(stack)
    fast = {"QUEUEGATE_ADMISSION_TICK_INTERVAL": "10ms"}
    extra = [stack.add("admission-worker", S.PORT_BASE + 11 + i, **fast) for i in range(2)]
    for w in extra:  # they start while the line is filled; they join the consumer group too, which is fine
        w.start()
    p = S.new_product()
    max_active, n = 150, scaled(3000, 300)
    api.configure(p, 1, 1, 3600)
    es = run_entrants(api, p, n, 32, "ar")
    for e in es:
        e.start()
    join(es)
    tokens = accepted_tokens(es)
    R.check(sc, f"{n} users entered", len(tokens) == n, len(tokens))
    api.configure(p, 1, 1, 3600, open_=False)  # a closed queue admits nobody
    applied = wait_applied(redis, p, tokens, 120)
    R.check(sc, "all applied before the race starts", applied is not None)
    token_of = {user_of(t): t for t in tokens}
    for user in redis("ZRANGE", keys(p)["entry"], 0, -1):  # those admitted under the long set-up TTL leave
        api.leave(p, token_of[user])
    for w in extra:
        w.wait_healthy()
    k = keys(p)
    violations = collections.Counter()
    samples, max_seen, stop = [0], [0], threading.Event()

    def monitor():
        mon = redis_of(stack)
        while not stop.is_set():
            e, w, both, entered, admitted, expired, left, consumed = map(int, mon.eval(
                SNAPSHOT, [k["entry"], k["waiting"], k["stats"]]))
            samples[0] += 1
            max_seen[0] = max(max_seen[0], e)
            if e > max_active:
                violations["active above maxActive"] += 1
            if both:
                violations["token in waiting and entry"] += 1
            if entered != w + e + expired + left + consumed:
                violations["entered != waiting + active + expired + left + consumed"] += 1
            time.sleep(0.002)

    leavers = random.sample(tokens, len(tokens) // 10)
    left_answers = collections.Counter()

    def leave_some():
        for tok in leavers:
            if stop.is_set():
                return
            left_answers[api.leave(p, tok).status] += 1
            time.sleep(random.random() * 0.01)

    api_samples = []

    def poll_api():
        while not stop.is_set():
            j = api.queue(p).json() or {}
            if "active" in j:
                api_samples.append(j["active"])
            time.sleep(0.05)

    threads = [threading.Thread(target=f, daemon=True) for f in (monitor, leave_some, poll_api)]
    for t in threads:
        t.start()
    try:
        t0 = time.monotonic()
        # the race begins: three workers (two ticking every 10 ms), one-second entries, a fast bucket
        api.configure(p, max_active, 5000, 1)
        victim = extra[-1]
        S.wait_for(lambda: int(stats(redis, p).get("admittedTotal", 0)) >= n * 0.3, 120, 0.005)
        victim.kill9()
        kill_admitted = int(stats(redis, p).get("admittedTotal", 0))
        victim.start()

        def drained():
            return redis("ZCARD", k["waiting"]) == 0 and redis("ZCARD", k["entry"]) == 0

        done = S.wait_for(drained, 240, 0.2)
        elapsed = time.monotonic() - t0
        victim.wait_healthy()
        time.sleep(0.5)
    finally:  # the monitor polls Redis every 2 ms: it must not outlive the scenario, however it ends
        stop.set()
        for t in threads:
            t.join(30)
    st = stats(redis, p)
    R.check(sc, "the line drained (every user admitted and expired, or left)", done,
            f"waiting={redis('ZCARD', k['waiting'])} entry={redis('ZCARD', k['entry'])}")
    R.check(sc, "active never above maxActive (Redis snapshots)", violations["active above maxActive"] == 0,
            f"{violations['active above maxActive']} of {samples[0]} snapshots; max {max_seen[0]}")
    R.check(sc, "active never above maxActive (admin API)", max(api_samples or [0]) <= max_active,
            max(api_samples or [0]))
    R.check(sc, "no token in waiting and entry at once", violations["token in waiting and entry"] == 0,
            violations["token in waiting and entry"])
    R.check(sc, "none lost: entered == waiting + active + expired + left in every snapshot",
            violations["entered != waiting + active + expired + left + consumed"] == 0, dict(violations))
    entered, expired, left = int(st.get("enteredTotal", 0)), int(st.get("expiredTotal", 0)), \
        int(st.get("leftTotal", 0))
    R.check(sc, "at the end every user either expired or left, once", entered == n and expired + left == n,
            f"entered={entered} expired={expired} left={left} n={n}")
    admitted = int(st.get("admittedTotal", 0))
    R.check(sc, "admitted == expired + left from entry (nobody admitted twice)",
            admitted <= n and admitted >= expired, f"admitted={admitted} expired={expired}")
    for w in extra:
        w.stop(grace=15)
    stack.services[:] = [s for s in stack.services if s not in extra]
    R.figure(sc, "workers", "3 (ticks 200 ms, 10 ms, 10 ms); one killed with SIGKILL at "
                            f"{kill_admitted:,} admitted and restarted")
    R.figure(sc, "users / maxActive / TTL", f"{n:,} / {max_active} / 1 s; {len(leavers)} leave mid-race")
    R.figure(sc, "Redis snapshots checked", f"{samples[0]:,}; max active seen {max_seen[0]}")
    R.figure(sc, "violations", sum(violations.values()))
    R.figure(sc, "race duration", f"{elapsed:.1f} s")


def outage_load(api, p, tag, threads=16):
    """Clients that keep entering new users, retrying each until 202, until stopped."""
    stop = threading.Event()

    def users(t):  # a function of its own, so each client's names carry its own t, not the last one's
        return (f"{tag}-{t}-{i}" for i in range(10**9))
    es = [Entrant(api, p, users(t), retry=True, stop=stop, pace=0.005, timeout=15) for t in range(threads)]
    for e in es:
        e.start()
    return es, stop


def judge_outage(sc, what, es, t_from, t_to, bound):
    """Answers given to requests sent between t_from and t_to (the outage)."""
    during = [a for e in es for a in e.answers if t_from <= a[0] <= t_to]
    codes = collections.Counter(a[1] for a in during)
    refused = [a for a in during if a[1] == 503]
    slow = [a for a in during if a[2] > bound]
    R.check(sc, f"{what}: enter answered 503 (or 202) and nothing else", set(codes) <= {202, 503} and refused,
            dict(codes))
    R.check(sc, f"{what}: every 503 carries Retry-After and problem+json",
            all(a[3] and "problem+json" in (a[4] or "") for a in refused),
            [a for a in refused if not (a[3] and "problem+json" in (a[4] or ""))][:2])
    R.check(sc, f"{what}: no answer slower than {bound:.0f} s (no hang)", not slow,
            f"{len(slow)} slow, max {max(a[2] for a in during):.1f} s" if during else "no requests")
    return codes, max((a[2] for a in during), default=0), S.pct([a[2] for a in refused], 0.5)


def first_202_after(es, t):
    times = [a[0] + a[2] for e in es for a in e.answers if a[1] == 202 and a[0] >= t]
    return min(times) - t if times else None


def kafka_down(stack, api):
    """The broker killed with SIGKILL for 8 s: enter answers 503 + Retry-After in bounded time; everything
    accepted before and around the outage arrives once it is back."""
    sc = "kafka-down"
    redis = redis_of(stack)
    p = S.new_product()
    api.configure(p, 1, 1, 3600)
    # accepted events that exist only in Kafka: the worker (the only consumer) is down while they are accepted
    stack.worker.kill9()
    pre = run_entrants(api, p, scaled(3000, 100), 32, "kd-pre")
    for e in pre:
        e.start()
    join(pre)
    es, t_down, t_restart, t_up = broker_outage(api, p, "kd", stack.kafka.kill9, stack.kafka.start)
    stack.worker.start()
    stack.worker.wait_healthy()
    codes, worst, median = judge_outage(sc, "broker killed", es, t_down + 0.5, t_restart, 5.0)
    back = first_202_after(es, t_up)
    R.check(sc, "enters are accepted again after the broker is back", back is not None)
    all_es = pre + es
    took = wait_applied(redis, p, accepted_tokens(all_es), 180)
    R.check(sc, "everything accepted before and around the outage arrived", took is not None)
    res = check_line(sc, redis, p, all_es)
    R.figure(sc, "accepted before the outage (worker stopped, only in Kafka)",
             f"{sum(len(e.accepted) for e in pre):,}")
    R.figure(sc, "answers while the broker was down", f"{dict(codes)}; median 503 in {ms(median)}, "
                                                      f"slowest answer {worst:.2f} s")
    R.figure(sc, "broker restart", f"{t_up - t_restart:.1f} s; first 202 {back or 0:.1f} s after it was up")
    line_figure(sc, res)


def broker_outage(api, p, prefix, take_down, bring_back):
    """Enters under load while the broker is taken down for 8 s, until the first 202 after it is back and 3 s more.
    Returns the entrants, when it was taken down, when bringing it back began and when that call returned."""
    es, stop = outage_load(api, p, prefix)
    time.sleep(2)
    t_down = time.monotonic()
    take_down()
    time.sleep(8)
    t_back = time.monotonic()
    bring_back()
    t_up = time.monotonic()
    S.wait_for(lambda: first_202_after(es, t_up) is not None, 60, 0.1)
    time.sleep(3)
    stop.set()
    join(es, 60)
    return es, t_down, t_back, t_up

def kafka_frozen(stack, api):
    """The broker paused with SIGSTOP for 8 s: enter answers 503 + Retry-After in bounded time; everything
    accepted before and around the pause arrives after SIGCONT."""
    sc = "kafka-frozen"
    redis = redis_of(stack)
    p = S.new_product()
    api.configure(p, 1, 1, 3600)
    es, t_pause, t_resume, _ = broker_outage(api, p, "kf", stack.kafka.pause, stack.kafka.resume)
    codes, worst, median = judge_outage(sc, "broker paused", es, t_pause + 0.5, t_resume, 5.0)
    back = first_202_after(es, t_resume)
    R.check(sc, "enters are accepted again after SIGCONT", back is not None)
    took = wait_applied(redis, p, accepted_tokens(es), 180)
    R.check(sc, "everything accepted before and around the pause arrived", took is not None)
    res = check_line(sc, redis, p, es)
    R.figure(sc, "answers while the broker was paused", f"{dict(codes)}; median 503 in {ms(median)}, "
                                                        f"slowest answer {worst:.2f} s")
    R.figure(sc, "first 202 after SIGCONT", f"{back or 0:.1f} s")
    line_figure(sc, res)


def kafka_broker_loss(stack, api):
    brokers.kafka_broker_loss(stack, sys.modules[__name__])


kafka_broker_loss.__doc__ = brokers.kafka_broker_loss.__doc__


def audit_backlog(stack, api):
    backlog.audit_backlog(stack, sys.modules[__name__])


audit_backlog.__doc__ = backlog.audit_backlog.__doc__


def redis_frozen(stack, api):
    """The (private) Redis paused with SIGSTOP for 6 s: status, leave, booking and admin answer 503 problem+json
    in bounded time; the consumer retries without losing or skipping; everything recovers without restarts."""
    redis_outage(stack, api, "redis-frozen", stack.redis.freeze, stack.redis.thaw)


def redis_down(stack, api):
    """The (private) Redis shut down for 6 s, then started again on its snapshot: as for redis-frozen."""
    redis_outage(stack, api, "redis-down", stack.redis.shutdown_saving, lambda: stack.redis.start(fresh=False))


def redis_outage(stack, api, sc, freeze, thaw):
    redis = redis_of(stack)
    p = S.new_product()
    api.configure(p, 3, 1000, 600)
    api.set_stock(p, 100)
    users = [f"{sc}-{i}" for i in range(12)]
    toks = [api.token(p, u) for u in users]
    S.wait_for(lambda: sum((api.status(p, t).json() or {}).get("status") == "AVAILABLE" for t in toks) == 3
               and all((api.status(p, t).json() or {}).get("status") in ("WAITING", "AVAILABLE") for t in toks),
               30, 0.2)
    st = {t: (api.status(p, t).json() or {}).get("status") for t in toks}
    available = [t for t in toks if st[t] == "AVAILABLE"]
    waiting = [t for t in toks if st[t] == "WAITING"]
    if not R.check(sc, "set-up: 3 admitted and 9 waiting", len(available) == 3 and len(waiting) == 9, st):
        return
    pids = {s.name: s.pid() for s in stack.services}
    es, stop = outage_load(api, p, sc, threads=4)
    time.sleep(1.5)
    t_out = time.monotonic()
    freeze()
    probes = []

    def probe(name, fn):
        t = time.monotonic()
        r = fn()
        probes.append((name, r, time.monotonic() - t))

    unknown = S.new_product()
    calls = [
        ("status WAITING", lambda: api.status(p, waiting[0], timeout=20)),
        ("status AVAILABLE", lambda: api.status(p, available[0], timeout=20)),
        ("leave", lambda: api.leave(p, waiting[1], timeout=20)),
        ("booking", lambda: api.book(p, available[1], timeout=20)),
        ("booking lookup", lambda: S.client(stack.booking.base).call(
            "GET", f"/api/v1/bookings/{p}-00000000-0000-0000-0000-000000000000", timeout=20)),
        ("admin queue read", lambda: S.client(stack.worker.base).call(
            "GET", f"/api/v1/queues/{p}", headers=api.admin, timeout=20)),
        ("admin stock write", lambda: api.set_stock(p, 100, timeout=20)),
        ("enter an uncached queue", lambda: api.enter(unknown, "someone", timeout=20)),
    ]
    time.sleep(0.3)
    for _ in range(3):
        ts = [threading.Thread(target=probe, args=c) for c in calls]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        time.sleep(1)
    time.sleep(max(0.0, 6 - (time.monotonic() - t_out)))
    t_back = time.monotonic()
    thaw()
    recovered = S.wait_for(lambda: api.status(p, waiting[0], timeout=5).status == 200, 60, 0.1)
    t_rec = time.monotonic() - t_back
    time.sleep(2)
    stop.set()
    join(es, 60)
    bad = [(n, r.status, r.error, r.body[:80]) for n, r, _ in probes
           if not (r.status == 503 and "problem+json" in (r.header("Content-Type") or "")
                   and (r.json() or {}).get("code") == "unavailable")]
    R.check(sc, "status, leave, booking, admin and uncached enter answer 503 problem+json "
                "code=unavailable", not bad, bad[:4])
    slow = [(n, round(d, 1)) for n, _, d in probes if d > 3.0]
    R.check(sc, "each within 3 s (no hang)", not slow, slow)
    no_retry_after = [n for n, r, _ in probes if r.status == 503 and not r.header("Retry-After")]
    R.check(sc, "each 503 carries Retry-After", not no_retry_after, no_retry_after)
    codes = collections.Counter(a[1] for e in es for a in e.answers if t_out <= a[0] <= t_back)
    R.check(sc, "enters meanwhile: 202 (queue known, Kafka up) or 503, never 5xx else or a hang",
            set(codes) <= {202, 503}, dict(codes))
    R.check(sc, "recovered without restarts: status answers 200 again", recovered, "no 200 within 60 s")
    same = all(s.alive() and pids.get(s.name) == s.pid() for s in stack.services)
    R.check(sc, "no service restarted or died", same)
    # the booking refused with 503 took nothing: the token still books, the stock is whole. A Redis that restarted
    # (redis-down) answers bookings 503 with Retry-After until the worker has restored the sale onto it; a client
    # retries as told.
    r = api.book(p, available[1])
    retry_until = time.monotonic() + 30
    while r.status == 503 and time.monotonic() < retry_until:
        time.sleep(float(r.header("Retry-After") or 1))
        r = api.book(p, available[1])
    R.check(sc, "a booking answered 503 took nothing: the same token books afterwards (201)", r.status == 201,
            f"{r}; stock now {redis('GET', keys(p)['stock'])}, "
            f"bookings {redis('HLEN', keys(p)['bookings'])}")
    took = wait_applied(redis, p, accepted_tokens(es), 120)
    R.check(sc, "the consumer caught up: every enter accepted during the outage is in the line",
            took is not None)
    res = check_line(sc, redis, p, es, extra_ok_tokens=set(toks))
    latencies = [d for _, r, d in probes]
    R.figure(sc, "probes during the outage", f"{len(probes)}: {dict(collections.Counter(r.status for _, r, _ in probes))}"
                                             f", slowest {max(latencies):.2f} s")
    R.figure(sc, "enters during the outage", dict(codes))
    R.figure(sc, "recovery after thaw/restart", f"{t_rec:.1f} s to the first 200")
    line_figure(sc, res)
    redis.close()


def redis_loss(stack, api):
    """The private Redis killed mid-burst and started again empty: the sale comes back from the log."""
    lose_redis(stack, api, "redis-loss", older=False)


def redis_last_writes(stack, api):
    """The private Redis killed mid-burst and started again from a snapshot taken earlier in the burst (same id, its
    last writes lost, as AOF everysec or a replica a moment behind): the sale comes back from the log."""
    lose_redis(stack, api, "redis-last-writes", older=True)


def redis_failover(stack, api):
    """The Redis master SIGKILLed mid-burst under services that follow it through Sentinel (faults/failover.py): the
    replica is promoted, the services follow, and nothing accepted is lost."""
    lose_redis(stack, api, "redis-failover", older=False, sentinels=failover.sentinels(stack))


def redis_failover_behind(stack, api):
    """As redis-failover, but the replica stopped replicating earlier in the burst, so the one promoted misses the
    master's last enters, bookings, admissions and a leave: they come back from the log."""
    lose_redis(stack, api, "redis-failover-behind", older=True, sentinels=failover.sentinels(stack))


def lose_redis(stack, api, sc, older, sentinels=None):
    """Mid-burst, with people waiting, admitted and booked, the private Redis is SIGKILLed and started again: empty,
    or (older) from a snapshot taken at half the kill's point, after which more enters, bookings, admissions and a
    leave were made. Afterwards every 202 is placed again in log order, nobody books twice, nothing oversells.
    With sentinels, the master of a Sentinel group is SIGKILLed and its replica promoted instead; older, the replica
    stopped replicating at three quarters of the kill's point (close to the kill, as the Sentinels promote no replica
    whose link has been down for long) and misses what followed."""
    redis = sentinels.master() if sentinels else redis_of(stack)
    p = S.new_product()
    max_active, stock = 20, 30
    api.configure(p, max_active, 5, 600)
    R.check(sc, "set-up: stock set", api.set_stock(p, stock).status == 200)
    # Before the burst: 40 in line, 20 admitted, 8 of them book, one waiting user leaves.
    first = [(u, api.token(p, u)) for u in (f"rl-first-{i:02d}" for i in range(40))]
    S.wait_for(lambda: redis("ZCARD", keys(p)["entry"]) >= max_active, 60, 0.2)
    admitted = [t for _, t in first if (api.status(p, t).json() or {}).get("status") == "AVAILABLE"]
    bookings = {}
    for t in admitted[:8]:
        r = api.book(p, t)
        if r.status == 201:
            bookings[t] = (r.json() or {}).get("bookingId")
    waiting_first = [t for _, t in first if (api.status(p, t).json() or {}).get("status") == "WAITING"]
    leavers = [waiting_first[-1]]
    R.check(sc, "set-up: 20 admitted, 8 booked, one waiting user left",
            len(admitted) == max_active and len(bookings) == 8 and api.leave(p, leavers[0]).status == 204,
            f"admitted {len(admitted)}, booked {len(bookings)}")
    time.sleep(1.5)  # the audit relay has sent the admissions and the leave to Kafka

    n, threads = env_int_or("FAULTS_REDIS_LOSS_N", scaled(20_000, 200)), 32
    es = run_entrants(api, p, n, threads, "rl")
    t0 = time.monotonic()
    for e in es:
        e.start()
    at = float(os.environ.get("FAULTS_REDIS_LOSS_AT", "") or 0.4)
    if older:
        # the older state Redis comes back with: everything up to here is kept, everything after it lost
        S.wait_for(lambda: progress(es) >= n * min(at, 1) * (0.75 if sentinels else 0.5), 300, 0.01)
        if sentinels:
            sentinels.stop_replication()
        else:
            redis("SAVE")
        answered_at_snapshot = progress(es)
        in_snapshot = redis("ZCARD", keys(p)["waiting"])  # at most what the snapshot holds
        # after the snapshot: four more bookings (their places are admitted again) and one more leave
        for t in admitted[8:12]:
            r = api.book(p, t)
            if r.status == 201:
                bookings[t] = (r.json() or {}).get("bookingId")
        leavers.append(waiting_first[-2])
        R.check(sc, f"after the {'replica stopped' if sentinels else 'snapshot'}: 4 more booked, their places "
                    "admitted again, one more left",
                len(bookings) == 12 and api.leave(p, leavers[-1]).status == 204
                and S.wait_for(lambda: redis("ZCARD", keys(p)["entry"]) >= max_active, 30, 0.1),
                f"booked {len(bookings)}, admitted {redis('ZCARD', keys(p)['entry'])}")
        time.sleep(1.5)  # the audit relay has sent those admissions and the leave to Kafka
    if at >= 1:  # the whole burst in the line first: measures the rebuild of n waiting people
        join(es, 3600)
        wait_applied(redis, p, [t for _, t in first] + accepted_tokens(es), 600)
    else:
        S.wait_for(lambda: progress(es) >= n * at, 300, 0.01)
    before_waiting, before_entry, before_gone, _ = line_snapshot(redis, p)
    held_before = len(before_waiting) + len(before_entry) + len(before_gone)
    answered_at_kill = progress(es)
    epoch_before = redis("GET", keys(p)["lineEpoch"])
    booked_before = len(bookings)
    redis.close()
    if sentinels:
        if older:
            in_snapshot = min(in_snapshot, sentinels.replica_waiting(keys(p)["waiting"]))
        log_at = os.path.getsize(stack.worker.log)
        # an admitted user nobody booked yet, whose booking is tried from the kill on
        recovery = sentinels.kill_master(api, p, admitted[-1], sc)
        t_kill = recovery.t_kill
        redis = sentinels.master()
        promoted = time.monotonic() - t_kill
    else:
        stack.redis.kill9()
        t_kill = time.monotonic()
        S.wait_for(lambda: not S.port_open(stack.redis.port), 10, 0.02)  # the dead server's socket is closed
        stack.redis.start(fresh=not older)
        redis = redis_of(stack)
    k = keys(p)
    if older:
        R.check(sc, "the promoted replica is older, with the same lines' id: without the master's last writes"
                if sentinels else
                "Redis came back older, with the same lines' id: the snapshot, without what followed it",
                redis("GET", keys(p)["lineEpoch"]) == epoch_before and in_snapshot < len(before_waiting),
                f"at most {in_snapshot:,} waiting in the {'replica' if sentinels else 'snapshot'}, "
                f"{len(before_waiting):,} before the kill")

    def held():
        try:
            return redis("ZCARD", k["waiting"]) + redis("ZCARD", k["entry"]) + redis("SCARD", k["gone"])
        except (OSError, ConnectionError, S.RedisError):
            return 0

    S.wait_for(lambda: held() >= held_before, 600, 0.05)
    back = time.monotonic() - t_kill
    join(es)
    burst = time.monotonic() - t0
    statuses = collections.Counter(a[1] for e in es for a in e.answers)
    R.check(sc, f"all {n} enters answered 202 during the burst", statuses.get(202, 0) == n, dict(statuses))
    tokens = [t for _, t in first] + accepted_tokens(es)
    if sentinels:
        recovery.join(120)
        if recovery.token:
            tokens.append(recovery.token)
        if recovery.booking_id:
            bookings[admitted[-1]] = recovery.booking_id
        # every 202 placed by the bound after the kill, or after the last 202 when the burst went on longer
        last_202 = max([a[0] + a[2] for e in es for a in e.answers if a[1] == 202], default=t_kill)
        deadline = max(t_kill, last_202) + failover.PENDING_BOUND
        took = wait_applied(redis, p, tokens, max(0.0, deadline - time.monotonic()))
        R.check(sc, f"every 202 token is WAITING, AVAILABLE or EXPIRED again within {failover.PENDING_BOUND} s of the "
                    "kill, or of its 202 when that came later (not PENDING)", took is not None)
    else:
        took = wait_applied(redis, p, tokens, 300)
        R.check(sc, "every 202 token is WAITING, AVAILABLE or EXPIRED again within 300 s of the loss (not PENDING)",
                took is not None)
    rebuilt = time.monotonic() - t_kill
    waiting, entry, gone, st = line_snapshot(redis, p)
    R.check(sc, "no user in two places at once",
            not (set(waiting) & set(entry)) and not (set(waiting) & gone) and not (set(entry) & gone))
    users = {user_of(t): t for t in tokens}
    # each user as before or later in their life: gone stays gone, admitted is admitted (or back at the head)
    regressed = [u for u in before_gone if u not in gone]
    R.check(sc, "whoever was gone (booked, left) before the loss is gone after it", not regressed, regressed[:3])
    head = min(waiting.values()) if waiting else 0
    lost_entry = [u for u in before_entry if u not in entry and u not in gone
                  and not (u in waiting and waiting[u] <= head + len(before_entry))]
    R.check(sc, "whoever was admitted is admitted again, or back at the head of the line", not lost_entry,
            lost_entry[:3])
    R.check(sc, f"never beyond capacity: at most {max_active} admitted", len(entry) <= max_active, len(entry))
    # positions keep the log order: of those waiting before and after, the order is the same
    kept = [u for u in sorted(before_waiting, key=before_waiting.get) if u in waiting]
    breaks = sum(1 for a, b in zip(kept, kept[1:]) if waiting[a] >= waiting[b])
    R.check(sc, "the waiting keep their order", breaks == 0, f"{breaks} of {len(kept)} out of order")
    order_breaks = 0
    for e in es:
        prev = None
        for _, tok in e.accepted:
            s = waiting.get(user_of(tok), 0.0)
            if prev is not None and (s < prev or (s == prev and s > 0)):
                order_breaks += 1
            prev = s
    R.check(sc, "causal order: each client's later 202 stands behind its earlier one", order_breaks == 0,
            order_breaks)
    q = api.queue(p)
    R.check(sc, "the queue's settings came back", q.status == 200 and (q.json() or {}).get("maxActive") == max_active,
            q)
    # nobody books twice, nothing oversells
    again = [t for t in bookings if api.book(p, t).status != 403]
    R.check(sc, "a token booked before the loss is refused (403) after it", not again, len(again))
    left_back = [t for t in leavers if user_of(t) not in gone]
    R.check(sc, "whoever left stays out", not left_back, len(left_back))
    R.check(sc, "the bookings came back", redis("HLEN", keys(p)["bookings"]) == len(bookings),
            redis("HLEN", keys(p)["bookings"]))
    R.check(sc, "stock = as set minus what was booked", redis("GET", keys(p)["stock"]) == str(stock - len(bookings)),
            redis("GET", keys(p)["stock"]))
    # the sale goes on: admitted users book until the stock is gone, and not one unit beyond
    booked_after, refused = 0, collections.Counter()
    deadline = time.monotonic() + 90
    tried = set(bookings)
    while time.monotonic() < deadline and len(bookings) + booked_after < stock:
        for u in list(redis("ZRANGE", keys(p)["entry"], 0, -1)):
            t = users.get(u)
            if t is None or t in tried:
                continue
            tried.add(t)
            r = api.book(p, t)
            booked_after += r.status == 201
            if r.status != 201:
                refused[r.status] += 1
        time.sleep(0.2)
    total = len(bookings) + booked_after
    R.check(sc, f"the sale sells out after the loss: {stock} booked, stock 0",
            total == stock and redis("GET", keys(p)["stock"]) == "0", f"{total} booked, {dict(refused)} refused")
    beyond = 0
    for u in list(redis("ZRANGE", keys(p)["entry"], 0, -1)):
        t = users.get(u)
        if t is not None and t not in tried:
            beyond += api.book(p, t).status == 201
    R.check(sc, "bookings never exceed the stock: an admitted user finds it sold out", beyond == 0, beyond)
    seen_users = [json.loads(v)["userId"] for v in (redis("HVALS", keys(p)["bookings"]) or [])]
    R.check(sc, "no user booked twice", len(seen_users) == len(set(seen_users)) == total, len(seen_users))
    R.figure(sc, "burst", f"{n:,} enters in {burst:.1f} s; {'the master' if sentinels else 'Redis'} killed after "
                          f"{answered_at_kill:,} answers"
                          + ((", the replica stopped replicating after " if sentinels
                              else ", restarted from its snapshot after ") + f"{answered_at_snapshot:,}"
                             if older else ""))
    if sentinels:
        after_kill = [a[0] + a[2] - t_kill for e in es for a in e.answers if a[1] == 202 and a[0] >= t_kill]
        R.figure(sc, "the replica promoted", f"{promoted:.1f} s after the kill (the Sentinels name it, it answers "
                                             "as master)")
        R.figure(sc, "first enter after the kill", (f"202 {min(after_kill):.2f} s after it" if after_kill
                                                    else "no 202 after it")
                 + (f"; a new user placed (WAITING) {recovery.placed_at:.1f} s after it" if recovery.placed_at
                    else "; no new user placed"))
        R.figure(sc, "first booking after the kill", f"{recovery.booked_at:.1f} s after it ({recovery.refused} "
                                                     "answers before)" if recovery.booked_at
                 else f"none within 120 s ({recovery.refused})")
        done = failover.replayed(stack.worker.log, log_at) or {}
        R.figure(sc, "read again from the log", "; ".join(
            [f"the sale of {a} products from {b} records in {c} ms" for a, b, c in done.get("restores", [])]
            + [f"{sum(done.get('replays', [])):,} records of the entries topic in {len(done.get('replays', []))} "
               "replays"]))
    if older:
        R.figure(sc, "lost by Redis", f"at least {len(before_waiting) - in_snapshot:,} waiting people, 4 bookings, "
                                      f"4 admissions, 1 leave")
    R.figure(sc, "before the loss", f"{len(before_waiting):,} waiting, {len(before_entry)} admitted, "
                                    f"{len(before_gone)} gone ({booked_before} booked)")
    R.figure(sc, "the line as before the loss", f"{back:.1f} s after it ({held_before:,} people, "
                                                f"{held_before / back:,.0f}/s including the restart)")
    R.figure(sc, "every 202 placed again", f"{rebuilt:.1f} s after the loss (the burst went on)")
    R.figure(sc, "after", f"{len(waiting):,} waiting, {len(entry)} admitted, {total} booked of {stock}")
    redis.close()


def env_int_or(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def hostile_input(stack, api):
    """A corpus of hostile requests against every endpoint: no 5xx, no dropped connection, no write."""
    sc = "hostile-input"
    redis = redis_of(stack)
    p, pa = S.new_product(), S.new_product()
    api.configure(p, 2, 1000, 600)
    api.configure(pa, 2, 1000, 600)  # the target of the admin PUTs, so a wrongly accepted one cannot close p
    api.set_stock(p, 10)
    genuine = api.token(p, "genuine-user")
    # a line that asks for proof of work, and a genuine solution for hx-alice that the corpus tries for others
    pw = S.new_product()
    api.configure(pw, 2, 1000, 600, challengeMaxNumber=1000)
    # a visitor line, and one visitor's token in it, for the identity group's refusals
    pv = S.new_product()
    api.configure(pv, 2, 1000, 600, identity=VISITOR, returnHosts=["shop.test"])
    visitor_token = S.wait_for(lambda: (api.enter(pv, None, timeout=20).json() or {}).get("token"), 30, 0.2)
    # an invite-only line whose passes are signed by a key nobody holds: every pass the corpus tries is forged
    pp = S.new_product()
    r = S.client(stack.worker.base).call("PUT", f"/api/v1/queues/{pp}", {
        "maxActive": 2, "admitPerSecond": 1000, "entryTtlSeconds": 600, "open": True, "inviteOnly": True,
        "passKeys": [hostile.PASS_KEY]}, api.admin)
    if r.status != 200:
        raise RuntimeError(f"configuring queue {pp} failed: {r}")
    challenge = S.client(api.ingest).call("GET", f"/api/v1/queues/{pw}/challenge?userId=hx-alice").json()
    proof = hostile.solved(challenge)
    S.wait_for(lambda: all((api.status(q, t).json() or {}).get("status") == "AVAILABLE"
                           for q, t in ((p, genuine), (pv, visitor_token))), 30, 0.1)
    time.sleep(0.5)
    before = hostile.snapshot(redis, (p, pa, pw, pv, pp))
    sent_before = hostile.producer_sends(stack.ingest.management)
    visitor_admission = (api.status(pv, visitor_token).json() or {}).get("admission")
    cases = hostile.corpus(stack, p, pa, genuine, pw, proof, pp, pv, visitor_token, visitor_admission)
    results = hostile.run(cases)
    time.sleep(3)  # anything that reached Kafka has reached Redis by now
    after = hostile.snapshot(redis, (p, pa, pw, pv, pp))
    sent_after = hostile.producer_sends(stack.ingest.management)
    # Tomcat's parser would answer an unimplemented method, transfer coding or HTTP version with 501/505; the
    # services turn those into 400 problem+json, so every 5xx counts
    five = [(c.name, st) for c, st, _ in results if st and st >= 500]
    # an HTTP/2 prior-knowledge preface is not HTTP/1.1 at all: an HTTP/1.1-only connector closes the connection
    closed_h2 = [(c.name, err) for c, st, err in results if not st and "HTTP/2 preface" in c.name]
    dropped = [(c.name, err) for c, st, err in results if not st and "HTTP/2 preface" not in c.name]
    writes = [(c.name, st) for c, st, _ in results if c.write and st and 200 <= st < 300]
    changed = hostile.diff(before, after)
    R.check(sc, f"corpus of at least 200 cases ({len(cases)})", len(cases) >= 200)
    R.check(sc, "0 answers 5xx", not five, five[:8])
    with open(os.path.join(S.WORK, "hostile-results.txt"), "w") as f:
        for c, st, err in results:
            f.write(f"{st}\t{c.name}\t{err or ''}\n")
    R.check(sc, "0 dropped connections (every request got an answer; the HTTP/2 preface aside)", not dropped,
            dropped[:8])
    expected = [(c, st) for c, st, _ in results if c.expect]
    unlike = [(c.name, st, c.code) for c, st in expected if (st, c.code) != c.expect]
    R.check(sc, f"who may enter as whom, and what the edge lets pass: each of the {len(expected)} identity and edge "
                "cases answered its status and code (400 user_id_not_accepted / invalid_token / return_url_refused, "
                "401 enter_key_required / enter_key_invalid, 401 from the edge check, ...)",
            expected and not unlike, unlike[:8])
    R.check(sc, "0 writes accepted (no 2xx on a write)", not writes, writes[:8])
    R.check(sc, "0 writes: Redis unchanged", not changed, changed[:8])
    R.check(sc, "0 writes: no enter event published", sent_before is None or sent_after == sent_before,
            f"producer record-send-total {sent_before} -> {sent_after}")
    R.check(sc, "the genuine token is still AVAILABLE", (api.status(p, genuine).json() or {}).get("status") ==
            "AVAILABLE")
    by_class = collections.Counter(c.group for c, _, _ in results)
    R.figure(sc, "cases", f"{len(cases)} ({', '.join(f'{k} {v}' for k, v in sorted(by_class.items()))})")
    R.figure(sc, "answers", dict(sorted(collections.Counter(st for _, st, _ in results).items(), key=str)))
    R.figure(sc, "identity cases", dict(sorted(collections.Counter(f"{st} {c.code}" for c, st in expected).items())))
    R.figure(sc, "5xx / dropped / writes", f"{len(five)} / {len(dropped)} / {len(writes)} requests answered 2xx "
                                           f"on a write, {len(changed)} Redis keys changed; "
                                           f"closed without answer: {closed_h2}")


def forgery(stack, api):
    """1,000,000 forged and tampered tokens through the codec in-process, 1,000,000 more over HTTP (half on status,
    half on booking, sent by the fault checks' ForgeryCheck on the benchmark's keep-alive HttpPool); and the admin token comparison timed."""
    sc = "forgery"
    redis = redis_of(stack)
    p = S.new_product()
    q = S.new_product()
    api.configure(p, 5, 1000, 600)
    api.configure(q, 5, 1000, 600)
    api.set_stock(p, 1000)
    api.set_stock(q, 1000)
    genuine = [api.token(p, f"fg-{i}") for i in range(5)]
    other = api.token(q, "fg-other")
    S.wait_for(lambda: all((api.status(p, t).json() or {}).get("status") == "AVAILABLE" for t in genuine), 30, 0.1)
    n_codec = scaled(1_000_000, 10_000)
    n_http = int(os.environ.get("FAULTS_FORGERY_HTTP") or scaled(1_000_000, 10_000))
    tokens_file = os.path.join(S.WORK, "genuine-tokens.txt")
    open(tokens_file, "w").write("\n".join(genuine + [other]) + "\n")
    out = subprocess.run([S.JAVA, "--sun-misc-unsafe-memory-access=allow", "-jar",
                          os.path.join(S.WORK, "jars", S.CHECKS_JAR), "forgery",
                          stack.token_secret, str(n_codec), tokens_file, stack.admin_token,
                          stack.ingest.base, stack.booking.base, str(p), str(n_http)],
                         capture_output=True, text=True, timeout=1800)
    fig = None
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            fig = json.loads(line)
    if not R.check(sc, "forgery check ran", fig is not None and fig.get("http") is not None,
                   out.stdout[-500:] + out.stderr[-1500:]):
        return
    R.check(sc, "the codec accepts the genuine tokens (control)", fig["genuineAccepted"] == fig["genuine"], fig)
    R.check(sc, f"{fig['forged']:,} forged/tampered tokens through TokenCodec.verify: 0 accepted",
            fig["forged"] >= n_codec and fig["forgedAccepted"] == 0, fig)
    source = admin_check_source()
    R.check(sc, "admin token compared in constant time (MessageDigest.isEqual over SHA-256 digests)",
            source and "MessageDigest.isEqual" in source and "digest(" in source,
            "AdminTokenInterceptor.java does not compare fixed-length digests with MessageDigest.isEqual")
    R.check(sc, "no wrong admin token let through by the interceptor", fig["adminWrongAccepted"] == 0, fig)
    R.check(sc, "admin check time independent of how much of the token is right (max/min median < 1.25)",
            fig["adminTimingRatio"] < 1.25,
            {"medianNs": fig["adminTimingNs"], "attemptRatios": fig["adminTimingAttempts"]})

    http = fig["http"]
    answers = http["answers"]
    R.check(sc, f"{http['tokens']:,} forged tokens over HTTP ({http['status']:,} status, {http['booking']:,} "
                f"booking): 0 accepted", http["tokens"] >= n_http and http["accepted"] == 0,
            {"accepted": http["accepted"], "examples": http["examples"]})
    R.check(sc, "forged tokens over HTTP: no 5xx, no dropped connection", http["failed"] == 0,
            {"failed": http["failed"], "answers": answers, "examples": http["examples"]})
    refused = {"status": {400}, "booking": {400, 403}}
    odd = {k: v for k, v in answers.items() if int(k.split(":")[1]) not in refused[k.split(":")[0]]}
    R.check(sc, "forged tokens over HTTP: status answers 400, booking 400/403", not odd, odd)
    k = keys(p)
    R.check(sc, "no booking was made and the genuine tokens are still admitted",
            redis("HLEN", k["bookings"]) == 0 and all(redis("ZSCORE", k["entry"], user_of(t)) for t in genuine))
    r = api.book(p, genuine[0])
    R.check(sc, "control: the genuine token books (201)", r.status == 201, r)
    R.figure(sc, "in-process (TokenCodec.verify)", f"{fig['forged']:,} forged, 0 accepted expected, "
                                                   f"{fig['forgedAccepted']} accepted, {fig['seconds']:.1f} s; "
                                                   f"kinds: {fig['kinds']}")
    R.figure(sc, "over HTTP", f"{http['tokens']:,} ({http['status']:,} status, {http['booking']:,} booking) in "
                              f"{http['seconds']:.1f} s ({http['tokens'] / http['seconds']:,.0f} requests/s), "
                              f"{http['accepted']} accepted, {http['failed']} 5xx or dropped; answers {answers}")
    R.figure(sc, "admin token check, median ns per call", fig["adminTimingNs"])


def impersonation(stack, api):
    impostors.impersonation(stack, api, sys.modules[__name__])


impersonation.__doc__ = impostors.impersonation.__doc__


def tail_errors(path):
    """The distinct error lines near the end of a log."""
    lines = open(path, "rb").read()[-400_000:].decode("utf-8", "replace").splitlines()
    seen = []
    for line in lines:
        if ("Error" in line or "ERROR" in line) and line[:120] not in seen:
            seen.append(line[:120])
    return " | ".join(seen[-3:])


def admin_check_source():
    for top, _, files in os.walk(S.ROOT):
        if "AdminTokenInterceptor.java" in files and "/src/main/" in top + "/":
            return open(os.path.join(top, "AdminTokenInterceptor.java")).read()
    return None


def overload(stack, api):
    """Far more enters at once than the machine takes: shed with 503 + Retry-After, never time out; nothing
    accepted is lost. First 4,000 at once while the log acknowledges nothing until the crowd has met it, then a
    storm of 8,000."""
    sc = "overload"
    redis = redis_of(stack)
    phases = (("4,000 at once, log stalled", scaled(4000, 250), True),
              ("storm of 8,000 at once", scaled(8000, 500), False))  # 8,000: just under Tomcat's max-connections
    for phase, conns, stalled in phases:
        p = S.new_product()
        api.configure(p, 1, 1, 3600, identity=VISITOR)  # a crowd of browsers, each entering with {}
        refused = threading.Event()
        if stalled:
            # The log stays frozen until the crowd meets it: a fixed 3 s from the pause could end before a slow
            # client's 4,000 connections got their enters in, and then every one of them was simply stored. It
            # resumes 1 s after the first refusal, or after 12 s if none comes (and the check below fails).
            def resume_after_first_refusal():
                refused.wait(12)
                time.sleep(1)
                stack.kafka.resume()

            stack.kafka.pause()
            threading.Thread(target=resume_after_first_refusal, daemon=True).start()
        res = hostile.flood(stack.ingest.port, p, conns, "ov", timeout=30, refused=refused)
        codes = res["codes"]
        R.check(sc, f"{phase}: every request answered within 30 s (no timeout, no reset)", res["errors"] == 0,
                f"{res['errors']} of {res['sent']} unanswered: {res['error_kinds']}")
        R.check(sc, f"{phase}: refusals are 429/503 with Retry-After",
                res["refused_without_retry_after"] == 0 and set(codes) <= {202, 429, 503}, dict(codes))
        if stalled:
            R.check(sc, f"{phase}: load shed (some 429/503) instead of waiting for the log",
                    codes.get(503, 0) + codes.get(429, 0) > 0, dict(codes))
        took = wait_applied(redis, p, res["tokens"], 180)
        R.check(sc, f"{phase}: every accepted enter arrived in the line", took is not None)
        healthy = S.wait_for(stack.ingest.healthy, 20, 0.5)
        R.check(sc, f"{phase}: ingest still healthy afterwards", healthy,
                f"no answer from /actuator/health for 20 s; {stack.ingest.log} ends with: "
                + tail_errors(stack.ingest.log))
        R.figure(sc, phase, f"{res['sent']:,} enters on as many simultaneous connections: {dict(codes)}; "
                            f"{res['errors']:,} unanswered after 30 s; latency p50 {ms(res['p50'])}, "
                            f"p99 {ms(res['p99'])}, max {ms(res['max'])}; refusal p99 {ms(res['refused_p99'])}; "
                            f"connect p99 {ms(res['connect_p99'])}; kernel listen-queue overflows "
                            f"{res['listen_overflows']}")
        if not healthy:  # wedged: the runner replaces it if anything follows
            stack.ingest.kill9()
            if stalled:
                stack.ingest.start().wait_healthy()


def slow_clients(stack, api):
    """Slowloris on headers and bodies, idle connections, pipelining and HTTP/1.0 keep-alive at ingest's door, while
    a well-behaved client beside them keeps getting its enters, polls, page and /livez within a second."""
    sc = "slow-clients"
    p = S.new_product()
    # room for everyone at once: the line is settled soon after the last enter, so a scenario after this one that
    # compares Redis before and after sees nothing of it move
    api.configure(p, 1000, 1000, 600)
    token = api.token(p, "door-regular")
    seconds = max(20, scaled(25))
    header_conns, body_conns, idle_conns = 300, 500, 2000
    tallies = {}
    attacker = threading.Thread(target=lambda: tallies.update(door.attack(stack.ingest.port, p, seconds,
                                                                          header_conns, body_conns, idle_conns)),
                                daemon=True)
    attacker.start()
    time.sleep(3)  # the attackers' sockets are open
    regular = S.Client(stack.ingest.base, timeout=5)
    late, failed, took = [], [], collections.defaultdict(list)
    asks = [("enter", lambda i: api.enter(p, f"door-{i}", client=regular), {202}),
            ("poll", lambda i: regular.call("GET", ENTERS.format(p) + "/" + token), {200, 429}),
            ("page", lambda i: regular.call("GET", f"/queues/{p}", headers={"Accept": "text/html"}), {200}),
            ("livez", lambda i: regular.call("GET", "/livez"), {200})]
    t_end = time.monotonic() + seconds - 5
    i = 0
    while time.monotonic() < t_end:
        for name, ask, ok in asks:
            t0 = time.monotonic()
            try:
                r = ask(i)
                status = r.status
            except Exception as e:  # noqa: BLE001 - an unanswered request is what is counted
                status = f"{type(e).__name__}"
            dt = time.monotonic() - t0
            took[name].append(dt)
            if status not in ok:
                failed.append((name, status))
            if dt > 1.0:
                late.append((name, round(dt, 2)))
        i += 1
        time.sleep(0.5)  # a poll as pollAfterMs allows
    (ids, seen), h10 = door.framing(stack.ingest.port)
    attacker.join(seconds + 120)
    R.check(sc, "the well-behaved client got every answer it asked for", not failed, failed[:8])
    R.check(sc, "the well-behaved client was answered within 1 s every time", not late, late[:8])
    R.check(sc, "pipelined requests answered in order, each with its own request id", seen == ids,
            f"sent {ids[:3]}..., answered {seen[:3]}...")
    R.check(sc, "HTTP/1.0 keep-alive: both requests answered on the connection, in order",
            all(a == b for a, b in h10), h10)
    for name in ("slow headers", "slow bodies"):
        t = tallies.get(name)
        R.check(sc, f"{name}: every connection answered 408 and closed, none left waiting",
                t is not None and t.unanswered == 0 and set(t.statuses) == {408},
                None if t is None else f"{t.statuses}, {t.unanswered} unanswered, {t.connect_errors} refused")
    healthy = S.wait_for(stack.ingest.healthy, 20, 0.5)
    R.check(sc, "ingest healthy afterwards", healthy)
    R.figure(sc, "attackers", f"{header_conns} slowloris-on-headers and {body_conns} never-finished bodies "
                              f"(reconnecting after each 408) and {idle_conns} idle connections from 127.0.0.2-9 "
                              f"for {seconds} s: " + "; ".join(f"{k} {v.statuses}" for k, v in tallies.items()))
    R.figure(sc, "well-behaved client", "; ".join(
        f"{k} n={len(v)} p50 {ms(S.pct(v, 0.5))} max {ms(max(v))}" for k, v in took.items() if v))


SCENARIOS = [hostile_input, forgery, impersonation, consumer_crash, ingest_crash, booking_crash, admission_races,
             kafka_down, kafka_frozen, kafka_broker_loss, redis_frozen, redis_down, redis_loss, redis_last_writes,
             redis_failover, redis_failover_behind, overload, slow_clients, audit_backlog]


def leave_nothing_behind(stack, own, name):
    """Stops the services a scenario added and did not stop: one that broke off midway would otherwise leave them
    running (two admission workers ticking every 10 ms, say) and load the machine under every scenario after it."""
    left = [s for s in stack.services if s not in own]
    for s in left:
        S.log(f"{name} left {s.name} running; stopping it")
        s.stop(grace=5)
    stack.services[:] = own


def main(argv):
    names = {f.__name__.replace("_", "-"): f for f in SCENARIOS}
    if argv and argv[0] in ("-h", "--help"):
        print("faults/run.sh [scenario ...]: every scenario, or those named, against a private stack\n")
        for name, f in names.items():
            print(f"  {name:18} {' '.join(f.__doc__.split())}")
        return 0
    check_only = bool(argv) and argv[0] == "--check-names"  # faults/run.sh asks before it builds anything
    if check_only:
        argv = argv[1:]
        if argv and argv[0] in ("-h", "--help"):
            return 0
    unknown = [a for a in argv if a not in names]
    if check_only and not unknown:
        return 0
    if unknown:
        print(f"unknown scenario(s): {' '.join(unknown)}; the scenarios are:", file=sys.stderr)
        for name in names:
            print(f"  {name}", file=sys.stderr)
        return 2
    chosen = [names[a] for a in argv] if argv else SCENARIOS
    os.makedirs(S.WORK, exist_ok=True)
    lock = open(os.path.join(S.WORK, "run.lock"), "w")
    try:  # one run at a time: a second one would take over the first one's Redis, broker and ports
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit("another faults run is in progress (.local/faults/run.lock)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the stack is stopped on the way out
    status, versions_said = versions.check()
    if status:  # faults/run.sh chose a python3 in range; run.py started some other way may not be
        sys.exit(versions_said)
    S.log(versions_said + (", RESP2 asked for by name" if S.RESP2 else ", RESP2 (the only protocol it speaks)"))
    stack = S.Stack()
    t_all = time.monotonic()
    try:
        if os.environ.get("FAULTS_REUSE"):
            stack.attach()
        else:
            S.log(f"starting the private stack (Redis :{stack.redis.port}, Kafka :{stack.kafka.port}, services "
                  f":{S.PORT_BASE}-{S.PORT_BASE + 2}); logs in {os.path.relpath(S.WORK, S.ROOT)}/logs")
            stack.start()
        api = Api(stack)
        S.log(f"stack ready in {time.monotonic() - t_all:.0f} s; scale {SCALE}")
        for f in chosen:
            name = f.__name__.replace("_", "-")
            if f not in (redis_failover, redis_failover_behind):
                failover.release(stack)  # the services back on the runner's single Redis, after a failover scenario
            S.log(f"=== {name}: {f.__doc__.split(chr(10))[0]}")
            t0 = time.monotonic()
            own = list(stack.services)
            try:
                f(stack, api)
            except Exception as e:  # noqa: BLE001 - a broken scenario is a failed check, the others still run
                import traceback
                traceback.print_exc()
                R.check(name, "scenario ran to the end", False, f"{type(e).__name__}: {e}")
            finally:
                leave_nothing_behind(stack, own, name)
            R.times[name] = time.monotonic() - t0
            for s in (stack.ingest, stack.worker, stack.booking):
                if not s.alive() and f is not chosen[-1]:
                    S.log(f"{s.name} is not running after {name}; restarting it for the next scenario")
                    s.start().wait_healthy()
    finally:
        if os.environ.get("FAULTS_KEEP"):
            stack.save()
            S.log("FAULTS_KEEP: stack left running")
        else:
            failover.release(stack, restart=False)
            stack.stop()
    summary = R.markdown()
    print("\n" + summary)
    open(os.path.join(S.WORK, "summary.md"), "w").write(summary + "\n")
    failing = R.failed()
    total = time.monotonic() - t_all
    print(f"\nfaults: {len(R.checks) - len(failing)}/{len(R.checks)} checks hold in {total:.0f} s"
          + (f"; {len(failing)} failing" if failing else ""))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
