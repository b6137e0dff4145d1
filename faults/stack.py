"""The fault runner's private stack: a Redis, a Kafka broker and the three services as separate processes.

Everything here runs on ports and folders of its own (.local/faults/), so the runner neither disturbs the
stack of ./run.sh (Redis 6379, Kafka 9092, services 8080-8082) nor is disturbed by it. The processes are started by
the project's own launchers (scripts/redis.sh, scripts/kafka.sh, scripts/service.sh) with the state directory, ports
and settings of this stack; what is left here is what the faults do to them (kill -9, SIGSTOP) and the Redis client
the checks read by. Key names come from the build (the fault-checks jar's 'keys' command), never spelled here.
Standard library and redis-py (faults/requirements.txt gives the versions).
"""
import functools
import http.client
import inspect
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid

import redis as redis_py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".local", "faults")
# Kafka's topics, apart from the logs (scripts/lib.sh, STORAGE_DIR)
STORAGE = os.path.join(ROOT, ".storage", "faults")
SCRIPTS = os.path.join(ROOT, "scripts")
VERSION = "0.1.0-SNAPSHOT"
CHECKS_JAR = f"queuegate-fault-checks-{VERSION}-exec.jar"


def env_int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


PORT_BASE = env_int("FAULTS_PORT_BASE", 28080)
# Each service's Actuator answers on its own port, this far above the service port.
MANAGEMENT_OFFSET = 500
REDIS_PORT = env_int("FAULTS_REDIS_PORT", 6390)
KAFKA_PORT = env_int("FAULTS_KAFKA_PORT", 19092)
KAFKA_CONTROLLER_PORT = env_int("FAULTS_KAFKA_CONTROLLER_PORT", 19093)


