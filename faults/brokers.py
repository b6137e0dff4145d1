"""One Kafka broker of three lost mid-burst, then a second frozen, for faults/run.py's kafka-broker-loss. Standard
library only, and the fault-checks jar for Kafka's Admin client and consumer.

The runner's own three-broker KRaft cluster (scripts/kafka.sh cluster-start: each node a broker and a controller, a
quorum of three) on ports apart from the runner's single broker, in .local/faults/kafka-cluster/, and an ingest, an
admission worker and a booking service of their own pointed at it by KAFKA_BOOTSTRAP_SERVERS (scripts/service.sh),
beside the runner's services and on the runner's Redis. The services create their topics as TopicReplication decides
on three brokers (3 replicas, min.insync.replicas 2), with one partition, so that one broker leads all of the entries
topic (and one, the same or another, all of the bookings topic).

Which broker leads, which replicas are in sync and the topic's min.insync.replicas are asked of Kafka's own Admin
client, in the fault-checks jar ('admin'), started once before the scenario's clock runs so that no JVM starts at the
moment the scenario times. The log is read once at the end by the same jar ('log', Kafka's consumer reading each
partition to its end), to count the enters it holds.
"""
import collections
import json
import os
import shutil
import signal
import queue
import subprocess
import threading
import time
import types

import stack as S

# Below the kernel's ephemeral ports (32768 and up), where a client socket could take one first.
CLUSTER_PORT = S.env_int("FAULTS_KAFKA_CLUSTER_PORT", 19192)  # brokers 19192-19194, controllers 19195-19197
NODES = (1, 2, 3)
ENTRIES = "queuegate.entries"
# The scenario's own ingest, worker and booking service, beside the runner's (which stay on the single broker).
INGEST_PORT = S.PORT_BASE + 40
WORKER_PORT = S.PORT_BASE + 41
BOOKING_PORT = S.PORT_BASE + 42
BOOKINGS = "queuegate.bookings"
AUDIT = "queuegate.audit"

# After kill -9 of the leader, the controllers fence it once its session lapses (broker.session.timeout.ms, 9 s by
# default) and elect a new leader from the in-sync replicas; ingest answers 503 meanwhile. 202s must be back within
# this of the kill (measured: see docs/RELIABILITY.md).
RESUME_BOUND = 30.0
# While min.insync.replicas cannot be met, every enter must be answered 503 with Retry-After within this.
REFUSE_BOUND = 2.0
# How long the second broker is frozen, and how long after SIGCONT 202s must be back.
FROZEN_FOR = 6.0
THAW_BOUND = 15.0
# A booking is answered 201 only once Kafka holds its event (acks=all), so it waits for the new leader, or for the
# killed follower to leave the in-sync replicas, as an enter does; meanwhile it is undone and answered 503.
BOOK_BOUND = 30.0
# From the kill on, BOOKERS clients book, each attempt (about 2 s, the publish timeout, while Kafka cannot take it)
# with an admitted user who never tried before; ADMITTED users are admitted before the stream, enough for every
# attempt up to the bound and the sell-out after it. One of them books before the kill; the stock is that unit and
# one per client, so that no attempt finds it held by another's pending one, and the sale sells out at the end.
BOOKERS = 3
ADMITTED = 60
STOCK = BOOKERS + 1


class Cluster:
    """The three nodes of scripts/kafka.sh cluster-start, on this runner's ports and state directory."""

    def __init__(self, port=CLUSTER_PORT):
        self.port = port
        self.dir = os.path.join(S.WORK, "kafka-cluster")
        self.frozen = set()

    def _launch(self, command):
        return S.launcher("kafka.sh", command, KAFKA_CLUSTER_PORT=self.port)

    def broker_port(self, node):
        return self.port + node - 1

    @property
    def bootstrap(self):
        return ",".join(f"127.0.0.1:{self.broker_port(n)}" for n in NODES)

    def pid(self, node):
        return S.read_pid(os.path.join(self.dir, f"node-{node}", "kafka.pid"))

    def start(self):
        self._launch("cluster-stop")  # what a crashed run left behind
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(os.path.join(S.STORAGE, "kafka-cluster"), ignore_errors=True)
        for port in range(self.port, self.port + 6):
            if S.port_open(port):
                raise SystemExit(f"port {port} is taken; set FAULTS_KAFKA_CLUSTER_PORT (it and the five above)")
        self._launch("cluster-start")

    def kill9(self, node):
        pid = self.pid(node)
        os.kill(pid, signal.SIGKILL)
        S.wait_for(lambda: not S._alive(pid), 10, 0.02)

    def pause(self, node):
        os.kill(self.pid(node), signal.SIGSTOP)
        self.frozen.add(node)

    def resume(self, node):
        os.kill(self.pid(node), signal.SIGCONT)
        self.frozen.discard(node)

    def stop(self):
        for node in list(self.frozen):
            self.resume(node)
        self._launch("cluster-stop")


