"""Slow and idle clients at ingest's door, for faults/run.py: slowloris on headers and on bodies, idle connections,
pipelined requests and HTTP/1.0 keep-alive, while a well-behaved client beside them is answered. Standard library
only; asyncio holds the thousands of sockets in one thread.

The attackers connect from 127.0.0.2-127.0.0.9 (Linux routes all of 127/8 to loopback), the well-behaved client
from 127.0.0.1, as they would come from different addresses in a real sale: the per-address connection cap is
part of what is tried, and it must not refuse the well-behaved client."""
import asyncio
import re
import time

ATTACKER_ADDRESSES = [f"127.0.0.{i}" for i in range(2, 10)]


def _address(i):
    return ATTACKER_ADDRESSES[i % len(ATTACKER_ADDRESSES)]


async def _open(port, source):
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def _read_status(reader, timeout):
    """The status of the first answer on the connection, or None when it closes or stays silent."""
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
    except (asyncio.TimeoutError, ConnectionError):
        return None
    m = re.match(rb"HTTP/1\.[01] (\d{3})", line)
    return int(m.group(1)) if m else None


class Tally:
    def __init__(self):
        self.statuses = {}
        self.unanswered = 0
        self.connect_errors = 0

    def add(self, status):
        if status is None:
            self.unanswered += 1
        else:
            self.statuses[status] = self.statuses.get(status, 0) + 1


async def _connections(port, i, until, tally):
    """Connection after connection from attacker address i until `until`; a refused connect is counted."""
    while time.monotonic() < until:
        try:
            yield await _open(port, _address(i))
        except OSError:
            tally.connect_errors += 1
            await asyncio.sleep(0.5)


async def slow_headers(port, i, until, tally, gap):
    """Sends a request's headers a byte every `gap` seconds, reconnecting after each answer, until `until`."""
    async for reader, writer in _connections(port, i, until, tally):
        request = b"GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
        status = None
        try:
            for byte in request:
                writer.write(bytes([byte]))
                await writer.drain()
                status = await _read_status(reader, gap)
                if status is not None or reader.at_eof() or time.monotonic() > until + 30:
                    break
        except ConnectionError:
            pass
        tally.add(status)
        writer.close()


async def slow_body(port, i, until, tally, path, chunked):
    """Declares a body and sends only its start, reconnecting after each answer, until `until`."""
    async for reader, writer in _connections(port, i, until, tally):
        framing = b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"use\r\n" if chunked else \
            b"Content-Length: 60\r\n\r\n{\"userId\":"
        writer.write(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n" + framing)
        try:
            await writer.drain()
            status = await _read_status(reader, 60)
        except ConnectionError:
            status = None
        tally.add(status)
        writer.close()


async def idle(port, i, until, tally):
    """Connects and says nothing."""
    try:
        reader, writer = await _open(port, _address(i))
    except OSError:
        tally.connect_errors += 1
        return
    try:
        await asyncio.wait_for(reader.read(), max(0.1, until - time.monotonic()))
    except (asyncio.TimeoutError, ConnectionError):
        pass
    writer.close()


async def pipelined(port, n):
    """`n` requests in one write on one connection, each with its own X-Request-Id: the answers must come back in
    order, each with its request's id, on this connection."""
    reader, writer = await _open(port, "127.0.0.1")
    ids = [f"pipe-{time.monotonic_ns()}-{k}" for k in range(n)]
    writer.write(b"".join(f"GET /api/v1/page-settings HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: {rid}\r\n\r\n"
                          .encode() for rid in ids))
    await writer.drain()
    seen = []
    for _ in ids:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        await asyncio.wait_for(reader.readexactly(length), 5)
        m = re.search(rb"(?i)x-request-id: *(\S+)", head)
        seen.append(m.group(1).decode() if m else None)
    writer.close()
    return ids, seen


async def http10_keep_alive(port):
    """Two HTTP/1.0 requests on one connection that asked to be kept alive: both answered, in order."""
    reader, writer = await _open(port, "127.0.0.1")
    seen = []
    for k in range(2):
        rid = f"h10-{time.monotonic_ns()}-{k}"
        writer.write(f"GET /api/v1/page-settings HTTP/1.0\r\nConnection: keep-alive\r\nX-Request-Id: {rid}\r\n\r\n"
                     .encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        await asyncio.wait_for(reader.readexactly(length), 5)
        m = re.search(rb"(?i)x-request-id: *(\S+)", head)
        seen.append((rid, m.group(1).decode() if m else None))
    writer.close()
    return seen


def attack(port, p, seconds, slow_header_conns, slow_body_conns, idle_conns):
    """Runs the attackers for `seconds`; returns their tallies."""
    tallies = {"slow headers": Tally(), "slow bodies": Tally(), "idle": Tally()}
    enter = f"/api/v1/queues/{p}/entries"

    async def main():
        until = time.monotonic() + seconds
        tasks = [slow_headers(port, i, until, tallies["slow headers"], 2.0) for i in range(slow_header_conns)]
        tasks += [slow_body(port, i, until, tallies["slow bodies"], enter, i % 2 == 0)
                  for i in range(slow_body_conns)]
        tasks += [idle(port, i, until, tallies["idle"]) for i in range(idle_conns)]
        await asyncio.gather(*tasks)

    asyncio.run(main())
    return tallies


def framing(port, pipelined_n=8):
    async def main():
        return await pipelined(port, pipelined_n), await http10_keep_alive(port)
    return asyncio.run(main())