def log(msg):
    print(f"[faults {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def java_home():
    """The JDK 25 scripts/lib.sh picks (use_java25), so the runner and the launchers agree on it."""
    out = subprocess.run(["bash", "-c", 'source "$1/lib.sh" && use_java25 && printf %s "$JAVA_HOME"', "-", SCRIPTS],
                         capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout:
        raise SystemExit(out.stderr.strip() or "no JDK 25 found")
    return out.stdout


JAVA_HOME = java_home()
JAVA = os.path.join(JAVA_HOME, "bin", "java")


def launcher(script, *args, **env):
    """Runs one of the project's launchers (scripts/*.sh) against this stack's state directory (.local/faults/).
    In a session of its own, so what it leaves running is not hit by signals meant for the runner."""
    done = subprocess.run(["bash", os.path.join(SCRIPTS, script), *args], env=script_env(**env),
                          capture_output=True, text=True, start_new_session=True)
    if done.returncode != 0:
        raise SystemExit(f"scripts/{script} {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done


def script_env(**extra):
    env = dict(os.environ, QG_LOCAL_DIR=WORK, QG_STORAGE_DIR=STORAGE, JAVA_HOME=JAVA_HOME)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def read_pid(path):
    try:
        return int(open(path).read().strip())
    except (OSError, ValueError):
        return None


@functools.cache
def _key_names():
    """The key names of the fault-checks jar's 'keys' command, for product 0: Keyspace and QueueKeys build them."""
    out = subprocess.run([JAVA, "-jar", os.path.join(WORK, "jars", CHECKS_JAR), "keys", "0"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def keys(p):
    """Every key name of product p. A product key is its name with the product's hash tag {<id>} (the Redis
    Cluster rule every key follows), so the names built for product 0 serve every product by that tag."""
    return {k: v.replace("{0}", f"{{{p}}}") if v.endswith("{0}") else v for k, v in _key_names().items()}


def port_open(port, host="127.0.0.1"):
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_for(pred, timeout, step=0.1):
    """Polls pred until it returns something truthy; returns that, or the last falsy value at the deadline."""
    end = time.monotonic() + timeout
    while True:
        value = pred()
        if value or time.monotonic() >= end:
            return value
        time.sleep(step)


# --- Redis: a client for the checks and a private server ------------------------------------------------------

RedisError = redis_py.RedisError  # every failure of the client: refused, timed out, closed, an error reply


# RESP2, asked for by name where the client can speak RESP3: redis-py 8 speaks RESP3 unless told otherwise, and
# there HGETALL answers a map, ZRANGE WITHSCORES pairs and ZSCORE a double, whatever callbacks are set. redis-py 4
# speaks RESP2 only and takes no such argument.
RESP2 = {"protocol": 2} if "protocol" in inspect.signature(redis_py.Redis.__init__).parameters else {}


class Redis:
    """The replies as the server sends them in RESP2: strings, integers, flat lists and None, without the conversions
    redis-py applies per command, so that HGETALL answers a flat list and ZSCORE a string, with every version of
    redis-py faults/requirements.txt allows. Threads may share one: each call takes a connection of its own from the
    client's pool, and a broken one is replaced on the next call."""

    def __init__(self, port, host="127.0.0.1", timeout=10):
        self.client = redis_py.Redis(host=host, port=port, socket_timeout=timeout, socket_connect_timeout=timeout,
                                     decode_responses=True, encoding_errors="replace", **RESP2)
        self.client.response_callbacks.clear()

    def __call__(self, *args):
        return self.client.execute_command(*args)

    def eval(self, script, keys=(), args=()):
        return self("EVAL", script, len(keys), *keys, *args)

    def close(self):
        self.client.connection_pool.disconnect()


class PrivateRedis:
    """The runner's redis-server, started by scripts/redis.sh in .local/faults/redis/ (no persistence except the
    snapshot a 'down' test asks for)."""

    def __init__(self, port=REDIS_PORT):
        self.port, self.dir = port, os.path.join(WORK, "redis")
        self.pidfile = os.path.join(self.dir, "redis.pid")
        self.client = Redis(port)

    def pid(self):
        return read_pid(self.pidfile)

    def start(self, fresh=True):
        if fresh:
            self._stop_leftover()
            for f in os.listdir(self.dir) if os.path.isdir(self.dir) else ():
                if f.endswith(".rdb"):
                    os.remove(os.path.join(self.dir, f))
        if port_open(self.port):
            raise SystemExit(f"port {self.port} is taken by something else; set FAULTS_REDIS_PORT")
        launcher("redis.sh", "ensure", REDIS_PORT=self.port)
        wait_for(self.pid, 5)

    def _stop_leftover(self):
        pid = self.pid()
        if pid and _alive(pid):
            os.kill(pid, signal.SIGCONT)
        launcher("redis.sh", "stop", REDIS_PORT=self.port)

    def freeze(self):
        os.kill(self.pid(), signal.SIGSTOP)

    def thaw(self):
        os.kill(self.pid(), signal.SIGCONT)

    def shutdown_saving(self):
        """Goes down like a crashed server whose data comes back on restart (SHUTDOWN SAVE, then gone)."""
        pid = self.pid()
        try:
            Redis(self.port, timeout=5)("SHUTDOWN", "SAVE")
        except (OSError, ConnectionError, RedisError):
            pass
        wait_for(lambda: not _alive(pid), 10)
        self.client.close()

    def kill9(self):
        """Gone at once, with everything it held (no persistence)."""
        pid = self.pid()
        if pid and _alive(pid):
            try:
                os.kill(pid, signal.SIGCONT)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            wait_for(lambda: not _alive(pid), 5)
        self.client.close()

    def stop(self):
        self._stop_leftover()
        self.client.close()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie child counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# --- Kafka: the single-node KRaft broker of scripts/kafka.sh, on this stack's ports and in .local/faults/kafka ------

class PrivateKafka:

    def __init__(self, port=KAFKA_PORT, controller_port=KAFKA_CONTROLLER_PORT):
        self.port, self.controller_port = port, controller_port
        self.dir = os.path.join(WORK, "kafka")
        self.logfile = os.path.join(self.dir, "kafka.log")
        self.proc = None

    def _launch(self, command):
        return launcher("kafka.sh", command, KAFKA_PORT=self.port, KAFKA_CONTROLLER_PORT=self.controller_port)

    def start(self, fresh=False):
        if fresh:
            self._launch("stop")  # a broker a crashed run left behind
            shutil.rmtree(os.path.join(STORAGE, "kafka"), ignore_errors=True)
        if port_open(self.port) or port_open(self.controller_port):
            raise SystemExit(f"port {self.port} or {self.controller_port} is taken; set FAULTS_KAFKA_PORT and "
                             "FAULTS_KAFKA_CONTROLLER_PORT")
        self._launch("start")
        self.proc = Attached(read_pid(os.path.join(self.dir, "kafka.pid")))

    def pid(self):
        return self.proc.pid if self.proc else None

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
        self._launch("stop")


class Attached:
    """A Popen look-alike for a process this run did not start (FAULTS_REUSE)."""

    def __init__(self, pid):
        self.pid = pid

    def poll(self):
        return None if _alive(self.pid) else -1

    def send_signal(self, sig):
        os.kill(self.pid, sig)

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout=None):
        if not wait_for(lambda: not _alive(self.pid), timeout or 3600, 0.05):
            raise subprocess.TimeoutExpired(str(self.pid), timeout)
        return -1


# --- The services ------------------------------------------------------------------------------------------

MODULES = ("ingest-service", "admission-worker", "booking-service")


def stage_jars():
    """Copies the three exec jars and the fault checks' aside, so a rebuild by someone else during a run cannot swap
    them underneath."""
    target = os.path.join(WORK, "jars")
    os.makedirs(target, exist_ok=True)
    sources = [os.path.join(ROOT, m, "target", f"{m}-{VERSION}-exec.jar") for m in MODULES]
    sources.append(os.path.join(ROOT, "fault-checks", "target", CHECKS_JAR))
    for src in sources:
        if not os.path.exists(src):
            raise SystemExit(f"{src} not found; build first (faults/run.sh builds when jars are missing)")
        shutil.copy2(src, os.path.join(target, os.path.basename(src)))
    return target


class Service:
    """One service process, launched the way run.sh launches it."""

    def __init__(self, stack, module, port, redis_port, extra_env=None, name=None):
        self.stack, self.module, self.port, self.redis_port = stack, module, port, redis_port
        self.extra_env = extra_env or {}
        self.name = name or f"{module}:{port}"
        self.proc = None
        self.base = f"http://127.0.0.1:{port}"
        self.management = f"http://127.0.0.1:{port + MANAGEMENT_OFFSET}"
        self.log = os.path.join(WORK, "logs", f"{module}-{port}.log")
        self.starts = 0

    def start(self):
        if port_open(self.port):
            raise SystemExit(f"port {self.port} is taken; set FAULTS_PORT_BASE to move the runner's ports")
        env = script_env(
            SERVER_PORT=self.port,
            MANAGEMENT_SERVER_PORT=self.port + MANAGEMENT_OFFSET,
            KAFKA_PORT=self.stack.kafka.port,
            REDIS_PORT=self.redis_port,
            ADMIN_TOKEN=self.stack.admin_token,
            QUEUE_TOKEN_SECRET=self.stack.token_secret,
            ENTER_KEY=self.stack.enter_key,
            SERVICE_JAR=os.path.join(WORK, "jars", f"{self.module}-{VERSION}-exec.jar"),
        )
        env.pop("SPRING_PROFILES_ACTIVE", None)
        # the warm-ups make a sale's first seconds fast, at up to a minute per start; the faults restart services
        # again and again and measure what they keep, not how fast they are
        env.update(QUEUEGATE_INGEST_WARM_UP_DURATION="0", QUEUEGATE_ADMISSION_WARM_UP_DURATION="0")
        # every client of the faults is 127.0.0.1, thousands of users at once
        env.update(QUEUEGATE_INGEST_PER_CLIENT_ENABLED="false")
        env.update(self.extra_env)
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        out = open(self.log, "ab")
        out.write(f"\n===== start {self.starts + 1} at {time.strftime('%H:%M:%S')} =====\n".encode())
        out.flush()
        # service.sh execs the JVM, so this child is the service itself: its pid is the one the faults signal
        self.proc = subprocess.Popen(["bash", os.path.join(SCRIPTS, "service.sh"), self.module],
                                     env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        self.starts += 1
        return self

    def healthy(self):
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port + MANAGEMENT_OFFSET, timeout=2)
            c.request("GET", "/actuator/health")
            r = c.getresponse()
            r.read()
            c.close()
            return r.status == 200
        except OSError:
            return False

    def wait_healthy(self, timeout=180):
        ok = wait_for(lambda: self.proc.poll() is not None or self.healthy(), timeout, 0.25)
        if self.proc.poll() is not None or not ok:
            tail = open(self.log, "rb").read()[-3000:].decode("utf-8", "replace")
            raise SystemExit(f"{self.name} did not become healthy within {timeout}s:\n{tail}")
        return self

    def pid(self):
        return self.proc.pid if self.proc else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def attach(self, pid):
        self.proc = Attached(pid)
        return self

    def kill9(self):
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self, grace=30):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Stack:
    """The private stack: one Redis, one broker, ingest, a worker and booking; more workers on demand."""

    def __init__(self):
        os.makedirs(WORK, exist_ok=True)
        self.admin_token = uuid.uuid4().hex + uuid.uuid4().hex[:16]
        self.token_secret = "faults-" + uuid.uuid4().hex + uuid.uuid4().hex
        # the key the shop's backend enters its users with, in lines of identity "trusted" (never the admin token)
        self.enter_key = "faults-enter-" + uuid.uuid4().hex + uuid.uuid4().hex
        self.redis = PrivateRedis()
        self.kafka = PrivateKafka()
        self.services = []
        self.ingest = self.add("ingest-service", PORT_BASE)
        self.worker = self.add("admission-worker", PORT_BASE + 1)
        self.booking = self.add("booking-service", PORT_BASE + 2)

    def add(self, module, port, redis_port=None, **env):
        s = Service(self, module, port, redis_port or self.redis.port, env)
        self.services.append(s)
        return s

    STATE = os.path.join(WORK, "stack.json")

    def save(self):
        json.dump({"admin": self.admin_token, "secret": self.token_secret, "enter": self.enter_key,
                   "kafka": self.kafka.pid(),
                   "services": {str(s.port): s.pid() for s in self.services if s.alive()}},
                  open(self.STATE, "w"))

    def attach(self):
        """Attaches to the stack a previous FAULTS_KEEP=1 run left running (development only)."""
        state = json.load(open(self.STATE))
        _key_names()
        self.admin_token, self.token_secret, self.enter_key = state["admin"], state["secret"], state["enter"]
        self.kafka.proc = Attached(state["kafka"])
        for s in self.services:
            if str(s.port) in state["services"]:
                s.attach(state["services"][str(s.port)])
        if not all(s.alive() and s.healthy() for s in (self.ingest, self.worker, self.booking)):
            raise SystemExit("FAULTS_REUSE: the kept stack is not healthy; run without it")

    def start(self):
        stage_jars()
        _key_names()  # read once here, so that no scenario waits for a JVM at a moment it times
        shutil.rmtree(os.path.join(WORK, "logs"), ignore_errors=True)
        self.redis.start(fresh=True)
        self.kafka.start(fresh=True)
        for s in (self.ingest, self.worker, self.booking):
            s.start()
        for s in (self.ingest, self.worker, self.booking):
            s.wait_healthy()

    def stop(self):
        for s in self.services:
            try:
                s.stop(grace=15)
            except Exception as e:  # noqa: BLE001 - best effort at teardown
                log(f"stopping {s.name}: {e}")
        self.kafka.stop()
        self.redis.stop()


# --- HTTP ----------------------------------------------------------------------------------------------------

def key_header(key):
    """The header a shop's backend enters its users with in a line of identity "trusted": its enter key as a bearer
    token. Every enter of the runner that names its user goes with it (Api.enter, the corpus, the floods)."""
    return {"Authorization": f"Bearer {key}"}


def header_lines(headers):
    """Headers as the lines of a raw request."""
    return [f"{name}: {value}" for name, value in headers.items()]


class Reply:
    __slots__ = ("status", "headers", "body", "elapsed", "error")

    def __init__(self, status, headers, body, elapsed, error=None):
        self.status, self.headers, self.body, self.elapsed, self.error = status, headers, body, elapsed, error

    def json(self):
        try:
            return json.loads(self.body)
        except (ValueError, TypeError):
            return None

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def __repr__(self):
        return f"<{self.status or self.error} {self.body[:200]!r} {self.elapsed * 1000:.0f}ms>"


class Client:
    """A keep-alive HTTP/1.1 connection to one base URL; reconnects after an error, never retries a request."""

    def __init__(self, base, timeout=15):
        host, port = base.replace("http://", "").split(":")
        self.host, self.port, self.timeout, self.conn = host, int(port), timeout, None

    STALE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, http.client.RemoteDisconnected)

    def call(self, method, path, body=None, headers=None, raw=None, timeout=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        h = {"Accept": "application/json, application/problem+json"}
        if data is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        t0 = time.monotonic()
        for attempt in (1, 2):
            reused = self.conn is not None
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout or self.timeout)
                else:
                    self.conn.timeout = timeout or self.timeout
                    if self.conn.sock:
                        self.conn.sock.settimeout(self.conn.timeout)
                self.conn.request(method, path, body=data, headers=h)
                r = self.conn.getresponse()
                payload = r.read().decode("utf-8", "replace")
                if r.getheader("Connection", "").lower() == "close":
                    self.close()
                return Reply(r.status, r.getheaders(), payload, time.monotonic() - t0)
            except (OSError, http.client.HTTPException) as e:
                self.close()
                # a kept-alive connection the server closed while idle: the request never arrived, send it again
                if attempt == 1 and reused and isinstance(e, self.STALE) and time.monotonic() - t0 < 1:
                    continue
                return Reply(0, [], "", time.monotonic() - t0, f"{type(e).__name__}: {e}")

    def close(self):
        if self.conn:
            self.conn.close()
        self.conn = None


_local = threading.local()


def client(base):
    """This thread's keep-alive client for base."""
    clients = getattr(_local, "clients", None)
    if clients is None:
        clients = _local.clients = {}
    if base not in clients:
        clients[base] = Client(base)
    return clients[base]


def pct(values, q):
    """The q-quantile of values (0 when there are none)."""
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def new_product():
    return random.randint(10**9, 9 * 10**9)