# --- questions to the cluster, through Kafka's Admin client -------------------------------------------------------

Partition = collections.namedtuple("Partition", "leader replicas isr")


class ClusterAdmin:
    """Kafka's Admin client in the fault-checks jar ('admin', one JSON answer a question), started once before the
    scenario's clock runs, so that no JVM starts at the moment the scenario times. A question the cluster does not
    answer within 3 s is answered None, and may be asked again."""

    def __init__(self, bootstrap):
        with self._log() as log:
            self.proc = subprocess.Popen([S.JAVA, "--sun-misc-unsafe-memory-access=allow", "-jar",
                                          os.path.join(S.WORK, "jars", S.CHECKS_JAR), "admin", bootstrap],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         text=True, bufsize=1)
        self.answers = queue.Queue()
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    @staticmethod
    def _log():
        """Where the client says why it answered None: .local/faults/logs/cluster-admin.log."""
        os.makedirs(os.path.join(S.WORK, "logs"), exist_ok=True)
        return open(os.path.join(S.WORK, "logs", "cluster-admin.log"), "a")

    def _read(self):
        for line in self.proc.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(EOFError("the admin client ended"))

    def _ask(self, question):
        with self.lock:
            self.proc.stdin.write(question + "\n")
            self.proc.stdin.flush()
            # the client answers every question within its 3 s; far longer means it is gone
            answer = self.answers.get(timeout=30)
        if isinstance(answer, EOFError):
            raise answer
        return answer

    def partition(self, topic=ENTRIES, index=0):
        """Leader, replicas and in-sync replicas of a partition, or None."""
        a = self._ask(f"partition {topic} {index}")
        return Partition(a["leader"], a["replicas"], a["isr"]) if a else None

    def topic_config(self, topic, key):
        """(value, source) of one setting of a topic, or None; source DYNAMIC_TOPIC_CONFIG is the topic's own."""
        a = self._ask(f"config {topic} {key}")
        return (a["value"], a["source"]) if a else None

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def log_events(bootstrap, topic):
    """The JSON values of the topic, every partition read from its start to the end it had when the read began, by the
    fault-checks jar's 'log' command (Kafka's consumer, partitions assigned). A read that cannot reach the end within
    its minute raises: a check must never take an unread log for an empty one."""
    out = subprocess.run([S.JAVA, "--sun-misc-unsafe-memory-access=allow", "-jar",
                          os.path.join(S.WORK, "jars", S.CHECKS_JAR), "log", bootstrap, topic, "60"],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"reading {topic} from {bootstrap} failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def log_enters(cluster, topic=ENTRIES):
    """(records, enters by user) of the topic."""
    events = log_events(cluster.bootstrap, topic)
    users = collections.Counter(e["userId"] for event in events for e in event.get("entries", []))
    return len(events), users


def log_bookings(cluster, runner_kafka, p):
    """(standing, undone) bookings of the product in the log: the bookings topic's records, split by whether the audit
    trail's RESTORED changes name them (the gate undid them after their publish timed out, which the producer's retries
    may still have stored). The standing ones are what a restore from the log books again. The runner's worker shares
    the scenario's Redis, and whichever of the two workers holds the product's audit relay relays its changes to its
    own Kafka: both are read, once each, since either may hold nothing yet; the caller reads again while the check
    fails."""
    undone = {e.get("bookingId") for bootstrap in (cluster.bootstrap, runner_kafka)
              for e in log_events(bootstrap, AUDIT)
              if e.get("productId") == p and e.get("type") == "RESTORED"}
    bookings = [b for b in log_events(cluster.bootstrap, BOOKINGS) if b.get("productId") == p]
    return [b for b in bookings if b["bookingId"] not in undone], [b for b in bookings if b["bookingId"] in undone]


def consumed_records(worker, group="queuegate-waiting-writer"):
    """Records the line writer's consumers fetched, from the worker's Prometheus metrics: the consumer-wide count of
    the writer's group (it reads the entries topic alone), since Micrometer registers the per-topic counts only at its
    next refresh, a minute after the consumer started."""
    c = S.Client(worker.management)
    r = c.call("GET", "/actuator/prometheus", headers={"Accept": "text/plain"})
    c.close()
    total, seen = 0.0, []
    for line in r.body.splitlines():
        if line.startswith("kafka_consumer_fetch_manager_records_consumed_total{"):
            seen.append(line)
            if group in line and "topic=" not in line:
                total += float(line.rsplit(" ", 1)[1])
    if not total:
        S.log(f"no records consumed by {group} in the worker's metrics: {seen[:4]}")
    return int(total)


# --- the scenario --------------------------------------------------------------------------------------------

def kafka_broker_loss(stack, run):
    """kill -9 the broker that leads the entries partition of three (3 replicas, min.insync.replicas 2) under a
    steady stream of enters: 202s resume, and admitted users book again, nothing accepted is lost or placed twice,
    nobody books twice, nothing oversells; then SIGSTOP a second broker: enters are refused with 503 and Retry-After
    within 2 s instead of accepted, and accepted again after SIGCONT."""
    sc = "kafka-broker-loss"
    R = run.R
    cluster = Cluster()
    own = []
    admin = None
    try:
        t0 = time.monotonic()
        cluster.start()
        t_cluster = time.monotonic() - t0
        env = dict(KAFKA_BOOTSTRAP_SERVERS=cluster.bootstrap, QUEUEGATE_INGEST_PARTITIONS="1",
                   QUEUEGATE_ADMISSION_PARTITIONS="1", QUEUEGATE_BOOKING_PARTITIONS="1")
        ingest = stack.add("ingest-service", INGEST_PORT, **env)
        worker = stack.add("admission-worker", WORKER_PORT, **env)
        booking = stack.add("booking-service", BOOKING_PORT, **env)
        own += [ingest, worker, booking]
        for s in own:
            s.start()
        for s in own:
            s.wait_healthy()
        t_services = time.monotonic() - t0 - t_cluster
        api = run.Api(types.SimpleNamespace(ingest=ingest, worker=worker, booking=booking,
                                            admin_token=stack.admin_token, enter_key=stack.enter_key))
        admin = ClusterAdmin(cluster.bootstrap)
        redis = run.redis_of(stack)
        p = S.new_product()
        k = run.keys(p)
        stocked = []  # set meanwhile: each service's first send to the cluster takes a moment
        stocking = threading.Thread(target=lambda: stocked.append(api.set_stock(p, STOCK).status))
        stocking.start()
        # the bookers are admitted first and fill every place: the stream stays in waiting, where it can be inspected
        api.configure(p, ADMITTED, 1000, 3600)
        # retried as a client does: a service's first sends to the new cluster may miss the publish timeout (503)
        entering = run.run_entrants(api, p, ADMITTED, 6, "kb-booker", retry=True,
                                    deadline=time.monotonic() + 60)
        for e in entering:
            e.start()
        run.join(entering, 60)
        bookers = run.accepted_tokens(entering)
        admitted = S.wait_for(lambda: redis("ZCARD", k["entry"]) >= ADMITTED, 30, 0.1)
        stocking.join(30)
        # a sale in progress: the booking service has sent to the cluster
        first = api.book(p, bookers[0]) if bookers else None
        booked_first = first is not None and first.status == 201
        R.check(sc, f"set-up: stock {STOCK}, {ADMITTED} admitted, one of them booked",
                stocked == [200] and admitted and len(bookers) == ADMITTED and booked_first,
                f"stock set: {stocked}, {len(bookers)} entered, admitted {admitted} (now "
                f"{redis('ZCARD', k['entry'])}), booking {first}")

        before = S.wait_for(lambda: admin.partition(), 30, 0.2)
        R.check(sc, "the entries topic: 3 replicas, all in sync",
                before is not None and len(before.replicas) == 3 and sorted(before.isr) == list(NODES), before)
        setting = admin.topic_config(ENTRIES, "min.insync.replicas")
        R.check(sc, "the entries topic's own min.insync.replicas is 2", setting == ("2", "DYNAMIC_TOPIC_CONFIG"), setting)
        booking_leader = (admin.partition(BOOKINGS) or Partition(None, [], [])).leader

        es, stop = run.outage_load(api, p, "kb", threads=12)
        S.wait_for(lambda: run.first_202_after(es, t0) is not None, 30, 0.1)
        time.sleep(1)  # the stream runs steadily before the kill
        victim = before.leader
        t_kill = time.monotonic()
        cluster.kill9(victim)
        booked = Bookers(api, p, bookers[1:], t_kill)
        S.wait_for(lambda: run.first_202_after(es, t_kill) is not None, RESUME_BOUND + 10, 0.1)
        resumed = run.first_202_after(es, t_kill)
        R.check(sc, f"202s resume within {RESUME_BOUND:.0f} s of killing the leader", resumed is not None
                and resumed <= RESUME_BOUND, resumed)
        during = [a for e in es for a in e.answers if t_kill <= a[0] <= t_kill + (resumed or RESUME_BOUND)]
        lost_latency = judge(R, sc, "leader killed", during, allow_202=0.0)
        booked.done.wait(max(0.0, t_kill + BOOK_BOUND + 10 - time.monotonic()))
        booked.finish()
        first_booking = booked.first()
        R.check(sc, f"a booking made (201) within {BOOK_BOUND:.0f} s of killing the leader", first_booking is not None
                and first_booking <= BOOK_BOUND, f"{first_booking}; {booked.codes()}")
        undone = [a for a in booked.answers if a[1] != 201]
        R.check(sc, "bookings before it answered 503 with Retry-After (undone), and nothing else",
                all(a[1] == 503 and a[3] for a in undone), f"{booked.codes()}; e.g. {undone[:2]}")
        time.sleep(1)  # accepting again, steadily, on the two brokers left

        after = S.wait_for(lambda: (lambda q: q if q and q.leader in NODES and q.leader != victim
                                    and len(q.isr) == 2 else None)(admin.partition()), 30, 0.2)
        R.check(sc, "a new leader with the third broker in sync", after is not None, admin.partition())
        second = next(n for n in (after.isr if after else []) if n != after.leader) if after else None
        t_freeze = time.monotonic()
        if second is not None:
            cluster.pause(second)
        time.sleep(FROZEN_FOR)
        t_thaw = time.monotonic()
        if second is not None:
            cluster.resume(second)
        S.wait_for(lambda: run.first_202_after(es, t_thaw) is not None, THAW_BOUND + 10, 0.1)
        thawed = run.first_202_after(es, t_thaw)
        time.sleep(1)
        stop.set()
        run.join(es, 60)
        # read while the line is checked: the log is complete once the producer gave up its last retries (2 s)
        time.sleep(2)
        read = {}
        reader = threading.Thread(target=lambda: read.update(log=log_enters(cluster)))
        reader.start()
        # sent while frozen (after a moment for the rounds already replicated); a 202 may only come once thawed
        frozen = [a for e in es for a in e.answers if t_freeze + 0.5 <= a[0] <= t_thaw]
        refused_latency = judge(R, sc, "second broker frozen", frozen, allow_202=t_thaw)
        R.check(sc, f"202s again within {THAW_BOUND:.0f} s of SIGCONT", thawed is not None and thawed <= THAW_BOUND,
                thawed)

        took = run.wait_applied(redis, p, run.accepted_tokens(es), 120)
        R.check(sc, "everything accepted before, during and after reached the line", took is not None)
        res = run.check_line(sc, redis, p, es, extra_ok_tokens=bookers)
        sold = sell_out(R, sc, run, api, redis, p, booked, bookers[:1] if booked_first else [])
        runner_kafka = f"127.0.0.1:{stack.kafka.port}"
        # the RESTORED changes reach the audit topic by the worker's relay, within its interval (0.5 s)
        reads = []
        S.wait_for(lambda: reads.append(log_bookings(cluster, runner_kafka, p)) or len(reads[-1][0]) <= STOCK, 20, 1.0)
        standing, stored_undone = reads[-1]
        R.check(sc, f"the log books what Redis booked: {STOCK} bookings stand, one per user, those answered 503 and "
                    "stored after all are named undone by the audit trail (a restore from the log sells no more)",
                len(standing) == STOCK and len({b["userId"] for b in standing}) == STOCK,
                f"{len(standing)} standing, users {sorted(b['userId'] for b in standing)}, {len(stored_undone)} undone")
        reader.join(120)
        records, in_log = read.get("log", (0, collections.Counter()))
        consumed = consumed_records(worker)
        twice = sum(n - 1 for n in in_log.values() if n > 1)
        R.check(sc, "every 202 is in the log of the two brokers left",
                all(run.user_of(t) in in_log for t in run.accepted_tokens(es)),
                f"{sum(1 for t in run.accepted_tokens(es) if run.user_of(t) not in in_log)} missing")

        codes = collections.Counter(a[1] for e in es for a in e.answers)
        R.figure(sc, "stack", f"3 brokers up in {t_cluster:.0f} s, ingest, worker and booking on them in "
                              f"{t_services:.0f} s")
        R.figure(sc, "enters", f"{dict(codes)} from 12 retrying clients")
        R.figure(sc, "leader killed", f"broker {victim}; first 202 {resumed or 0:.1f} s after the kill; "
                                      f"{len(during)} answers meanwhile, "
                                      f"{dict(collections.Counter(a[1] for a in during))}, 503 in median "
                                      f"{run.ms(lost_latency[0])}, slowest {run.ms(lost_latency[1])}")
        refused = sum(1 for a in undone if a[0] + a[2] - t_kill <= (first_booking or BOOK_BOUND + 10))
        R.figure(sc, "first booking after the kill", (f"201 {first_booking:.1f} s after it" if first_booking
                                                      else "none") + f" ({refused} answered 503 before it, each "
                 f"booking a user of its own; the bookings partition led by "
                 + ("the killed broker)" if booking_leader == victim else f"broker {booking_leader})")
                 + f"; {sold} of {STOCK} booked in all, then sold out")
        R.figure(sc, "bookings in the log", f"{len(standing) + len(stored_undone)} stored, {len(stored_undone)} of "
                                            f"them answered 503 and undone")
        R.figure(sc, "second broker frozen", f"broker {second} for {FROZEN_FOR:.0f} s: "
                                             f"{dict(collections.Counter(a[1] for a in frozen))}; 503 answered in "
                                             f"median {run.ms(refused_latency[0])}, slowest {run.ms(refused_latency[1])}"
                                             f"; first 202 {thawed or 0:.1f} s after SIGCONT")
        R.figure(sc, "events replayed", f"the log holds {sum(in_log.values()):,} enters in {records:,} records for "
                                        f"{len(in_log):,} users: {twice} enters twice (a refused enter stored after "
                                        f"all and entered again), placed once; the writer fetched {consumed:,} "
                                        f"records, {max(0, consumed - records)} of them again")
        run.line_figure(sc, res)
    finally:
        stoppers = [threading.Thread(target=_stop, args=(s,)) for s in own]
        for t in stoppers:
            t.start()
        for t in stoppers:
            t.join()
        stack.services[:] = [s for s in stack.services if s not in own]
        if admin is not None:
            admin.close()
        cluster.stop()


class Bookers:
    """BOOKERS clients booking from the kill on, each attempt with an admitted user who never tried before (a user
    books once), until a booking is made (201). They do not wait out Retry-After, so that the first booking is timed
    to a fraction of an attempt's length: they start spread over one, and each tries at most once a second."""

    def __init__(self, api, p, tokens, t_kill):
        self.api, self.p, self.t_kill = api, p, t_kill
        self.fresh = list(tokens)
        self.lock = threading.Lock()
        self.answers = []  # (t_sent, status, elapsed, retry_after, token)
        self.done, self.stop = threading.Event(), threading.Event()
        self.threads = [threading.Thread(target=self._book, args=(i,), daemon=True) for i in range(BOOKERS)]
        for t in self.threads:
            t.start()

    def take(self):
        """An admitted user who has not tried to book yet (None when all have)."""
        with self.lock:
            return self.fresh.pop(0) if self.fresh else None

    def _book(self, i):
        self.stop.wait(i * 2.0 / BOOKERS)
        while not self.stop.is_set() and not self.done.is_set():
            token = self.take()
            if token is None:
                self.done.set()
                return
            t = time.monotonic()
            r = self.api.book(self.p, token, timeout=10)
            with self.lock:
                self.answers.append((t, r.status, r.elapsed, r.header("Retry-After"), token))
            if r.status == 201:
                self.done.set()
            else:
                self.stop.wait(max(0.0, 1.0 - (time.monotonic() - t)))

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(15)

    def first(self):
        """Seconds from the kill to the first 201, or None."""
        return min((a[0] + a[2] - self.t_kill for a in self.answers if a[1] == 201), default=None)

    def codes(self):
        return dict(collections.Counter(a[1] for a in self.answers))


def sell_out(R, sc, run, api, redis, p, booked, made_before):
    """After both faults, admitted users who never tried book one at a time until one finds the sale sold out: then
    the bookings are the stock, no more, and no user holds two. Returns how many were made in all."""
    k = run.keys(p)
    made = list(made_before) + [a[4] for a in booked.answers if a[1] == 201]
    refused, sold_out = collections.Counter(), False
    deadline = time.monotonic() + 30
    while not sold_out and time.monotonic() < deadline:
        token = booked.take()
        if token is None:
            break
        r = api.book(p, token, timeout=10)
        if r.status == 201:
            made.append(token)
        elif r.status == 409:
            sold_out = True
        else:
            refused[r.status] += 1
            time.sleep(0.5)
    stock = redis("GET", k["stock"])
    users = [json.loads(v)["userId"] for v in redis("HVALS", k["bookings"]) or []]
    R.check(sc, f"never oversold: {STOCK} booked of {STOCK}, stock 0, and the next admitted user finds it sold out "
                "(409)", sold_out and len(made) == len(users) == STOCK and stock == "0",
            f"{len(made)} answered 201, {len(users)} bookings, stock {stock}, sold out: {sold_out}, {dict(refused)}")
    again = [t for t in made if api.book(p, t).status != 403]
    R.check(sc, "nobody booked twice: a booking per user, and a booked token refused (403) when it books again",
            len(set(users)) == len(users) and set(users) == {run.user_of(t) for t in made} and not again,
            f"users {sorted(users)}, booked again {len(again)}")
    return len(made)


def _stop(service):
    try:
        service.stop(grace=15)
    except Exception as e:  # noqa: BLE001 - best effort at teardown
        S.log(f"stopping {service.name}: {e}")


def judge(R, sc, what, answers, allow_202):
    """Answers while Kafka could not take enters: 503 with Retry-After and problem+json within REFUSE_BOUND, or a 202
    answered after allow_202 (a time.monotonic(); 0: any). Returns the median and the slowest 503."""
    codes = collections.Counter(a[1] for a in answers)
    refused = [a for a in answers if a[1] == 503]
    wrong = [a for a in answers if a[1] != 503 and not (a[1] == 202 and a[0] + a[2] >= allow_202)]
    R.check(sc, f"{what}: enters answered 503" + (", or 202 once Kafka could take them again" if allow_202 else
                                                  " or 202") + ", and nothing else",
            refused and not wrong, f"{dict(codes)}; {len(wrong)} answered otherwise, e.g. {wrong[:2]}")
    R.check(sc, f"{what}: every 503 carries Retry-After and problem+json",
            all(a[3] and "problem+json" in (a[4] or "") for a in refused),
            [a for a in refused if not (a[3] and "problem+json" in (a[4] or ""))][:2])
    slow = [a[2] for a in refused if a[2] > REFUSE_BOUND]
    R.check(sc, f"{what}: every 503 within {REFUSE_BOUND:.0f} s of the request", not slow,
            f"{len(slow)} slower, the slowest {max(slow, default=0):.2f} s")
    latencies = sorted(a[2] for a in refused)
    return S.pct(latencies, 0.5), max(latencies, default=0.0)
