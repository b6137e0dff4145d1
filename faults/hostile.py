"""Hostile requests, forged tokens and floods for faults/run.py. Standard library only.

Every request of the corpus is sent raw over its own TCP connection, so malformed request lines, odd encodings and
oversized parts reach the server exactly as written."""
import asyncio
import base64
import collections
import gzip
import hashlib
import hmac
import json
import random
import re
import socket
import threading
import time
import urllib.parse

import stack as S


class Case:
    """One raw request. `expect`, when given, is the (status, problem code) it must be answered with; `code` is the
    problem code it was answered with, once sent."""
    __slots__ = ("name", "group", "port", "data", "write", "expect", "code")

    def __init__(self, name, group, port, data, write, expect=None):
        self.name, self.group, self.port, self.data, self.write = name, group, port, data, write
        self.expect, self.code = expect, None


def raw(method, path, headers=(), body=None, version=b"HTTP/1.1", host=True, length=True):
    """Builds a request from bytes or latin-1 strings, exactly as given."""
    def b(x):
        return x if isinstance(x, bytes) else x.encode("latin-1")
    lines = [b(method) + b" " + b(path) + b" " + b(version)]
    if host:
        lines.append(b"Host: 127.0.0.1")
    lines += [b(h) for h in headers]
    if body is not None and length:
        lines.append(b"Content-Length: %d" % len(b(body)))
    lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + (b(body) if body is not None else b"")


def chunked(data, size=65536):
    out = [b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size)]
    return b"".join(out) + b"0\r\n\r\n"


JSON = "Content-Type: application/json"


def tampered(token):
    """The token with one character of its signature changed, always to another one. Not its last characters: a
    base64 tail carries padding bits, and a tail that happened to read "AA" already was the genuine token, once in
    about 256 runs."""
    at = len(token) - 6
    return token[:at] + ("B" if token[at] != "B" else "C") + token[at + 1:]


def solved(challenge):
    """ALTCHA's payload for a challenge, found as a browser finds it (SHA-256 of salt + n)."""
    for n in range(challenge["maxnumber"] + 1):
        if hashlib.sha256((challenge["salt"] + str(n)).encode()).hexdigest() == challenge["challenge"]:
            return {"algorithm": challenge["algorithm"], "challenge": challenge["challenge"], "number": n,
                    "salt": challenge["salt"], "signature": challenge["signature"]}
    raise RuntimeError("the challenge has no solution up to maxnumber")


def b64(obj):
    return base64.b64encode(obj if isinstance(obj, bytes) else json.dumps(obj).encode()).decode()


def proof_cases(stack, pw, proof, add):
    """Enters of a line that asks for proof of work (pw), with proofs no client can turn into a place: `proof` is a
    genuine solution for user hx-alice, used here for others or changed; and challenge fetches that are refused."""
    ing, adm = stack.ingest.port, stack.worker.port
    admin = f"Authorization: Bearer {stack.admin_token}"
    keyed = S.header_lines(S.key_header(stack.enter_key))  # the line is trusted: only the proof is wrong
    enter = f"/api/v1/queues/{pw}/entries"
    bad = {
        "no proof": None, "empty proof": "", "not base64": "!!not base64!!", "base64 of text": b64(b"not json"),
        "base64 of an array": b64([]), "base64 of null": b64(b"null"), "base64 of {}": b64({}),
        "alg none": b64({**proof, "algorithm": "none"}), "alg SHA-1": b64({**proof, "algorithm": "SHA-1"}),
        "number 1e400": b64(json.dumps({**proof, "number": 1}).replace('"number": 1', '"number": 1e400').encode()),
        "number 2^70": b64(json.dumps({**proof, "number": 1}).replace('"number": 1', f'"number": {2**70}').encode()),
        "number negative": b64({**proof, "number": -1}), "number as text": b64({**proof, "number": "7"}),
        "number off by one": b64({**proof, "number": proof["number"] + 1}),
        "salt for another user": b64({**proof, "salt": proof["salt"].replace("user=hx-alice", "user=hx-bob")}),
        "salt without expiry": b64({**proof, "salt": "abc?product=1&user=hx-bob"}),
        "signature changed": b64({**proof, "signature": "0" * 64}),
        "signature of another key": b64({**proof, "signature": hashlib.sha256(b"x").hexdigest()}),
        "challenge not hex": b64({**proof, "challenge": "zz" * 32}),
        "another user's genuine proof": b64(proof), "10 KB proof": "A" * 10_000,
    }
    for name, value in bad.items():
        body = {"userId": "hx-bob"} if value is None else {"userId": "hx-bob", "proof": value}
        add("proof", f"enter, {name}", ing, raw("POST", enter, [JSON, *keyed], json.dumps(body).encode()), True)
    for name, value in {"proof a number": 7, "proof an object": {"a": 1}, "proof an array": [proof]}.items():
        add("proof", f"enter, {name}", ing,
            raw("POST", enter, [JSON, *keyed], json.dumps({"userId": "hx-bob", "proof": value}).encode()), True)
    challenge = f"/api/v1/queues/{pw}/challenge"
    for name, query in {"no userId": "", "empty userId": "?userId=", "userId with a space": "?userId=a%20b",
                        "userId of 65 characters": "?userId=" + "u" * 65, "two userIds": "?userId=a&userId=b",
                        "userId injection": "?userId=%3Cscript%3E", "userId 10 KB": "?userId=" + "u" * 10_000}.items():
        add("proof", f"challenge, {name}", ing, raw("GET", challenge + query), False)
    add("proof", "challenge of a product with no queue", ing,
        raw("GET", f"/api/v1/queues/{S.new_product()}/challenge?userId=hx-a"), False)
    # the operator's revoke: only with the admin token, only for a token this deployment issued for this product
    revoke = f"/api/v1/queues/{pw}/entries/"
    add("proof", "revoke without a bearer", adm, raw("DELETE", revoke + "x"), True)
    add("proof", "revoke of a forged token", adm, raw("DELETE", revoke + "AQEAAAAAAAAAAAAAAAAAAAAAAAA", [admin]), True)
    add("proof", "revoke of a 64 KB token", adm, raw("DELETE", revoke + "A" * 65536, [admin]), True)


# The public half of a P-256 key whose private half nobody kept: an invite-only line whose every pass must be refused.
PASS_KEY = {"kty": "EC", "crv": "P-256", "kid": "hostile-shop",
            "x": "TeECjdWTjmtC3NAag5_QYSxZla_1AlaAOV58kSMZf1o", "y": "2iWKbpPppdjPopN_yz-5pueLrH_xSHNjk526uU_z2jY"}


def jws(header, claims, signature=b"\x00" * 64):
    part = lambda v: base64.urlsafe_b64encode(v if isinstance(v, bytes) else json.dumps(v).encode()).rstrip(b"=")
    return b".".join([part(header), part(claims), part(signature)]).decode()


