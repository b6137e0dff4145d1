"""The fault runner's private stack: a Redis, a Kafka broker and the three services as separate processes.

Everything here runs on ports and folders of its own (.local/faults/), so the runner neither disturbs the
stack of ./run.sh (Redis 6379, Kafka 9092, services 8080-8082) nor is disturbed by it. Standard library only.
"""
import glob
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".local", "faults")
VERSION = "0.1.0-SNAPSHOT"


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
    for candidate in (os.environ.get("QG_JAVA_HOME"), os.environ.get("JAVA_HOME"),
                      "/usr/lib/jvm/temurin-25-jdk-amd64", *sorted(glob.glob("/usr/lib/jvm/*25*"))):
        if candidate and os.access(os.path.join(candidate, "bin", "java"), os.X_OK):
            out = subprocess.run([os.path.join(candidate, "bin", "java"), "-XshowSettings:properties", "-version"],
                                 capture_output=True, text=True).stderr
            for line in out.splitlines():
                if "java.specification.version" in line and int(line.split("=")[1].strip().split(".")[0]) >= 25:
                    return candidate
    sys.exit("no JDK 25 found; set JAVA_HOME to one (e.g. /usr/lib/jvm/temurin-25-jdk-amd64)")


JAVA_HOME = java_home()
JAVA = os.path.join(JAVA_HOME, "bin", "java")


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


# --- Redis: a minimal RESP client and a private server ---------------------------------------------------

class RedisError(Exception):
    pass


class Redis:
    """One connection, one command at a time (callers that share it hold self.lock)."""

    def __init__(self, port, host="127.0.0.1", timeout=10):
        self.addr, self.timeout, self.sock, self.buf = (host, port), timeout, None, b""
        self.lock = threading.Lock()

    def _connect(self):
        self.sock = socket.create_connection(self.addr, timeout=self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def close(self):
        if self.sock:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(max(1 << 20, n + 2 - len(self.buf)))
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def _reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n).decode("utf-8", "replace")
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._reply() for _ in range(n)]
        raise RedisError(f"unexpected reply {line[:80]!r}")

    def __call__(self, *args):
        with self.lock:
            if self.sock is None:
                self._connect()
            parts = [f"*{len(args)}\r\n".encode()]
            for a in args:
                b = a if isinstance(a, bytes) else str(a).encode()
                parts.append(b"$%d\r\n%s\r\n" % (len(b), b))
            try:
                self.sock.sendall(b"".join(parts))
                return self._reply()
            except (OSError, ConnectionError):
                self.close()
                raise

    def eval(self, script, keys=(), args=()):
        return self("EVAL", script, len(keys), *keys, *args)


class PrivateRedis:
    """redis-server on its own port, without persistence except the snapshot a 'down' test asks for."""

    def __init__(self, port=REDIS_PORT):
        self.port, self.dir = port, os.path.join(WORK, "redis")
        self.pidfile = os.path.join(self.dir, "redis.pid")
        self.client = Redis(port)

    def pid(self):
        try:
            return int(open(self.pidfile).read().strip())
        except (OSError, ValueError):
            return None

    def start(self, fresh=True):
        os.makedirs(self.dir, exist_ok=True)
        if fresh:
            self._stop_leftover()
            for f in glob.glob(os.path.join(self.dir, "*.rdb")):
                os.remove(f)
        if port_open(self.port):
            raise SystemExit(f"port {self.port} is taken by something else; set FAULTS_REDIS_PORT")
        subprocess.run(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--daemonize", "yes", "--dir", self.dir, "--dbfilename",
                        "faults.rdb", "--pidfile", self.pidfile, "--logfile", os.path.join(self.dir, "redis.log")],
                       check=True)
        if not wait_for(self.ping, 10):
            raise SystemExit(f"private redis-server on :{self.port} did not answer PING")
        wait_for(self.pid, 5)

    def ping(self):
        try:
            return Redis(self.port, timeout=1)("PING") == "PONG"
        except (OSError, RedisError):
            return False

    def _stop_leftover(self):
        pid = self.pid()
        if pid and _cmdline_has(pid, "redis-server") and f":{self.port}" in _cmdline(pid):
            os.kill(pid, signal.SIGKILL)
            wait_for(lambda: not _alive(pid), 5)

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

    def stop(self):
        pid = self.pid()
        if pid and _alive(pid):
            try:
                os.kill(pid, signal.SIGCONT)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            wait_for(lambda: not _alive(pid), 5)
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


