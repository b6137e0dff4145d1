"""A stranger who knows a victim's user id, for faults/run.py's impersonation. Standard library only; the passes are
signed by the fault checks' jar (`passes`, with nimbus-jose-jwt as a shop's backend signs them) and the crowd of
visitors is entered by it too (`visitors`, on the benchmark's keep-alive HttpPool: the Python client manages about a
thousand calls a second, too few for a crowd of 100,000 in a minute).

In each identity the stranger knows what the victim's 202 and status answers show but the token: the user id, the
product, the status, the position, the expiry, and the layout of a token (lane, product, user id, a 16-byte MAC),
which the stranger reads off a token of their own. The token itself is in the 202's body and Location and in the
status answer, and the admission's `jti` is the token too, so the stranger is given none of those."""
import base64
import collections
import json
import os
import re
import subprocess
import time

import hostile
import stack as S

ENTERS = "/api/v1/queues/{}/entries"
VISITOR_IDS = 100_000  # the crowd of visitors whose ids must all differ
VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{22,}")  # 16 random bytes or more, base64url without padding
CROWD_BOUND = 300.0  # seconds the crowd may take, at the most; the figure says how long it did
FILLERS = 3  # users waiting behind the victim, the first of them a victim too


def impersonation(stack, api, run):
    """In each identity (visitor, trusted, pass) a stranger who knows the victim's user id, the product and what the
    victim's answers show but the token tries to get the victim's token, leave for them, read their admission, book
    with forged tokens, and put a priority holder in the general lane by entering as them first: every try refused,
    the victim's place intact and booked once, by the victim. And 100,000 visitors entering with {}: every user id
    and every token distinct."""
    sc = "impersonation"
    redis = run.redis_of(stack)
    lines = {identity: S.new_product() for identity in (run.VISITOR, run.TRUSTED, run.PASS)}
    # every line takes passes: the priority holder's is signed for it. In "pass" everyone enters with one. Forged
    # passes are signed by a stranger's key under the shop's kid.
    people = ["imp-victim", "imp-stranger"] + [f"imp-fill-{i}" for i in range(1, FILLERS + 1)]
    wanted = []  # (identity, name, spec)
    for identity, p in lines.items():
        wanted.append((identity, "imp-holder", f"{p}:imp-holder:priority"))
        if identity == run.PASS:
            wanted += [(identity, who, f"{p}:{who}") for who in people]
        wanted += [(identity, f"forged {who}", f"!{p}:{who}") for who in ("imp-victim", "imp-fill-1", "imp-holder")]
        wanted.append((identity, "forged imp-holder:priority", f"!{p}:imp-holder:priority"))
    signed = passes([spec for _, _, spec in wanted])
    made = {identity: {} for identity in lines}
    for (identity, name, _), jws in zip(wanted, signed["passes"]):
        made[identity][name] = jws
    for identity, p in lines.items():
        # one place: the victim holds it, everyone else waits, and nothing moves until the victim books
        api.configure(p, 1, 1000, 3600, identity=identity, passKeys=[signed["key"]])
        api.set_stock(p, 10)
    for identity, p in lines.items():
        Line(sc, run, api, redis, stack, identity, p, made[identity]).prove()
    redis.close()