def pass_cases(stack, pp, add):
    """Enters of an invite-only line (pp, keyed by PASS_KEY) with passes no client can make: unsigned, signed with
    HMAC over the public key, by a key not in the set, malformed; and bad pass keys for a queue."""
    ing, adm = stack.ingest.port, stack.worker.port
    admin = f"Authorization: Bearer {stack.admin_token}"
    enter = f"/api/v1/queues/{pp}/entries"
    claims = {"sub": "hx-bob", "product": pp, "exp": int(time.time()) + 600, "lane": "priority"}
    confusion = hmac.new(json.dumps(PASS_KEY).encode(), digestmod=hashlib.sha256)
    header = {"alg": "HS256", "kid": "hostile-shop"}
    unsigned = jws(header, claims, b"")
    confusion.update(unsigned.rsplit(".", 1)[0].encode())
    bad = {
        "no pass": None, "empty pass": "", "alg none": jws({"alg": "none"}, claims, b""),
        "alg none, kid of the set": jws({"alg": "none", "kid": "hostile-shop"}, claims, b""),
        "HS256 keyed with the public key": jws(header, claims, confusion.digest()),
        "ES256 by a kid not in the set": jws({"alg": "ES256", "kid": "another-shop"}, claims),
        "ES256 with a zero signature": jws({"alg": "ES256", "kid": "hostile-shop"}, claims),
        "ES512": jws({"alg": "ES512", "kid": "hostile-shop"}, claims, b"\x01" * 132),
        "RS256": jws({"alg": "RS256", "kid": "hostile-shop"}, claims, b"\x01" * 256),
        "header not JSON": base64.urlsafe_b64encode(b"{{{").decode() + ".e30.AA",
        "two parts": "eyJhbGciOiJFUzI1NiJ9.e30", "five parts (JWE)": "a.b.c.d.e", "not base64": "!!.!!.!!",
        "claims with a huge exp": jws({"alg": "ES256", "kid": "hostile-shop"}, {**claims, "exp": 10**30}),
        "product as text": jws({"alg": "ES256", "kid": "hostile-shop"}, {**claims, "product": str(pp)}),
        "jwk in the header": jws({"alg": "ES256", "jwk": PASS_KEY}, claims),
        "5 KB pass": "A" * 5000,
    }
    for name, value in bad.items():
        body = {"userId": "hx-bob"} if value is None else {"userId": "hx-bob", "pass": value}
        add("pass", f"enter, {name}", ing, raw("POST", enter, [JSON], json.dumps(body).encode()), True)
    for name, value in {"pass a number": 7, "pass an object": {"a": 1}, "pass an array": ["x"]}.items():
        add("pass", f"enter, {name}", ing,
            raw("POST", enter, [JSON], json.dumps({"userId": "hx-bob", "pass": value}).encode()), True)
    queue = {"maxActive": 7, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False}
    private = {**PASS_KEY, "d": "AAAA"}
    for name, extra in {"invite-only without keys": {"inviteOnly": True}, "a private key": {"passKeys": [private]},
                        "an RSA key": {"passKeys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB"}]},
                        "a symmetric key": {"passKeys": [{"kty": "oct", "k": "c2VjcmV0"}]},
                        "no keys": {"passKeys": []}, "eleven keys": {"passKeys": [PASS_KEY] * 11},
                        "a point off the curve": {"passKeys": [{**PASS_KEY, "y": PASS_KEY["x"]}]},
                        "keys an object": {"passKeys": {"keys": [PASS_KEY]}},
                        "keys and where they are published": {"passKeys": [PASS_KEY],
                                                               "passJwksUri": "https://shop.example/jwks.json"},
                        "a key set at a file URL": {"passJwksUri": "file:///etc/passwd"},
                        "a key set at a relative URL": {"passJwksUri": "/jwks.json"},
                        "a key set URL of 3,000 characters": {"passJwksUri": "https://s.example/" + "k" * 3000},
                        "a key set URL a number": {"passJwksUri": 7},
                        "invite-only, keys published nowhere": {"inviteOnly": True, "passJwksUri": ""},
                        "identity pass without keys": {"identity": "pass"},
                        "identity of another name": {"identity": "admin"},
                        "identity in upper case": {"identity": "TRUSTED", "passKeys": [PASS_KEY]},
                        "identity a number": {"identity": 1, "passKeys": [PASS_KEY]},
                        "identity an array": {"identity": ["pass"], "passKeys": [PASS_KEY]},
                        "invite-only with identity visitor": {"inviteOnly": True, "identity": "visitor",
                                                              "passKeys": [PASS_KEY]},
                        "invite-only with identity trusted": {"inviteOnly": True, "identity": "trusted",
                                                              "passKeys": [PASS_KEY]}}.items():
        add("pass", f"queue PUT, {name}", adm, raw("PUT", f"/api/v1/queues/{pp}", [JSON, admin],
                                                    json.dumps({**queue, **extra}).encode()), True)
    # the operator's holds and deletions: only with the admin token, only of valid users and known queues
    held = f"/api/v1/queues/{pp}/held-users/"
    add("pass", "hold without a bearer", adm, raw("PUT", held + "hx-bob"), True)
    add("pass", "hold of a user id with a space", adm, raw("PUT", held + "a%20b", [admin]), True)
    add("pass", "hold of a 65-character user id", adm, raw("PUT", held + "u" * 65, [admin]), True)
    add("pass", "hold in a product with no queue", adm,
        raw("PUT", f"/api/v1/queues/{S.new_product()}/held-users/hx-bob", [admin]), True)
    add("pass", "delete a queue without a bearer", adm, raw("DELETE", f"/api/v1/queues/{pp}"), True)
    add("pass", "delete a product with no queue", adm, raw("DELETE", f"/api/v1/queues/{S.new_product()}", [admin]),
        True)


def varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def token_bytes(token):
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


GENERAL_LANE, PRIORITY_LANE = 1, 2  # a token's first byte: its version, which names its lane


def forged_token(p, user, secret="not-the-deployment-secret", lane=GENERAL_LANE):
    """A token laid out as TokenCodec lays one out (lane, varint product id, user id, 16 bytes of HMAC-SHA256 over
    them), for any product and user, signed with a secret that is not the deployment's: what anyone who knows a
    user id can make."""
    body = bytes([lane]) + varint(p) + user.encode("ascii")
    return b64url(body + hmac.new(secret.encode(), body, hashlib.sha256).digest()[:16])


def user_of(token):
    """The user id a token names. A token is base64url(version | varint product id | user id | 16-byte MAC); the
    runner reads it without the secret."""
    raw_bytes = token_bytes(token)
    at = 1
    while raw_bytes[at] & 0x80:
        at += 1
    return raw_bytes[at + 1:-16].decode("ascii")


def renamed(token, p, user, lane=None):
    """A genuine token edited to name another product, user or lane, its MAC kept."""
    raw_bytes = token_bytes(token)
    body = bytes([lane or raw_bytes[0]]) + varint(p) + user.encode("ascii")
    return b64url(body + raw_bytes[-16:])