def _cmdline(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _cmdline_has(pid, text):
    return text in _cmdline(pid)


# --- Kafka: a private single-node KRaft broker, as scripts/kafka.sh runs one -------------------------------

class PrivateKafka:
    MAIN = "kafka.Kafka"

    def __init__(self, port=KAFKA_PORT, controller_port=KAFKA_CONTROLLER_PORT):
        self.port, self.controller_port = port, controller_port
        self.dir = os.path.join(WORK, "kafka")
        self.data = os.path.join(self.dir, "data")
        self.props = os.path.join(self.dir, "server.properties")
        self.logfile = os.path.join(self.dir, "kafka.log")
        self.proc = None

    def libs(self):
        for candidate in (os.path.join(ROOT, ".local", "kafka", "libs"), os.path.join(self.dir, "libs")):
            if glob.glob(os.path.join(candidate, "kafka_2.13-*.jar")) and \
                    glob.glob(os.path.join(candidate, "log4j-slf4j-impl-*.jar")):
                return candidate
        target = os.path.join(self.dir, "libs")
        log(f"resolving the Kafka broker jars into {os.path.relpath(target, ROOT)} (once)")
        tmp = target + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        mvn = os.path.join(ROOT, "mvnw") if os.access(os.path.join(ROOT, "mvnw"), os.X_OK) else "mvn"
        with open(os.path.join(self.dir, "resolve.log"), "wb") as out:
            done = subprocess.run([mvn, "-q", "-B", "-f", os.path.join(ROOT, "kafka", "pom.xml"),
                                   "dependency:copy-dependencies", f"-DoutputDirectory={tmp}",
                                   "-DincludeScope=runtime"], stdout=out, stderr=subprocess.STDOUT, env=java_env())
        if done.returncode != 0:
            raise SystemExit(f"could not resolve the Kafka jars; see {os.path.join(self.dir, 'resolve.log')}")
        shutil.rmtree(target, ignore_errors=True)
        os.rename(tmp, target)
        return target

    def start(self, fresh=False):
        os.makedirs(self.dir, exist_ok=True)
        if fresh:
            self._stop_leftover()
            shutil.rmtree(self.data, ignore_errors=True)
        if port_open(self.port) or port_open(self.controller_port):
            raise SystemExit(f"port {self.port} or {self.controller_port} is taken; set FAULTS_KAFKA_PORT and "
                             "FAULTS_KAFKA_CONTROLLER_PORT")
        libs = self.libs()
        cp = os.path.join(libs, "*")
        if fresh or not os.path.exists(os.path.join(self.data, "meta.properties")):
            os.makedirs(self.data, exist_ok=True)
            template = open(os.path.join(ROOT, "kafka", "server.properties.template")).read()
            open(self.props, "w").write(template.replace("@LOG_DIRS@", self.data)
                                        .replace("@KAFKA_PORT@", str(self.port))
                                        .replace("@CONTROLLER_PORT@", str(self.controller_port)))
            cluster = subprocess.run([JAVA, "-cp", cp, "kafka.tools.StorageTool", "random-uuid"],
                                     capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
            subprocess.run([JAVA, "--sun-misc-unsafe-memory-access=allow",
                            f"-Dlog4j2.configurationFile={ROOT}/kafka/log4j2.yaml", "-cp", cp,
                            "kafka.tools.StorageTool", "format", "-t", cluster, "-c", self.props],
                           capture_output=True, check=True)
        before = open(self.logfile, "rb").read().count(b"Kafka Server started") if os.path.exists(self.logfile) else 0
        out = open(self.logfile, "ab")
        self.proc = subprocess.Popen([JAVA, "--sun-misc-unsafe-memory-access=allow", "-Xms512m", "-Xmx512m",
                                      "-XX:+UseG1GC", "-Djava.awt.headless=true",
                                      f"-Dlog4j2.configurationFile={ROOT}/kafka/log4j2.yaml", "-cp", cp,
                                      self.MAIN, self.props],
                                     stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        open(os.path.join(self.dir, "kafka.pid"), "w").write(str(self.proc.pid))
        ok = wait_for(lambda: self.proc.poll() is not None or (
            open(self.logfile, "rb").read().count(b"Kafka Server started") > before
            and port_open(self.port)), 90, 0.2)
        if self.proc.poll() is not None or not ok:
            raise SystemExit(f"the private Kafka broker did not start; see {self.logfile}")

    def _stop_leftover(self):
        try:
            pid = int(open(os.path.join(self.dir, "kafka.pid")).read().strip())
        except (OSError, ValueError):
            return
        if _alive(pid) and _cmdline_has(pid, self.MAIN) and self.props in _cmdline(pid):
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGKILL)
            wait_for(lambda: not _alive(pid), 10)

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
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


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


def java_env():
    env = dict(os.environ)
    env["JAVA_HOME"] = JAVA_HOME
    env["PATH"] = os.path.join(JAVA_HOME, "bin") + os.pathsep + env.get("PATH", "")
    env.setdefault("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow")
    return env


# --- The services ------------------------------------------------------------------------------------------

MODULES = ("ingest-service", "admission-worker", "booking-service")


def stage_jars():
    """Copies the three exec jars aside, so a rebuild by someone else during a run cannot swap them underneath."""
    target = os.path.join(WORK, "jars")
    os.makedirs(target, exist_ok=True)
    for module in MODULES:
        src = os.path.join(ROOT, module, "target", f"{module}-{VERSION}-exec.jar")
        if not os.path.exists(src):
            raise SystemExit(f"{src} not found; build first (faults/run.sh builds when jars are missing)")
        shutil.copy2(src, os.path.join(target, os.path.basename(src)))
    return target


def stage_classpath():
    """A classpath for the in-process checks: queuegate-core and the booking service's own libraries."""
    target = os.path.join(WORK, "lib")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    with zipfile.ZipFile(os.path.join(WORK, "jars", f"booking-service-{VERSION}-exec.jar")) as z:
        for name in z.namelist():
            if name.startswith("BOOT-INF/lib/") and name.endswith(".jar"):
                with z.open(name) as src, open(os.path.join(target, os.path.basename(name)), "wb") as dst:
                    shutil.copyfileobj(src, dst)
    return os.path.join(target, "*")


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
        env = java_env()
        env.update({
            "SERVER_PORT": str(self.port),
            "MANAGEMENT_SERVER_PORT": str(self.port + MANAGEMENT_OFFSET),
            "SPRING_KAFKA_BOOTSTRAP_SERVERS": f"127.0.0.1:{self.stack.kafka.port}",
            "SPRING_DATA_REDIS_HOST": "127.0.0.1",
            "SPRING_DATA_REDIS_PORT": str(self.redis_port),
            "ADMIN_TOKEN": self.stack.admin_token,
            "QUEUEGATE_ADMIN_TOKEN": self.stack.admin_token,
            "QUEUE_TOKEN_SECRET": self.stack.token_secret,
            "QUEUEGATE_TOKEN_SECRET": self.stack.token_secret,
        })
        env.pop("SPRING_PROFILES_ACTIVE", None)
        env.update(self.extra_env)
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        out = open(self.log, "ab")
        out.write(f"\n===== start {self.starts + 1} at {time.strftime('%H:%M:%S')} =====\n".encode())
        out.flush()
        jar = os.path.join(WORK, "jars", f"{self.module}-{VERSION}-exec.jar")
        self.proc = subprocess.Popen([JAVA, "--sun-misc-unsafe-memory-access=allow", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", "-Xms256m",
                                      "-Xmx512m", *os.environ.get("QG_JAVA_OPTS", "").split(), "-jar", jar],
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
        json.dump({"admin": self.admin_token, "secret": self.token_secret, "kafka": self.kafka.pid(),
                   "services": {str(s.port): s.pid() for s in self.services if s.alive()}},
                  open(self.STATE, "w"))

    def attach(self):
        """Attaches to the stack a previous FAULTS_KEEP=1 run left running (development only)."""
        state = json.load(open(self.STATE))
        self.admin_token, self.token_secret = state["admin"], state["secret"]
        self.kafka.proc = Attached(state["kafka"])
        for s in self.services:
            if str(s.port) in state["services"]:
                s.attach(state["services"][str(s.port)])
        if not all(s.alive() and s.healthy() for s in (self.ingest, self.worker, self.booking)):
            raise SystemExit("FAULTS_REUSE: the kept stack is not healthy; run without it")

    def start(self):
        stage_jars()
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