def passes(specs):
    """A shop's key and the passes of the specs ([!]PRODUCT:SUB[:priority]; ! signs with a stranger's key under the
    shop's kid), from the fault checks' jar."""
    out = subprocess.run([S.JAVA, "-jar", os.path.join(S.WORK, "jars", S.CHECKS_JAR), "passes", *specs],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    return json.loads(out.strip().splitlines()[-1])


def claims(jws):
    """The claims of a JWS (a pass, an admission), read without verifying it."""
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def resigned(jws, **changes):
    """A genuine JWS with its claims changed and its signature kept."""
    header, _, signature = jws.split(".")
    body = hostile.b64url(json.dumps({**claims(jws), **changes}).encode())
    return f"{header}.{body}.{signature}"


def lane_of(token):
    return "priority" if hostile.token_bytes(token)[0] == hostile.PRIORITY_LANE else "general"


class Line:
    """One line of one identity: its victim (admitted), the fillers waiting behind (the first of them a waiting
    victim), the stranger with a place of their own, and, in trusted and pass, a priority holder yet to enter."""

    def __init__(self, sc, run, api, redis, stack, identity, p, signed):
        self.sc, self.run, self.R, self.api, self.redis, self.stack = sc, run, run.R, api, redis, stack
        self.identity, self.p, self.passes = identity, p, signed  # name -> pass
        self.tokens = {}  # who -> the token their own enter got
        self.users = {}   # who -> the user id it names
        self.answers = []  # (what the stranger tried, Reply): none may carry a token it was not given
        self.client = S.Client(api.ingest)  # the users' own clients
        self.stranger = S.Client(api.ingest)
        self.booking = S.Client(stack.booking.base)

    def label(self, text):
        return f"{self.identity}: {text}"

    def check(self, text, ok, detail=""):
        return self.R.check(self.sc, self.label(text), ok, detail)

    # --- entering, as each identity enters -------------------------------------------------------------------

    def enter_body(self, who):
        """What `who`'s own client sends to enter: the request body and headers."""
        if self.identity == "visitor":
            return ({"pass": self.passes[who]} if who == "imp-holder" else {}), None
        if self.identity == "trusted":
            body = {"userId": who}
            if who == "imp-holder":
                body["pass"] = self.passes[who]
            return body, self.api.shop
        return {"pass": self.passes[who]}, None

    def enter(self, who):
        """`who` enters as their own client does, again while ingest answers 503; returns the 202's body."""
        body, headers = self.enter_body(who)

        def once():
            r = self.client.call("POST", ENTERS.format(self.p), body, headers, timeout=20)
            return r.json() if r.status == 202 else None
        accepted = S.wait_for(once, 30, 0.2) or {}
        if accepted.get("token"):
            self.tokens[who], self.users[who] = accepted["token"], accepted["userId"]
        return accepted

    def again(self, who):
        """`who` enters again as their client would (with the token alone in a visitor line): the token answered."""
        if self.identity == "visitor":
            body, headers = {"token": self.tokens[who]}, None
        else:
            body, headers = self.enter_body(who)
        return (self.client.call("POST", ENTERS.format(self.p), body, headers).json() or {}).get("token")

    def status(self, who):
        """The status answer of `who`'s own token, polled as told: a 429 (polled too soon) waits its Retry-After."""
        for _ in range(10):
            r = self.client.call("GET", f"{ENTERS.format(self.p)}/{self.tokens[who]}")
            if r.status != 429:
                return r.json() or {}
            time.sleep(min(5.0, float(r.header("Retry-After") or 1)))
        return {}

    def placed(self, who, *statuses):
        return (self.status(who).get("status") in statuses) or None

    # --- the stranger ------------------------------------------------------------------------------------------

    def tried(self, what, method, path, body=None, headers=None, client=None):
        r = (client or self.stranger).call(method, path, body, headers)
        self.answers.append((what, r))
        return r

    def forgeries(self, who):
        """Every token the stranger can make that names `who`: signed with secrets of their own, their own genuine
        token edited to name `who` (its MAC kept), in either lane, with no MAC at all; and `who`'s user id as it is."""
        user, mine = self.users[who], self.tokens["imp-stranger"]
        return {
            "forged with another secret": hostile.forged_token(self.p, user, "stranger-" + os.urandom(16).hex()),
            "forged, priority lane": hostile.forged_token(self.p, user, "stranger-" + os.urandom(16).hex(),
                                                          hostile.PRIORITY_LANE),
            "the stranger's token edited to name them": hostile.renamed(mine, self.p, user),
            "the stranger's token edited to name them, priority lane": hostile.renamed(mine, self.p, user,
                                                                                      hostile.PRIORITY_LANE),
            "a zero MAC": hostile.b64url(bytes([1]) + hostile.varint(self.p) + user.encode() + bytes(16)),
            "their user id as the token": user,
            "their user id in base64url": hostile.b64url(user.encode()),
        }

    def enters_as(self, who):
        """The enters the stranger makes as `who`, each with the (status, problem code) it must be answered with."""
        user = self.users.get(who, who)
        path = ENTERS.format(self.p)
        admin = {"Authorization": f"Bearer {self.stack.admin_token}"}
        tries = []
        holder = who == "imp-holder"
        # a pass for them, signed by the stranger's key; a visitor's id was made after the passes were signed, so
        # theirs is such a pass with its subject changed
        forged = self.passes[f"forged {who}" + (":priority" if holder else "")]
        if claims(forged)["sub"] != user:
            forged = resigned(forged, sub=user)
        if self.identity == "visitor":
            tries += [("their user id", {"userId": user}, None, (400, "user_id_not_accepted")),
                      ("their user id, the admin token as key", {"userId": user}, admin,
                       (400, "user_id_not_accepted"))]
        elif self.identity == "trusted":
            wrong = S.key_header("".join("0" if c != "0" else "1" for c in self.stack.enter_key))
            basic = {"Authorization": "Basic " + base64.b64encode(f"{user}:".encode()).decode()}
            tries += [("their user id, no key", {"userId": user}, None, (401, "enter_key_required")),
                      ("their user id, a wrong key", {"userId": user}, wrong, (401, "enter_key_invalid")),
                      ("their user id, the admin token as key", {"userId": user}, admin, (401, "enter_key_invalid")),
                      ("their user id, Basic credentials", {"userId": user}, basic, (401, "enter_key_invalid")),
                      ("their user id and a pass for them signed by the stranger's key, no key",
                       {"userId": user, "pass": forged}, None,
                       (401, "enter_key_required")),
                      ("{}, no key", {}, None, (400, "user_id_required"))]
        else:
            mine = self.passes["imp-stranger"]
            tries += [("their user id, no pass", {"userId": user}, None, (403, "pass_required")),
                      ("{}", {}, None, (403, "pass_required")),
                      ("their user id, the admin token as key", {"userId": user}, admin, (403, "pass_required")),
                      ("their user id with the stranger's own pass", {"userId": user, "pass": mine}, None,
                       (403, "pass_invalid")),
                      ("the stranger's pass with its subject changed to theirs, signature kept",
                       {"pass": resigned(mine, sub=user)}, None, (403, "pass_invalid"))]
        if self.identity != "trusted":  # a pass names the user in these lines
            tries += [("a pass for them signed by the stranger's key under the shop's kid", {"pass": forged}, None,
                       (403, "pass_invalid")),
                      ("a pass for them with alg none", {"pass": hostile.jws({"alg": "none"},
                                                                             {**claims(forged), "sub": user}, b"")},
                       None, (403, "pass_invalid"))]
            if holder:
                tries.append(("a general pass for them signed by the stranger's key",
                              {"pass": self.passes["forged imp-holder"]}, None, (403, "pass_invalid")))
        if who in self.users:
            tries.append(("their user id and the stranger's token", {"userId": user,
                                                                     "token": self.tokens["imp-stranger"]}, None,
                          (400, "invalid_request")))
            for name, token in self.forgeries(who).items():
                tries.append((f"a token: {name}", {"token": token}, None, (400, "invalid_token")))
        else:  # not entered yet: tokens forged for the user id the stranger knows they will have
            for name, lane in (("general", hostile.GENERAL_LANE), ("priority", hostile.PRIORITY_LANE)):
                tries.append((f"a token forged with another secret, {name} lane",
                              {"token": hostile.forged_token(self.p, user, "stranger-x", lane)}, None,
                              (400, "invalid_token")))
                tries.append((f"the stranger's token edited to name them, {name} lane",
                              {"token": hostile.renamed(self.tokens["imp-stranger"], self.p, user, lane)}, None,
                              (400, "invalid_token")))
        results = []
        for name, body, headers, expect in tries:
            r = self.tried(f"enter as {who}: {name}", "POST", path, body, headers)
            results.append((name, r.status, (r.json() or {}).get("code"), expect))
        return results

    # --- the scenario ------------------------------------------------------------------------------------------

    def prove(self):
        k = S.keys(self.p)
        victim = self.enter("imp-victim")
        admitted = S.wait_for(lambda: self.placed("imp-victim", "AVAILABLE"), 30, 0.5)
        for i in range(1, FILLERS + 1):
            self.enter(f"imp-fill-{i}")
        self.enter("imp-stranger")
        waiting = S.wait_for(lambda: all(self.placed(w, "WAITING") for w in self.tokens if w != "imp-victim"), 30, 0.5)
        before_victim, before_filler = self.status("imp-victim"), self.status("imp-fill-1")
        if not self.check(f"set-up: the victim admitted, {FILLERS} users and the stranger waiting behind",
                          victim.get("token") and admitted and waiting and before_filler.get("position") == 1,
                          f"victim {victim}, {before_victim}, first waiting {before_filler}"):
            return
        if self.identity == "visitor":
            ok = VISITOR_ID.fullmatch(self.users["imp-victim"]) and self.users["imp-victim"] == hostile.user_of(
                self.tokens["imp-victim"])
            self.check("the server made the victim's user id (22+ base64url characters) and the token names it", ok,
                       self.users["imp-victim"])
        line_before = self.line()

        # what the stranger tries
        results = self.enters_as("imp-victim") + self.enters_as("imp-fill-1")
        wrong = [r for r in results if (r[1], r[2]) != r[3]]
        self.check(f"entering as the victim: each of {len(results)} tries refused with its status and code",
                   not wrong, wrong[:4])
        self.check("entering as the victim: no try got a place (no 2xx)",
                   all(not 200 <= r[1] < 300 for r in results), [r for r in results if 200 <= r[1] < 300][:4])
        refused = collections.Counter()
        for who in ("imp-victim", "imp-fill-1"):
            for name, token in self.forgeries(who).items():
                at = f"{ENTERS.format(self.p)}/{token}"
                for what, method, path in (("leave", "DELETE", at), ("status", "GET", at),
                                           ("events", "GET", at + "/events")):
                    r = self.tried(f"{what} of {who}: {name}", method, path)
                    refused[(what, r.status)] += 1
                r = self.tried(f"booking as {who}: {name}", "POST", "/api/v1/bookings",
                               {"productId": self.p, "token": token, "quantity": 1}, client=self.booking)
                refused[("booking", r.status)] += 1
        odd = {f"{what} {status}": n for (what, status), n in refused.items()
               if status not in ({400, 403} if what == "booking" else {400})}
        self.check("leave, status, events with anything but the victim's token: 400; booking: 400/403", not odd,
                   {f"{w} {s}": n for (w, s), n in refused.items()})
        self.R.figure(self.sc, self.label("with the tokens the stranger made"),
                      ", ".join(f"{w} {st} × {n}" for (w, st), n in sorted(refused.items())))
        admissions = [what for what, r in self.answers if (r.json() or {}).get("admission")]
        self.check("no answer to the stranger carries an admission", not admissions, admissions[:4])
        time.sleep(1.5)  # anything the stranger got accepted has reached the line by now
        line_after = self.line()
        self.check("the line is as before the stranger's tries (waiting, admitted, gone, counts: Redis)",
                   line_after == line_before, _diff(line_before, line_after))

        # the victims' places are intact
        after_victim, after_filler = self.status("imp-victim"), self.status("imp-fill-1")
        self.check("the victim's place intact: the same token entering again, AVAILABLE, the admission theirs",
                   self.again("imp-victim") == self.tokens["imp-victim"] and after_victim.get("status") == "AVAILABLE"
                   and after_victim.get("expiresAt") == before_victim.get("expiresAt")
                   and claims(after_victim.get("admission") or "a.e30.a").get("sub") == self.users["imp-victim"],
                   after_victim)
        self.check("the waiting victim's place intact: the same token entering again, still first in line",
                   self.again("imp-fill-1") == self.tokens["imp-fill-1"] and after_filler.get("status") == "WAITING"
                   and after_filler.get("position") == 1, after_filler)

        self.priority_lane(k)
        if self.identity == "visitor":
            self.crowd(k)
        self.book_once(k)
        theirs = [t for who, t in self.tokens.items() if who != "imp-stranger"]
        leaked = [what for what, r in self.answers
                  if any(t in r.body or any(t in v for _, v in r.headers) for t in theirs)]
        self.check(f"none of the stranger's {len(self.answers)} requests was answered with another's token",
                   not leaked, leaked[:4])
        statuses = collections.Counter(r.status for _, r in self.answers)
        self.R.figure(self.sc, self.label("the stranger's requests"),
                      f"{len(self.answers)}: {dict(sorted(statuses.items()))}")

    def line(self):
        """The line's people and counts, read from Redis in one step."""
        waiting, entry, gone, st = self.run.line_snapshot(self.redis, self.p)
        counts = {f: st.get(f) for f in ("seq", "enteredTotal", "admittedTotal", "leftTotal", "consumedTotal")}
        return {"waiting": waiting, "entry": entry, "gone": sorted(gone), "counts": counts}

    def priority_lane(self, k):
        """Before the priority holder enters, the stranger enters as them every way they can; then the holder enters
        with their priority pass and must stand in the priority lane, ahead of the general line."""
        holder = "imp-holder"
        results = self.enters_as(holder)
        wrong = [r for r in results if (r[1], r[2]) != r[3]]
        self.check(f"entering as the priority holder before them: each of {len(results)} tries refused with its "
                   "status and code", not wrong, wrong[:4])
        time.sleep(1.5)
        anywhere = (self.redis("ZSCORE", k["waiting"], holder), self.redis("ZSCORE", k["entry"], holder),
                    self.redis("SISMEMBER", k["gone"], holder))
        self.check("the priority holder is nowhere in the line before they enter (Redis)",
                   anywhere[0] is None and anywhere[1] is None and not anywhere[2], anywhere)
        accepted = self.enter(holder)
        token = accepted.get("token") or ""
        S.wait_for(lambda: self.placed(holder, "WAITING"), 30, 0.5)
        score = self.redis("ZSCORE", k["waiting"], holder)
        general = [float(s) for s in self.redis("ZRANGE", k["waiting"], 0, -1, "WITHSCORES")[1::2]]
        st, filler = self.status(holder), self.status("imp-fill-1")
        self.check("the priority holder lands in the priority lane: a priority token, a score below the general "
                   "line's (Redis), first in line",
                   token and lane_of(token) == "priority" and score is not None and float(score) < 0
                   and float(score) == min(general) and st.get("position") == 1 and filler.get("position") == 2,
                   f"token lane {lane_of(token) if token else None}, score {score}, status {st}, first waiting "
                   f"before them now {filler}")
        self.R.figure(self.sc, self.label("priority holder"),
                      f"{len(results)} tries as them refused before they entered; then a "
                      f"{lane_of(token) if token else 'no'} token, "
                      f"score {float(score or 0):.0f}, position {st.get('position')}")

    def crowd(self, k):
        """100,000 visitors enter with {}: all distinct, none the victim."""
        out = os.path.join(S.WORK, "visitors.txt")
        entered_before = self.entered_total(k)
        done = subprocess.run([S.JAVA, "--sun-misc-unsafe-memory-access=allow", "-jar",
                               os.path.join(S.WORK, "jars", S.CHECKS_JAR), "visitors", self.stack.ingest.base,
                               str(self.p), str(VISITOR_IDS), out, str(CROWD_BOUND)],
                              capture_output=True, text=True, timeout=CROWD_BOUND + 120)
        fig = None
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                fig = json.loads(line)
        if not self.check("the crowd of visitors ran", fig is not None, done.stdout[-500:] + done.stderr[-1500:]):
            return
        pairs = [line.split(" ") for line in open(out).read().splitlines()]
        users = [u for u, _ in pairs]
        tokens = [t for _, t in pairs]
        seconds = fig["seconds"]
        self.check(f"{VISITOR_IDS:,} visitors entered with {{}}: every one answered 202 within {CROWD_BOUND:.0f} s",
                   fig["accepted"] == VISITOR_IDS and len(pairs) == VISITOR_IDS, fig)
        malformed = [u for u, t in pairs if not VISITOR_ID.fullmatch(u) or hostile.user_of(t) != u]
        self.check("every visitor's user id is 22+ base64url characters, and their token names it", not malformed,
                   malformed[:4])
        self.check(f"the {len(users):,} user ids are distinct", len(set(users)) == len(users),
                   f"{len(users) - len(set(users))} repeated")
        self.check(f"the {len(tokens):,} tokens are distinct", len(set(tokens)) == len(tokens),
                   f"{len(tokens) - len(set(tokens))} repeated")
        mine = {self.users[w] for w in self.users} | set(self.tokens.values())
        self.check("none of them is the victim's, the waiting victim's or the stranger's user id or token",
                   not (mine & (set(users) | set(tokens))), mine & (set(users) | set(tokens)))
        # every 202 a place of its own: the line counts them all (an enter made again unanswered may count too)
        expected = entered_before + VISITOR_IDS
        t0 = time.monotonic()
        entered = S.wait_for(lambda: self.entered_total(k) >= expected, 180, 0.5)
        took = time.monotonic() - t0
        now = self.entered_total(k)
        self.check("each of them holds a place of its own in the line (enteredTotal rose by 100,000)",
                   entered and now - entered_before <= VISITOR_IDS + fig["unanswered"], f"{now - entered_before}")
        self.R.figure(self.sc, "visitors", f"{len(pairs):,} enters with {{}} in {seconds:.1f} s "
                                           f"({len(pairs) / seconds:,.0f}/s, 64 connections); answers "
                                           f"{fig['answers']}, {fig['unanswered']} unanswered; "
                                           f"{len(set(users)):,} distinct user ids, {len(set(tokens)):,} distinct "
                                           f"tokens; all in the line {took:.1f} s after the last 202")
        after = self.status("imp-victim")
        self.check("the victim's place intact after the crowd: the same token entering again, AVAILABLE",
                   self.again("imp-victim") == self.tokens["imp-victim"] and after.get("status") == "AVAILABLE",
                   after)

    def entered_total(self, k):
        return int(self.redis("HGET", k["stats"], "enteredTotal") or 0)

    def book_once(self, k):
        """The victim books with their token: once (201), never again (403); the one booking is theirs. Their place
        goes to the priority holder."""
        first = self.api.book(self.p, self.tokens["imp-victim"])
        second = self.api.book(self.p, self.tokens["imp-victim"])
        bookings = [json.loads(v) for v in self.redis("HVALS", k["bookings"]) or []]
        self.check("the victim books once: 201, then 403; the one booking is theirs",
                   first.status == 201 and second.status == 403 and len(bookings) == 1
                   and bookings[0].get("userId") == self.users["imp-victim"],
                   f"{first}, {second}, bookings {bookings}")
        admitted = S.wait_for(lambda: self.placed("imp-holder", "AVAILABLE"), 30, 0.5)
        behind = self.status("imp-fill-1")
        self.check("the place goes to the priority holder, ahead of the general line",
                   admitted and behind.get("status") == "WAITING", behind)


def _diff(before, after):
    return {part: (before[part], after[part]) for part in before if before[part] != after[part]}