def identity_cases(stack, p, pv, genuine, own, add):
    """Who may enter as whom: a visitor line (pv, where `own` is a visitor's genuine token) refuses every user id a
    client names and every token it did not issue; the trusted line (p, where `genuine` is genuine-user's token)
    refuses every enter without its key, and a key without a user. Each case must get exactly its status and problem
    code, never a 5xx."""
    ing = stack.ingest.port
    key = stack.enter_key
    keyed = S.header_lines(S.key_header(key))
    visitor, trusted = f"/api/v1/queues/{pv}/entries", f"/api/v1/queues/{p}/entries"
    wrong_key = "".join("0" if c != "0" else "1" for c in key)
    admin = f"Authorization: Bearer {stack.admin_token}"
    not_accepted, bad_token = (400, "user_id_not_accepted"), (400, "invalid_token")
    visitor_cases = [
        ("a userId", [], {"userId": "hx-v"}, not_accepted),
        ("a userId with the enter key", keyed, {"userId": "hx-v"}, not_accepted),
        ("a userId with the admin token as key", [admin], {"userId": "hx-v"}, not_accepted),
        ("a userId and a token", [], {"userId": "hx-v", "token": genuine}, (400, "invalid_request")),
        ("a token and a pass", [], {"token": genuine, "pass": "a.b.c"}, (400, "invalid_request")),
        ("a pass, in a line that takes none", [], {"pass": "a.b.c"}, (403, "pass_invalid")),
        ("another product's genuine token", [], {"token": genuine}, bad_token),
        ("another product's token renamed to this product, its MAC kept", [],
         {"token": renamed(genuine, pv, "hx-v")}, bad_token),
        ("its own visitor's token moved to the priority lane, its MAC kept", [],
         {"token": renamed(own, pv, user_of(own), PRIORITY_LANE)}, bad_token),
        ("its own visitor's token renamed to another user, its MAC kept", [],
         {"token": renamed(own, pv, "hx-v")}, bad_token),
        ("its own visitor's token, tampered", [], {"token": tampered(own)}, bad_token),
        ("a token forged with another secret", [], {"token": forged_token(pv, "hx-v")}, bad_token),
        ("a priority token forged with another secret", [], {"token": forged_token(pv, "hx-v", lane=PRIORITY_LANE)},
         bad_token),
        ("a token signed with the admin token as secret", [],
         {"token": forged_token(pv, "hx-v", stack.admin_token)}, bad_token),
        ("a token signed with the enter key as secret", [], {"token": forged_token(pv, "hx-v", key)}, bad_token),
        ("a token with a zero MAC", [], {"token": b64url(bytes([1]) + varint(pv) + b"hx-v" + bytes(16))}, bad_token),
        ("a tampered token", [], {"token": tampered(genuine)}, bad_token),
        ("an empty token", [], {"token": ""}, bad_token),
        ("a 129-character token", [], {"token": "A" * 129}, (400, "invalid_request")),
    ]
    for name, headers, body, expect in visitor_cases:
        add("identity", f"visitor line: {name}", ing, raw("POST", visitor, [JSON, *headers], json.dumps(body).encode()),
            True, expect)
    required, invalid = (401, "enter_key_required"), (401, "enter_key_invalid")
    bob = {"userId": "hx-bob"}
    trusted_cases = [
        ("no Authorization", [], bob, required),
        ("an empty Authorization", ["Authorization: "], bob, required),
        ("Bearer and nothing", ["Authorization: Bearer"], bob, invalid),
        ("a wrong key of the key's length", [f"Authorization: Bearer {wrong_key}"], bob, invalid),
        ("the key with its last character changed",
         [f"Authorization: Bearer {key[:-1]}{'1' if key[-1] != '1' else '2'}"], bob, invalid),
        ("the key cut short by one", [f"Authorization: Bearer {key[:-1]}"], bob, invalid),
        ("the key and one more character", [f"Authorization: Bearer {key}x"], bob, invalid),
        ("half the key", [f"Authorization: Bearer {key[:len(key) // 2]}"], bob, invalid),
        ("the key in upper case", [f"Authorization: Bearer {key.upper()}"], bob, invalid),
        ("the admin token as key", [admin], bob, invalid),
        ("the key as Basic credentials", [f"Authorization: Basic {base64.b64encode(key.encode()).decode()}"], bob,
         invalid),
        ("the key as Token", [f"Authorization: Token {key}"], bob, invalid),
        ("the key without Bearer", [f"Authorization: {key}"], bob, invalid),
        ("a 10 KB key", ["Authorization: Bearer " + "k" * 10_000], bob, invalid),
        ("two wrong keys", [f"Authorization: Bearer {wrong_key}", "Authorization: Bearer x"], bob, invalid),
        ("no key, no user", [], {}, (400, "user_id_required")),  # the user id is asked for first
        ("the key and no user", keyed, {}, (400, "user_id_required")),
        ("the key, a user and a tampered token", keyed, {"userId": "hx-bob", "token": tampered(genuine)},
         (400, "invalid_request")),
        ("the key, a user and a pass, in a line that takes none", keyed, {"userId": "hx-bob", "pass": "a.b.c"},
         (403, "pass_invalid")),
        ("no key, a token forged for the user", [], {"token": forged_token(p, "genuine-user")}, bad_token),
        ("no key, the genuine token renamed to another user", [], {"token": renamed(genuine, p, "hx-bob")}, bad_token),
    ]
    for name, headers, body, expect in trusted_cases:
        add("identity", f"trusted line: {name}", ing, raw("POST", trusted, [JSON, *headers], json.dumps(body).encode()),
            True, expect)


def edge_cases(stack, p, pv, admission, add):
    """The edge check a proxy asks (GET .../edge-check) and the waiting page's return URL check: every admission that
    is not genuine, unexpired and the product's (forged, cut, another product's, unsigned) and every request target
    that is not one is answered 401 (the proxy sends the visitor to the line), never admitted on the spot, although
    the visitor line pv is empty and has room; every return URL off the queue's returnHosts (shop.test) is refused.
    Nothing may be written."""
    ing = stack.ingest.port
    check = f"/api/v1/queues/{pv}/edge-check"
    cookie = f"qg_admission_{pv}="
    far = int(time.time()) + 3600
    claims = {"sub": "hx-edge", "product": pv, "exp": far, "jti": "hx-edge-token"}
    forged = {
        "a zero signature": jws({"alg": "ES256", "kid": "x"}, claims),
        "alg none": jws({"alg": "none"}, claims, b""),
        "HS256 over the claims": jws({"alg": "HS256"}, claims, hmac.new(b"guess", b"x", hashlib.sha256).digest()),
        "the genuine admission cut short": admission[:-10],
        "the genuine admission with its signature changed": tampered(admission),
        "the genuine admission with its claims swapped": admission.split(".")[0] + "." + b64url(
            json.dumps({**claims, "product": pv}).encode()) + "." + admission.split(".")[2],
        "an empty value": "",
        "4 KB of garbage": "A" * 4096,
        "three dots": "...",
    }
    unauthorized = (401, None)
    target = ["X-Original-URI: /tickets?seat=A1", "X-Forwarded-Host: shop.test"]
    for name, bad in forged.items():
        add("edge", f"cookie: {name}", ing, raw("GET", check, [*target, f"Cookie: {cookie}{bad}"]), True,
            unauthorized)
        add("edge", f"back from the line: {name}", ing,
            raw("GET", check, [f"X-Original-URI: /tickets?qg_admission={bad}", "X-Forwarded-Host: shop.test"]), True,
            unauthorized)
    add("edge", "another product's genuine admission as the cookie", ing,
        raw("GET", f"/api/v1/queues/{p}/edge-check", [*target, f"Cookie: qg_admission_{p}={admission}"]), True,
        unauthorized)
    add("edge", "//evil with a forged admission", ing,
        raw("GET", check, ["X-Original-URI: //evil.example/x?qg_admission=" + forged["a zero signature"],
                           "X-Forwarded-Host: shop.test"]), True, unauthorized)
    for name, uri in {"javascript: as the target": "javascript:alert(1)", "an absolute URL as the target":
                      "https://evil.example/", "a 3 KB target": "/" + "a" * 3000, "a quote in the target":
                      '/t?x="><script>', "a backslash in the target": "/\\evil.example/"}.items():
        add("edge", name, ing, raw("GET", check, [f"X-Original-URI: {uri}", "X-Forwarded-Host: shop.test"]), True,
            unauthorized)
    add("edge", "a forged cookie from a host the queue does not return to", ing,
        raw("GET", check, ["X-Original-URI: /", "X-Forwarded-Host: evil.example",
                           f"Cookie: {cookie}{forged['a zero signature']}"]), True, unauthorized)
    add("edge", "a 20 KB cookie", ing, raw("GET", check, [*target, f"Cookie: {cookie}" + "A" * 20000]), True)
    add("edge", "200 cookies", ing,
        raw("GET", check, [*target, "Cookie: " + "; ".join(f"c{i}={'x' * 60}" for i in range(200))
                           + f"; {cookie}{forged['a zero signature']}"]), True, unauthorized)
    refused = (400, "return_url_refused")
    for name, url in {"another host": "https://evil.example/", "//evil": "//evil.example/x",
                      "javascript:": "javascript:alert(document.cookie)", "data:": "data:text/html,<script>",
                      "user information naming the host": "https://shop.test@evil.example/",
                      "a backslash after the host": "https://shop.test\\@evil.example/",
                      "the host as a subdomain": "https://shop.test.evil.example/", "another port":
                      "https://shop.test:444/", "a relative path": "/tickets", "ftp:": "ftp://shop.test/",
                      "an encoded newline": "https://shop.test/%0d%0aSet-Cookie:x=1\n"}.items():
        add("edge", f"return URL: {name}", ing,
            raw("GET", f"/api/v1/queues/{pv}/return-url?url=" + urllib.parse.quote(url, safe="")), True, refused)


