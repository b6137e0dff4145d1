"""A Redis master failed over by Sentinel under the services, for faults/run.py's redis-failover and
redis-failover-behind. Standard library and redis-py.

The runner's own master, replica and three Sentinels (scripts/redis.sh sentinel-start, master name queuegate, quorum
2) on ports apart from the dev ones and from the runner's single Redis; the three services are started again pointed
at the Sentinels by Spring Boot's own settings (SPRING_DATA_REDIS_SENTINEL_MASTER and _NODES), so they find the master,
and later the promoted replica, by configuration alone. The fault is a SIGKILL of the master; the replica can first be
stopped from replicating, so that it really misses the master's last writes when it is promoted: it is given a
password for its master (which asks for none, so the handshake fails) and its link is dropped. That keeps it a replica
of the right master in the Sentinels' eyes, which a REPLICAOF elsewhere would not (they would point it back).
"""
import functools
import os
import re
import signal
import subprocess
import threading
import time
import uuid

import stack as S

MASTER_PORT = S.env_int("FAULTS_SENTINEL_MASTER_PORT", 6391)
REPLICA_PORT = S.env_int("FAULTS_SENTINEL_REPLICA_PORT", 6392)
SENTINEL_PORTS = [S.env_int("FAULTS_SENTINEL_PORT", 26391) + i for i in range(3)]
MASTER_NAME = "queuegate"
# How long after the kill, or after its own 202 when that came later, an enter may read PENDING: the Sentinels promote
# the replica within a few seconds (down-after-milliseconds 1000), then the writer restores the sale and replays the
# entries topic; on the loaded two-core machine the whole took under 10 s (docs/RELIABILITY.md).
PENDING_BOUND = 30


_active = None  # the group the services are on, kept for the next redis-failover scenario of the run


def sentinels(stack):
    """The group with the three services on it: the one the previous failover scenario of the run left, its killed
    master back as a replica of the one promoted (starting the services again takes most of a minute on two loaded
    cores, reusing them a few seconds), or a new one."""
    global _active
    if _active is not None and not _active.renew():
        release(stack)
    if _active is None:
        _active = Sentinels(stack)
        try:
            _active.switch()
        except BaseException:
            release(stack)
            raise
    return _active


def release(stack, restart=True):
    """Gives the services back the runner's single Redis, started again unless restart is False, and stops the group;
    nothing when no group is in use. faults/run.py calls it before any other scenario and at the end."""
    global _active
    if _active is None:
        return
    group, _active = _active, None
    _parallel(lambda s: s.stop(grace=30), group.services)
    for s, env in group.saved_env.items():
        s.extra_env.clear()
        s.extra_env.update(env)
    S.launcher("redis.sh", "sentinel-stop", **group.env)
    if restart:
        for s in group.services:
            s.start()
        _parallel(lambda s: s.wait_healthy(), group.services)


class Sentinels:
    """A master, a replica and three Sentinels, and what the scenarios do to them."""

    def __init__(self, stack):
        self.stack = stack
        self.services = (stack.ingest, stack.worker, stack.booking)
        self.env = dict(REDIS_SENTINEL_MASTER_PORT=MASTER_PORT, REDIS_SENTINEL_REPLICA_PORT=REPLICA_PORT,
                        REDIS_SENTINEL_PORTS=" ".join(map(str, SENTINEL_PORTS)), REDIS_SENTINEL_MASTER=MASTER_NAME)
        self.killed = None
        self.replica_port = REPLICA_PORT
        self.saved_env = {}

    def switch(self):
        """Starts the group and the services on it."""
        S.launcher("redis.sh", "sentinel-stop", **self.env)  # what a crashed run left behind
        for port in (MASTER_PORT, REPLICA_PORT, *SENTINEL_PORTS):
            if S.port_open(port):
                raise SystemExit(f"port {port} is taken; set FAULTS_SENTINEL_MASTER_PORT, FAULTS_SENTINEL_REPLICA_PORT "
                                 "and FAULTS_SENTINEL_PORT")
        nodes = ",".join(f"127.0.0.1:{port}" for port in SENTINEL_PORTS)
        # the group starts while the services stop: most of its start is the Sentinels finding each other
        _together(lambda: S.launcher("redis.sh", "sentinel-start", **self.env),
                  *(functools.partial(s.stop, grace=30) for s in self.services))
        for s in self.services:
            self.saved_env[s] = dict(s.extra_env)
            s.extra_env.update(SPRING_DATA_REDIS_SENTINEL_MASTER=MASTER_NAME, SPRING_DATA_REDIS_SENTINEL_NODES=nodes)
        for s in self.services:
            s.start()
        _parallel(lambda s: s.wait_healthy(), self.services)

    def renew(self):
        """Makes the group whole again after a failover: the killed master starts again, empty, as a replica of the
        promoted one. False when the group or the services are not in a state to go on with."""
        if not all(s.alive() for s in self.services):
            return False
        if self.killed is None:
            return True
        try:
            self.master(timeout=10).close()
            config = os.path.join(S.WORK, "redis-sentinel", str(self.killed), "redis.conf")
            subprocess.run(["redis-server", config, "--replicaof", "127.0.0.1", str(self.master_port())],
                           check=True, capture_output=True, start_new_session=True)
            # the Sentinels must see it as a replica, synced, before they can promote it
            if not S.wait_for(lambda: _linked(self.killed) and self._known_replica(self.killed), 30, 0.2):
                return False
        except (OSError, RuntimeError, subprocess.CalledProcessError):
            return False
        self.replica_port, self.killed = self.killed, None
        return True

    def master_port(self):
        """The port of the master the Sentinels name, as most of them say it (None while they disagree)."""
        named = []
        for port in SENTINEL_PORTS:
            try:
                named.append(int(_ask(port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)[1]))
            except (OSError, S.RedisError, TypeError, IndexError):
                pass
        best = max(set(named), key=named.count, default=None)
        return best if named.count(best) >= 2 else None

    def master(self, timeout=60):
        """A client to the master the Sentinels name, once it answers as master; after the kill, the promoted
        replica."""
        def named():
            port = self.master_port()
            if port is None or port == self.killed:
                return None
            try:
                return port if _ask(port, "ROLE")[0] == "master" else None
            except (OSError, S.RedisError):
                return None
        port = S.wait_for(named, timeout, 0.05)
        if not port:
            raise RuntimeError(f"the Sentinels named no master but the killed one within {timeout} s")
        return S.Redis(port, timeout=30)

    def stop_replication(self):
        """The replica stops taking the master's writes and keeps what it has; the master goes on without it."""
        _ask(self.replica_port, "CONFIG", "SET", "masterauth", "not-the-masters-" + uuid.uuid4().hex)
        _ask(self.replica_port, "CLIENT", "KILL", "TYPE", "master")
        if not S.wait_for(lambda: not _linked(self.replica_port), 10, 0.05):
            raise RuntimeError("the replica still replicates after its link was dropped")

    def replica_waiting(self, key):
        return _ask(self.replica_port, "ZCARD", key)

    def kill_master(self, api, p, booking_token, tag):
        """SIGKILL to the master; returns the probes that time the recovery, already running."""
        port = self.master_port()
        pid = S.read_pid(os.path.join(S.WORK, "redis-sentinel", str(port), "redis.pid"))
        recovery = Recovery(api, p, booking_token, tag)
        os.kill(pid, signal.SIGKILL)
        recovery.t_kill = time.monotonic()
        self.killed = port
        S.wait_for(lambda: not S.port_open(port), 10, 0.02)
        recovery.start()
        return recovery

    def _known_replica(self, port):
        for sentinel in SENTINEL_PORTS:
            try:
                replicas = _ask(sentinel, "SENTINEL", "REPLICAS", MASTER_NAME)
            except (OSError, S.RedisError):
                return False
            fields = [dict(zip(r[::2], r[1::2])) for r in replicas or []]
            if not any(f.get("port") == str(port) and "s_down" not in f.get("flags", "")
                       and "disconnected" not in f.get("flags", "") for f in fields):
                return False
        return True