def corpus(stack, p, pa, genuine, pw=None, proof=None, pp=None, pv=None, visitor_token=None,
           visitor_admission=None):
    """At least 200 requests no client should be able to turn into a write: each must get a 4xx (never a 5xx,
    never a dropped connection), and none may change Redis or publish an event. p is a line of identity "trusted":
    its enters carry the enter key, so that what is wrong in each is what the case says, not the missing key."""
    ing, adm, book = stack.ingest.port, stack.worker.port, stack.booking.port
    admin = f"Authorization: Bearer {stack.admin_token}"
    keyed = S.header_lines(S.key_header(stack.enter_key))
    jk = [JSON, *keyed]  # the enter's JSON with the key
    fresh = S.new_product()  # never configured: a write to it would create keys
    cases = []

    def add(group, name, port, data, write, expect=None):
        cases.append(Case(f"{group}: {name}", group, port, data, write, expect))

    enter = f"/api/v1/queues/{p}/entries"
    status = f"{enter}/{genuine}"
    targets = [  # (label, port, method, path, extra headers, a valid body to start from)
        ("enter", ing, "POST", enter, keyed, {"userId": "hx-valid"}),
        ("queue PUT", adm, "PUT", f"/api/v1/queues/{pa}", [admin],
         {"maxActive": 7, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False}),
        ("stock PUT", book, "PUT", f"/api/v1/products/{p}/stock", [admin], {"available": 77}),
        ("booking", book, "POST", "/api/v1/bookings", [], {"productId": p, "token": genuine, "quantity": 1}),
    ]

    # 1. malformed JSON (each would be a write if the parser were lenient), for every JSON endpoint; the problems
    #    inside strings go into the first field's value, so an unknown extra field cannot hide them
    for label, port, method, path, hdrs, valid in targets:
        v = json.dumps(valid)
        first = next(iter(valid))

        def with_first(text, v=v, first=first, valid=valid):
            return v.replace(f'"{first}": {json.dumps(valid[first])}', f'"{first}": {text}', 1)
        bodies = {
            "empty body": "", "only {": "{", "only }": "}", "unclosed object": v[:-1], "unclosed string":
            v[:-3], "trailing garbage": v + "xyz", "two documents": v + v, "trailing comma": v[:-1] + ",}",
            "single quotes": v.replace('"', "'"), "unquoted keys": "{" + ",".join(
                f"{k}:{json.dumps(x)}" for k, x in valid.items()) + "}", "comment": "/*x*/" + v,
            "NaN value": with_first("NaN"), "Infinity value": with_first("-Infinity"), "bare literal null": "null",
            "bare number": "1", "array instead of object": "[" + v + "]",
            "lone surrogate escape": with_first('"hx\\ud800"'),
            "control char in string": with_first('"hx\x01b"'), "invalid escape": with_first('"hx\\q"'),
            "leading zeros": with_first("007"), "hex number": with_first("0x7"),
        }
        for name, body in bodies.items():
            add("malformed JSON", f"{label} {name}", port, raw(method, path, [JSON, *hdrs], body.encode()), True)

    # 2. deeply nested and 2 MB bodies
    for label, port, method, path, hdrs, valid in targets:
        deep_arr = b'{"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        deep_obj = b'{"a":' * 5000 + b"1" + b"}" * 5000
        key = next(iter(valid))
        big = json.dumps({**valid, key: "a" * (2 << 20)}).encode()
        pad = json.dumps({**valid, "padding": "p" * (2 << 20)}).encode()
        add("nested/huge", f"{label} 100,000-deep array", port, raw(method, path, [JSON, *hdrs], deep_arr), True)
        add("nested/huge", f"{label} 5,000-deep object", port, raw(method, path, [JSON, *hdrs], deep_obj), True)
        add("nested/huge", f"{label} 2 MB value, Content-Length", port, raw(method, path, [JSON, *hdrs], big), True)
        add("nested/huge", f"{label} 2 MB padding, Content-Length", port, raw(method, path, [JSON, *hdrs], pad),
            True)
        add("nested/huge", f"{label} 2 MB padding, chunked", port,
            raw(method, path, [JSON, "Transfer-Encoding: chunked", *hdrs], chunked(pad), length=False), True)
        add("nested/huge", f"{label} 2 MB value, chunked", port,
            raw(method, path, [JSON, "Transfer-Encoding: chunked", *hdrs], chunked(big), length=False), True)

    # 3. wrong types
    wrong = {
        "enter": [{"userId": 12345}, {"userId": 1.5}, {"userId": True}, {"userId": None}, {"userId": ["hx-a"]},
                  {"userId": {"$gt": ""}}, {"user_id": "hx-b"}, {}, {"userId": ""}, {"userId": "x" * 65}],
        "queue PUT": [{"maxActive": "7", "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": 7.9, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": 0, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": -7, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": 2**63, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": 7, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": "false"},
                      {"maxActive": 7, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": 0},
                      {"maxActive": 7, "admitPerSecond": 7, "entryTtlSeconds": 7},
                      {"maxActive": [7], "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False},
                      {"maxActive": None, "admitPerSecond": 7, "entryTtlSeconds": 7, "open": False}],
        "stock PUT": [{"available": "77"}, {"available": -1}, {"available": 7.5}, {"available": 2**70},
                      {"available": None}, {"available": [77]}, {"available": True}, {}],
        "booking": [{"productId": str(p), "token": genuine, "quantity": 1},
                    {"productId": p, "token": [genuine], "quantity": 1},
                    {"productId": p, "token": genuine, "quantity": "1"},
                    {"productId": p, "token": genuine, "quantity": 0},
                    {"productId": p, "token": genuine, "quantity": -1},
                    {"productId": p, "token": genuine, "quantity": 1.5},
                    {"productId": p, "token": genuine, "quantity": 10**6},
                    {"productId": -p, "token": genuine, "quantity": 1},
                    {"productId": p + 2**64, "token": genuine, "quantity": 1},
                    {"productId": p, "token": {"value": genuine}, "quantity": 1},
                    {"productId": [p], "token": genuine, "quantity": 1},
                    {"token": genuine, "quantity": 1}],
    }
    for label, port, method, path, hdrs, _ in targets:
        for i, body in enumerate(wrong[label]):
            add("wrong types", f"{label} #{i} {json.dumps(body)[:60]}", port,
                raw(method, path, [JSON, *hdrs], json.dumps(body).encode()), True)

    # 4. duplicate keys: the first value passes a naive filter, the last would be used (or the other way round)
    dups = [
        ("enter", ing, "POST", enter, [], '{"userId":"<script>","userId":"hx-dup1"}'),
        ("enter", ing, "POST", enter, [], '{"userId":"hx-dup2","userId":"../../etc"}'),
        ("queue PUT", adm, "PUT", f"/api/v1/queues/{pa}", [admin],
         '{"maxActive":-1,"maxActive":7,"admitPerSecond":7,"entryTtlSeconds":7,"open":false}'),
        ("stock PUT", book, "PUT", f"/api/v1/products/{p}/stock", [admin], '{"available":-5,"available":77}'),
        ("booking", book, "POST", "/api/v1/bookings", [],
         f'{{"productId":{p},"token":"forged","token":"{genuine}","quantity":1}}'),
        ("booking", book, "POST", "/api/v1/bookings", [],
         f'{{"productId":{p},"token":"{genuine}","quantity":0,"quantity":1}}'),
    ]
    for label, port, method, path, hdrs, body in dups:
        add("duplicate keys", f"{label} {body[:50]}", port, raw(method, path, [JSON, *hdrs], body.encode()), True)

    # 5. odd encodings and Unicode in the user id (every one outside [A-Za-z0-9._@:-])
    odd_ids = ["ａｄｍｉｎ", "аdmin", "admin\u200b", "admin\u202e", "\u0000admin", "admin\u2028", "🙂",
               "e\u0301", "İ", "ǅ", "ß" * 40, "\ufeffadmin", "admin\x7f", "a b", "a\tb", "a%20b", "a+b", "a/b",
               "a\\b", "\ud83d"]
    for i, uid in enumerate(odd_ids):
        body = json.dumps({"userId": uid}, ensure_ascii=(i % 2 == 0)).encode("utf-8", "surrogatepass")
        add("odd encodings", f"enter userId {uid!r}", ing, raw("POST", enter, jk, body), True)
    enc_bodies = [
        ("UTF-16LE body, charset declared", "application/json; charset=UTF-16LE",
         '{"userId":"ａ"}'.encode("utf-16-le")),
        ("UTF-16BE body with BOM", "application/json; charset=UTF-16", '{"userId":"ａ"}'.encode("utf-16")),
        ("UTF-32 body", "application/json; charset=UTF-32", '{"userId":"ａ"}'.encode("utf-32")),
        ("invalid UTF-8 bytes", "application/json", b'{"userId":"\xff\xfe\xfd"}'),
        ("overlong UTF-8 slash", "application/json", b'{"userId":"a\xc0\xafb"}'),
        ("CESU surrogate bytes", "application/json", b'{"userId":"\xed\xa0\x80"}'),
        ("latin-1 bytes as UTF-8", "application/json", '{"userId":"caf\xe9"}'.encode("latin-1")),
        ("unknown charset", "application/json; charset=x-unknown-42", b'{"userId":"hx-charset"}'),
        ("UTF-7 charset", "application/json; charset=UTF-7", b'{"userId":"+AGEAYgBj-"}'),
        ("BOM then bad id", "application/json", b'\xef\xbb\xbf{"userId":"a b"}'),
        ("NUL bytes between tokens", "application/json", b'{"userId"\x00:"a b"}'),
        ("gzip bomb (2 MB inflated)", "application/json\r\nContent-Encoding: gzip",
         gzip.compress(b'{"userId":"a b","padding":"' + b"0" * (2 << 20) + b'"}')),
    ]
    for name, ctype, body in enc_bodies:
        add("odd encodings", name, ing, raw("POST", enter, [f"Content-Type: {ctype}", *keyed], body), True)

    # 6. injection-looking user ids
    injections = ["' OR '1'='1", "1; DROP TABLE users --", '"; FLUSHALL; "', "\r\nFLUSHALL\r\n",
                  "*1\r\n$8\r\nFLUSHALL\r\n", "${jndi:ldap://127.0.0.1/a}", "{{7*7}}", "<script>alert(1)</script>",
                  "../../etc/passwd", "$(reboot)", "`id`", "%s%n%x", "a\r\nSet-Cookie: x=1", "redis.call('FLUSHALL')",
                  "admin' --", "__proto__[admin]", "{\"$ne\":null}", "|| true", "%00", "a" * 64 + "<"]
    for uid in injections:
        add("injection", f"enter userId {uid[:30]!r}", ing,
            raw("POST", enter, jk, json.dumps({"userId": uid}).encode()), True)
        add("injection", f"enter X-Request-Id + bad userId {uid[:20]!r}", ing,
            raw("POST", enter, [*jk, "X-Request-Id: " + uid.replace("\r\n", " ").encode("latin-1", "replace")
                                .decode("latin-1")], json.dumps({"userId": uid + "<"}).encode()), True)

    # 7. wrong and missing content types (valid bodies: only the media type is wrong)
    ctypes = [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
              "application/xml", "application/jsonx", "text/json", "application/json-patch+json", "*/*",
              "application/vnd.api+json", "application", "json"]
    for ct in ctypes:
        for label, port, method, path, hdrs, valid in targets[:1] + targets[3:]:
            body = json.dumps(valid).encode()
            if ct == "application/x-www-form-urlencoded":
                body = "&".join(f"{k}={v}" for k, v in valid.items()).encode()
            hs = ([f"Content-Type: {ct}"] if ct else []) + hdrs
            add("content types", f"{label} {ct or 'no Content-Type'}", port, raw(method, path, hs, body), True)
    for label, port, method, path, hdrs, valid in targets[1:3]:
        add("content types", f"{label} text/plain", port,
            raw(method, path, ["Content-Type: text/plain", *hdrs], json.dumps(valid).encode()), True)
        add("content types", f"{label} no Content-Type", port, raw(method, path, hdrs, json.dumps(valid).encode()),
            True)

    # 8. bad bearer tokens on the admin endpoints (valid bodies: only the credential is wrong)
    real = stack.admin_token
    bearers = [None, "Bearer", "Bearer ", f"Basic {base64.b64encode(b'admin:' + real.encode()).decode()}",
               f"Bearer {real[:-1]}", f"Bearer {real[:-1]}{chr(ord(real[-1]) ^ 1)}", f"Bearer {real}x",
               f"Bearer x{real}", f"Bearer {real[:len(real) // 2]}", f"Bearer {real.upper()}",
               "Bearer " + "A" * 10_000, "Bearer null", "Bearer undefined", f"Token {real}", f"Bearer\t{real}x",
               "Bearer " + real.replace(real[0], "é", 1)]
    for i, bearer in enumerate(bearers):
        hs = [f"Authorization: {bearer}"] if bearer is not None else []
        add("bad bearer", f"queue PUT #{i} {str(bearer)[:30]}", adm,
            raw("PUT", f"/api/v1/queues/{fresh}", [JSON, *hs], json.dumps(targets[1][5]).encode()), True)
        add("bad bearer", f"stock PUT #{i} {str(bearer)[:30]}", book,
            raw("PUT", f"/api/v1/products/{p}/stock", [JSON, *hs], b'{"available":77}'), True)
        if i % 4 == 0:
            add("bad bearer", f"queue GET #{i}", adm, raw("GET", f"/api/v1/queues/{p}", hs), False)
            add("bad bearer", f"stock GET #{i}", book, raw("GET", f"/api/v1/products/{p}/stock", hs), False)
    add("bad bearer", "two Authorization headers, both wrong", adm,
        raw("PUT", f"/api/v1/queues/{fresh}", [JSON, f"Authorization: Bearer {real[:-2]}",
                                                "Authorization: Bearer x"], json.dumps(targets[1][5]).encode()),
        True)

    # 9. path tricks
    arabic = "".join(chr(0x660 + int(d)) for d in str(p))
    # each of these tries to reach enter (POST) by a path it should not be reachable by
    enter_paths = [
        ("dot-dot to enter", f"/api/v1/queues/{p}/entries/../entries"),
        ("encoded dot-dot", f"/api/v1/queues/{p}/%2e%2e/{p}/entries"),
        ("encoded slash in id", f"/api/v1/queues/{p}%2Fentries"),
        ("double slash", f"//api/v1/queues/{p}/entries"),
        ("matrix parameter", f"/api/v1/queues/{p};x=1/entries"),
        ("jsessionid", f"/api/v1/queues/{p}/entries;jsessionid=abc"),
        ("backslash", f"/api/v1/queues/{p}\\entries"),
        ("negative id", f"/api/v1/queues/-{p}/entries"),
        ("zero id", "/api/v1/queues/0/entries"),
        ("overflowing id", "/api/v1/queues/99999999999999999999999/entries"),
        ("hex id", f"/api/v1/queues/{hex(p)}/entries"),
        ("plus-signed id", f"/api/v1/queues/+{p}/entries"),
        ("encoded space in id", f"/api/v1/queues/%20{p}/entries"),
        ("Arabic-Indic digits of the id",
         "/api/v1/queues/" + "".join(f"%{b:02X}" for b in arabic.encode()) + "/entries"),
        ("fullwidth digits of the id",
         "/api/v1/queues/" + "".join(f"%{b:02X}" for b in "".join(chr(0xFF10 + int(d)) for d in str(p))
                                     .encode()) + "/entries"),
        ("NUL in path", f"/api/v1/queues/{p}%00/entries"),
        ("trailing slash", f"/api/v1/queues/{p}/entries/"),
        ("upper-case path", f"/API/V1/QUEUES/{p}/ENTRIES"),
        ("absolute-form target", f"http://evil.example/api/v1/queues/{p}/entries"),
        ("asterisk target", "*"),
        ("no leading slash", f"api/v1/queues/{p}/entries"),
    ]
    paths = [(name, ing, "POST", path) for name, path in enter_paths] + [
        ("very long path (100 KB)", ing, "POST", f"{enter}/" + "a" * 100_000),
        ("dot-dot out of the API", ing, "GET", f"/api/v1/queues/{p}/entries/../../../../actuator/env"),
        ("encoded dot-dot to actuator", ing, "GET", "/%2e%2e/actuator/env"),
        ("actuator shutdown", ing, "POST", "/actuator/shutdown"),
        ("actuator env", adm, "GET", "/actuator/env"),
        ("actuator heapdump", book, "GET", "/actuator/heapdump"),
        ("admin path on ingest", ing, "PUT", f"/api/v1/queues/{p}"),
        ("dot-dot to admin", adm, "PUT", f"/api/v1/x/../queues/{fresh}"),
        ("encoded dot-dot to admin", adm, "PUT", f"/api/v1/x/%2e%2e/queues/{fresh}"),
        ("case trick to admin", adm, "PUT", f"/API/v1/queues/{fresh}"),
        ("double slash to admin", adm, "PUT", f"/api/v1//queues/{fresh}"),
        ("semicolon to admin", adm, "PUT", f"/api/v1/queues;x=1/{fresh}"),
        ("semicolon to stock", book, "PUT", f"/api/v1/products;/{p}/stock"),
        ("encoded slash to stock", book, "PUT", f"/api/v1/products/{p}%2Fstock"),
    ]
    for name, port, method, path in paths:
        body = {ing: {"userId": "hx-path"}, adm: targets[1][5], book: {"available": 77}}[port]
        add("path tricks", name, port, raw(method, path, [JSON, *(keyed if port == ing else [])],
                                           json.dumps(body).encode()), method != "GET")
    add("path tricks", "user in the query string, none in the body", ing,
        raw("POST", f"{enter}?userId=hx-query", jk, b"{}"), True)
    add("path tricks", "user in a form parameter of a JSON request", ing,
        raw("POST", f"{enter}?userId=hx-query", jk, b'{"userId":null}'), True)
    token_paths = [
        ("status: 10 KB token", "GET", f"{enter}/" + "A" * 10_000),
        ("status: 64 KB token", "GET", f"{enter}/" + "A" * 65_000),
        ("status: token with encoded slash", "GET", f"{enter}/{genuine[:10]}%2F{genuine[10:]}"),
        ("status: token with dot-dot", "GET", f"{enter}/../entries/{genuine}"),
        ("status: token + NUL", "GET", f"{enter}/{genuine}%00"),
        ("status: token + padding", "GET", f"{enter}/{genuine}=="),
        ("status: token with spaces", "GET", f"{enter}/%20{genuine}%20"),
        ("status: unicode token", "GET", f"{enter}/%E2%80%AE{genuine}"),
        ("status: token of the other product path", "GET", f"/api/v1/queues/{fresh}/entries/{genuine}"),
        ("events: 64 KB token", "GET", f"{enter}/" + "A" * 65_000 + "/events"),
        ("events: tampered token", "GET", f"{enter}/{tampered(genuine)}/events"),
        ("events: token of the other product path", "GET", f"/api/v1/queues/{fresh}/entries/{genuine}/events"),
        ("events: token with dot-dot", "GET", f"{enter}/../entries/{tampered(genuine)}/events"),
        ("leave: 10 KB token", "DELETE", f"{enter}/" + "A" * 10_000),
        ("leave: token with dot-dot", "DELETE", f"{enter}/x/../{tampered(genuine)}"),
        ("leave: tampered token", "DELETE", f"{enter}/{tampered(genuine)}"),
        ("leave: genuine token, other product", "DELETE", f"/api/v1/queues/{fresh}/entries/{genuine}"),
        ("leave: genuine token, product with leading zero", "DELETE", f"/api/v1/queues/0{p}/entries/{genuine}x"),
        ("booking lookup: dot-dot", "GET", "/api/v1/bookings/../products/1/stock"),
        ("booking lookup: huge id", "GET", "/api/v1/bookings/" + "9" * 5000 + "-x"),
        ("booking lookup: overflowing product", "GET", "/api/v1/bookings/99999999999999999999-x"),
        ("booking lookup: dash only", "GET", "/api/v1/bookings/-"),
        ("booking lookup: Redis glob", "GET", f"/api/v1/bookings/{p}-*"),
    ]
    for name, method, path in token_paths:
        port = book if "booking lookup" in name else ing
        add("path tricks", name, port, raw(method, path), method != "GET")

    # 10. huge headers, methods and broken HTTP
    add("HTTP", "20 KB header", ing, raw("POST", enter, [*jk, "X-Big: " + "b" * 20_000], b'{"userId":"hx-h1"}'),
        True)
    add("HTTP", "1 MB of headers", ing, raw("POST", enter, jk + [f"X-H{i}: " + "h" * 1000 for i in range(1000)],
                                            b'{"userId":"hx-h2"}'), True)
    add("HTTP", "5,000 small headers", ing, raw("POST", enter, jk + [f"X-{i}: 1" for i in range(5000)],
                                                b'{"userId":"hx-h3"}'), True)
    add("HTTP", "20 KB Authorization on admin", adm,
        raw("PUT", f"/api/v1/queues/{fresh}", [JSON, "Authorization: Bearer " + "t" * 20_000],
            json.dumps(targets[1][5]).encode()), True)
    add("HTTP", "huge X-Request-Id with a bad user", ing,
        raw("POST", enter, [*jk, "X-Request-Id: " + "r" * 12_000], b'{"userId":"a b"}'), True)
    for method in ("PATCH", "TRACE", "OPTIONS", "CONNECT", "FOO", "get", "PROPFIND"):
        add("HTTP", f"method {method} on enter", ing, raw(method, enter, jk, b'{"userId":"hx-m"}'),
            method not in ("OPTIONS", "TRACE"))
    add("HTTP", "X-HTTP-Method-Override DELETE", ing,
        raw("POST", status, [JSON, "X-HTTP-Method-Override: DELETE"], b"{}"), True)
    add("HTTP", "PATCH on the admin queue", adm, raw("PATCH", f"/api/v1/queues/{p}", [JSON, admin], b"{}"), True)
    add("HTTP", "DELETE on the admin queue with a wrong bearer", adm,
        raw("DELETE", f"/api/v1/queues/{p}", ["Authorization: Bearer not-the-admin-token"]), True)
    add("HTTP", "POST on the admin queue", adm,
        raw("POST", f"/api/v1/queues/{fresh}", [JSON, admin], json.dumps(targets[1][5]).encode()), True)
    add("HTTP", "Content-Length and chunked at once (smuggling)", ing,
        raw("POST", enter, [*jk, "Content-Length: 4", "Transfer-Encoding: chunked"],
            b'0\r\n\r\nPOST ' + enter.encode() + b' HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
            b'Content-Length: 20\r\n\r\n{"userId":"hx-smug"}', length=False), True)
    add("HTTP", "two Content-Length headers", ing,
        raw("POST", enter, [*jk, "Content-Length: 5", "Content-Length: 20"], b'{"userId":"hx-cl2"}', length=False),
        True)
    add("HTTP", "negative Content-Length", ing,
        raw("POST", enter, [*jk, "Content-Length: -1"], b'{"userId":"hx-cl3"}', length=False), True)
    add("HTTP", "Content-Length smaller than the body", ing,
        raw("POST", enter, [*jk, "Content-Length: 12"], b'{"userId":"hx-cl4"}', length=False), True)
    add("HTTP", "bad chunk size", ing,
        raw("POST", enter, [*jk, "Transfer-Encoding: chunked"], b"zz\r\n{}\r\n0\r\n\r\n", length=False), True)
    add("HTTP", "Transfer-Encoding gzip, chunked", ing,
        raw("POST", enter, [*jk, "Transfer-Encoding: gzip, chunked"], chunked(b'{"userId":"hx-te"}'),
            length=False), True)
    add("HTTP", "no Host header (HTTP/1.1)", ing, raw("POST", enter, jk, b'{"userId":"hx-nohost"}', host=False),
        True)
    add("HTTP", "two Host headers", ing, raw("POST", enter, [*jk, "Host: evil"], b'{"userId":"hx-2host"}'), True)
    add("HTTP", "header without colon", ing, raw("POST", enter, [*jk, "BrokenHeader"], b'{"userId":"hx-nocolon"}'),
        True)
    add("HTTP", "obsolete line folding", ing,
        raw("POST", enter, [*keyed, "Content-Type: application/json", " ; charset=utf-8"], b'{"userId":"a b"}'), True)
    add("HTTP", "NUL in a header", ing, raw("POST", enter, [*jk, "X-A: a\x00b"], b'{"userId":"hx-nul"}'), True)
    add("HTTP", "HTTP/1.0 request", ing, raw("POST", enter, jk, b'{"userId":"a b"}', version=b"HTTP/1.0"), True)
    # not "/": that redirects to the waiting page, and a redirect has no body for an HTTP/0.9 answer to show
    add("HTTP", "HTTP/0.9 style request", ing, b"GET /api/v1/queues/1/entries/not-a-token\r\n\r\n", False)
    add("HTTP", "HTTP/9.9", ing, raw("GET", status, version=b"HTTP/9.9"), False)
    add("HTTP", "HTTP/2 preface on HTTP/1.1", ing, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", False)
    add("HTTP", "TLS ClientHello to plain HTTP", ing, bytes.fromhex("16030100a5010000a10303") + bytes(160), False)
    add("HTTP", "random bytes", ing, random.Random(7).randbytes(512), False)
    add("HTTP", "request line of spaces", ing, b"        \r\n\r\n", False)
    add("HTTP", "CRLF injection in the path", ing, raw("GET", f"{enter}/x\r\nX-Injected: 1"), False)
    add("HTTP", "8 KB query string on status", ing, raw("GET", f"{status}?" + "q=1&" * 2000), False)
    add("HTTP", "Expect: 100-continue with a bad body", ing,
        raw("POST", enter, [*jk, "Expect: 100-continue"], b'{"userId":"a b"}'), True)
    add("HTTP", "Accept: application/xml only", ing,
        raw("POST", enter, [*jk, "Accept: application/xml"], b'{"userId":"a b"}'), True)
    if pw is not None:
        proof_cases(stack, pw, proof, add)
    if pp is not None:
        pass_cases(stack, pp, add)
    if pv is not None:
        identity_cases(stack, p, pv, genuine, visitor_token, add)
    if pv is not None and visitor_admission is not None:
        edge_cases(stack, p, pv, visitor_admission, add)
    return cases


def send_case(case, timeout=20):
    """Sends one raw request; returns (status or None, error). Reads while sending, so an early answer to a large
    request (413, 431) is seen even if the server stops reading."""
    try:
        sock = socket.create_connection(("127.0.0.1", case.port), timeout=timeout)
    except OSError as e:
        return None, f"connect: {e}"
    err = []

    def sender():
        try:
            sock.sendall(case.data)
        except OSError as e:
            err.append(e)
    t = threading.Thread(target=sender, daemon=True)
    t.start()
    buf = b""
    try:
        while len(buf) < 65536:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    except OSError as e:
        if not buf:
            return None, f"recv: {e} (send: {err[:1]})"
    finally:
        try:
            sock.close()
        except OSError:
            pass
    t.join(5)
    while buf.startswith(b"HTTP/1.1 1") and b"\r\n\r\n" in buf:  # skip interim answers (100 Continue)
        buf = buf.split(b"\r\n\r\n", 1)[1]
    code = re.search(rb'"code"\s*:\s*"([a-z_]+)"', buf)
    case.code = code.group(1).decode() if code else None
    line = buf.split(b"\r\n", 1)[0]
    parts = line.split()
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
        return int(parts[1]), None
    # Tomcat answers a request line without a version (HTTP/0.9) with a bare body, as that protocol has no status
    # line; the body is the service's problem JSON and names the status
    try:
        return int(json.loads(buf.decode("utf-8", "replace"))["status"]), None
    except (ValueError, KeyError, TypeError):
        return None, f"no status line: {buf[:80]!r} (send: {err[:1]})"


def run(cases, threads=8):
    results = [None] * len(cases)
    idx = iter(range(len(cases)))
    lock = threading.Lock()

    def work():
        while True:
            with lock:
                i = next(idx, None)
            if i is None:
                return
            st, err = send_case(cases[i])
            results[i] = (cases[i], st, err)
    ts = [threading.Thread(target=work) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return results


# --- "no write" evidence -----------------------------------------------------------------------------------------

VOLATILE = {"bucket", "bucketAt"}  # the admission tick's rate bucket, rewritten every tick
# Which worker steps a queue, relays its audit or sweeps its reservations: taken and renewed by the workers on their
# own schedule, whatever requests come; a request can write none of them.
LEASES = ("admissionLease", "auditLease", "reservationLease")


def snapshot(redis, products):
    """Every key of the private Redis that belongs to one of the products or to none, with its content (the tick's
    rate-bucket fields, the workers' heartbeat times and their leases left out). Other products' keys are left out: scenarios
    run before this one may still be expiring or admitting in their lines."""
    mine = {str(p) for p in products}
    leases = {S.keys(p)[name] for p in products for name in LEASES}
    out, cursor = {}, "0"
    while True:
        cursor, batch = redis("SCAN", cursor, "COUNT", 1000)
        for key in batch:
            tag = re.search(r"\{(\d+)\}", key)
            if key in leases or tag and tag.group(1) != "0" and tag.group(1) not in mine:
                continue
            kind = redis("TYPE", key)
            if kind == "string":
                v = redis("GET", key)
            elif kind == "hash":
                flat = redis("HGETALL", key)
                v = tuple(sorted((flat[i], flat[i + 1]) for i in range(0, len(flat), 2) if flat[i] not in VOLATILE))
            elif kind == "zset" and key == S.keys(0)["admissionWorkers"]:  # who beats, not when it last beat
                v = tuple(sorted(redis("ZRANGE", key, 0, -1)))
            elif kind == "zset":
                v = tuple(redis("ZRANGE", key, 0, -1, "WITHSCORES"))
            elif kind == "set":
                v = tuple(sorted(redis("SMEMBERS", key)))
            elif kind == "list":
                v = tuple(redis("LRANGE", key, 0, -1))
            else:
                v = kind
            out[key] = v
        if cursor == "0":
            return out


def diff(before, after):
    changes = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            changes.append(f"{key}: {str(before.get(key))[:80]} -> {str(after.get(key))[:80]}")
    return changes


def producer_sends(base):
    r = S.Client(base).call("GET", "/actuator/metrics/kafka.producer.record.send.total")
    try:
        return sum(m["value"] for m in r.json()["measurements"])
    except (TypeError, KeyError, ValueError):
        return None


async def _one(port, p, user, timeout, out, refused, headers):
    """One enter on a connection of its own: a visitor's ({}) when user is None, else user's with headers."""
    body = b"{}" if user is None else json.dumps({"userId": user}).encode()
    extra = "".join(f"{line}\r\n" for line in S.header_lines(headers or {}))
    req = (f"POST /api/v1/queues/{p}/entries HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           f"{extra}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
    t0 = time.monotonic()
    t1 = t0
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        t1 = time.monotonic()
        writer.write(req)
        data = await asyncio.wait_for(reader.read(-1), max(0.1, timeout - (t1 - t0)))
        writer.close()
        head, _, payload = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        retry_after = any(line.lower().startswith(b"retry-after:") for line in lines[1:])
        token = None
        if status == 202:
            try:
                token = json.loads(payload.decode())["token"]
            except ValueError:  # chunked body: the JSON is inside the chunk framing
                token = json.loads(payload.split(b"\r\n")[1].decode())["token"]
        out.append((status, t1 - t0, time.monotonic() - t0, retry_after, token, None))
        if status in (429, 503) and refused is not None:
            refused.set()
    except (OSError, asyncio.TimeoutError, IndexError, ValueError) as e:
        out.append((0, t1 - t0, time.monotonic() - t0, False, None, type(e).__name__))


def listen_overflows():
    """The kernel's count of connections dropped because a listen queue was full (all sockets)."""
    try:
        lines = open("/proc/net/netstat").read().splitlines()
        names, values = lines[0].split(), lines[1].split()
        return int(values[names.index("ListenOverflows")])
    except (OSError, ValueError, IndexError):
        return None


async def _flood(port, p, conns, tag, timeout, refused, headers):
    out = []
    await asyncio.gather(*(_one(port, p, None if headers is None else f"{tag}-{i}", timeout, out, refused, headers)
                           for i in range(conns)))
    return out


def flood(port, p, conns, tag, timeout=30, refused=None, headers=None):
    """Opens `conns` connections at once, each sending one enter (a crowd arriving at the same second): visitors'
    ({}), or with headers (the enter key of a trusted line) users named tag-0, tag-1, ... `refused`, a
    threading.Event, is set at the first 429 or 503 answer."""
    t0 = time.monotonic()
    overflows = listen_overflows()
    out = asyncio.run(_flood(port, p, conns, tag, timeout, refused, headers))
    total = [o[2] for o in out if o[0]]
    connect = [o[1] for o in out if o[0]]
    refused = [o[2] for o in out if o[0] in (429, 503)]
    after = listen_overflows()
    return {
        "sent": len(out), "seconds": time.monotonic() - t0,
        "codes": collections.Counter(o[0] for o in out if o[0]),
        "errors": sum(1 for o in out if not o[0]),
        "error_kinds": dict(collections.Counter(o[5] for o in out if o[5])),
        "refused_without_retry_after": sum(1 for o in out if o[0] in (429, 503) and not o[3]),
        "tokens": [o[4] for o in out if o[4]],
        "p50": S.pct(total, 0.5), "p99": S.pct(total, 0.99), "max": max(total, default=0),
        "connect_p99": S.pct(connect, 0.99), "refused_p99": S.pct(refused, 0.99),
        "listen_overflows": None if overflows is None or after is None else after - overflows,
    }