class Recovery(threading.Thread):
    """From the kill on: one user enters (retrying) until the line places them, and one admitted user books
    (retrying every 0.2 s) until the booking is made, each timed from the kill."""

    def __init__(self, api, p, booking_token, tag):
        super().__init__(daemon=True)
        self.api, self.p, self.booking_token, self.tag = api, p, booking_token, tag
        self.t_kill = None
        self.token = None
        self.placed_at = self.booked_at = None
        self.booking_id = None
        self.refused = {}

    def run(self):
        threads = [threading.Thread(target=self._enter, daemon=True), threading.Thread(target=self._book, daemon=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def _enter(self):
        deadline = self.t_kill + 120
        while self.token is None and time.monotonic() < deadline:
            r = self.api.enter(self.p, f"{self.tag}-probe", timeout=5, client=S.Client(self.api.ingest))
            if r.status == 202:
                self.token = (r.json() or {}).get("token")
            else:
                time.sleep(0.1)
        while self.token and time.monotonic() < deadline:
            r = S.Client(self.api.ingest).call("GET", f"/api/v1/queues/{self.p}/entries/{self.token}", timeout=5)
            if (r.json() or {}).get("status") in ("WAITING", "AVAILABLE"):
                self.placed_at = time.monotonic() - self.t_kill
                return
            time.sleep(0.1)

    def _book(self):
        deadline = self.t_kill + 120
        client = S.Client(self.api.stack.booking.base)
        while time.monotonic() < deadline:
            r = client.call("POST", "/api/v1/bookings", {"productId": self.p, "token": self.booking_token,
                                                         "quantity": 1}, timeout=5)
            if r.status == 201:
                self.booked_at = time.monotonic() - self.t_kill
                self.booking_id = (r.json() or {}).get("bookingId")
                return
            self.refused[r.status] = self.refused.get(r.status, 0) + 1
            if r.status not in (0, 503):  # only "not now" may be tried again; anything else is final
                return
            time.sleep(0.2)


def _parallel(action, services):
    _together(*(functools.partial(action, s) for s in services))


def _together(*actions):
    """Runs the actions at once, each on a thread; raises the first failure once all are done."""
    failures = []

    def run(action):
        try:
            action()
        except BaseException as e:  # noqa: BLE001 - reported below, after every action had its turn
            failures.append(e)
    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]


def _ask(port, *command):
    """One command on a connection of its own, closed after it."""
    client = S.Redis(port, timeout=5)
    try:
        return client(*command)
    finally:
        client.close()


def _linked(port):
    """Whether the replica on port has its link to its master up (False while it does not answer)."""
    try:
        return "master_link_status:up" in _ask(port, "INFO", "replication")
    except (OSError, S.RedisError):
        return False


def replayed(worker_log, offset):
    """What the worker's log says it did after the failover (from byte offset on): the restores of the sale, and the
    records of the entries topic it read again, summed over its replays."""
    try:
        with open(worker_log, "rb") as f:
            f.seek(offset)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    restores = re.findall(r"restored the sale of (\d+) products from (\d+) records in (\d+) ms", text)
    replays = [int(n) for n in re.findall(r"reading the log's (\d+) records again", text)]
    return {"restores": [tuple(map(int, r)) for r in restores], "replays": replays}
