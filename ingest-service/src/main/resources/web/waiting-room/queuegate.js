/*
 * queuegate.js: a place in a Queuegate waiting room, from any web page.
 *
 *   <script src="https://queue.example.com/queuegate.js"></script>
 *   const line = Queuegate.line({ productId: 1, ingestUrl: 'https://queue.example.com',
 *                                 bookingUrl: 'https://booking.example.com' });
 *   await line.join({ onChecking });             // 202: {token, userId, productId, status}; the place is saved in
 *                                                // localStorage. A line of identity "visitor" makes the user id; with
 *                                                // a place saved here, join() enters again with its token and keeps it.
 *                                                // A line that asks for proof of work: the challenge is solved in a
 *                                                // Web Worker first, onChecking(elapsedMs) while it runs
 *   const stop = line.watch(onStatus, onProblem); // follows the place's event stream (Server-Sent Events); polls
 *                                                // at the pace the server asks for when there is no stream
 *   const booking = await line.book(1);          // once AVAILABLE; a refusal throws Queuegate.Refusal
 *   await line.leave();                          // gives the place up and forgets it
 *
 * Who may enter is the line's identity, learnt from its answers:
 *   "visitor"  join() as above.
 *   "pass"     the shop's backend signs a pass (a JWS whose subject is its user) and hands it to the browser, on its
 *              own page or in a link to the waiting page, /queues/1#pass=<JWS> (a fragment never reaches a server):
 *                await line.join({ pass: passFromMyBackend });
 *                const link = Queuegate.fromLink();      // {pass, token} of #pass=…&token=…, now out of the address
 *                if (link.pass) await line.join({ pass: link.pass });   // bar, so the link is not bookmarked or shared
 *              join() without a pass: Refusal 403 pass_required; a bad or expired pass: 403 pass_invalid.
 *   "trusted"  only the shop's backend enters (with its enter key; a browser's {} gets 400 user_id_required). It hands
 *              the token to the page, which follows that place: line.adopt(token); line.watch(…). The waiting page
 *              takes it as /queues/1#token=<token>.
 *
 * The token is the place: it is sent to Queuegate's own API (ingest, booking) and nowhere else.
 *
 * Statuses come as the API sends them: PENDING, WAITING (position, etaSeconds), AVAILABLE (expiresAt), EXPIRED,
 * SOLD_OUT (with expiresAt when admitted before the stock ran out), and whatever a newer server adds; callers should
 * show an unknown status rather than fail on it. Every failure is a Refusal with the HTTP status (0 when the network
 * failed), the problem's `code`, a sentence and, for 429 and 503, how long to wait. Plain ES2020, no dependencies, no
 * build step.
 */
(function (global) {
  'use strict';

  /** Shortest and longest wait between polls after failures; the wait doubles per failure in between. */
  var MIN_BACKOFF_MS = 1000;
  var MAX_BACKOFF_MS = 30000;
  /** Poll interval when an answer names none but is not final, e.g. a status this client does not know. */
  var DEFAULT_POLL_MS = 2000;
  /**
   * Each wait is stretched by up to this share at random, so a crowd that loaded the page together does not
   * poll in lockstep after a hiccup.
   */
  var JITTER = 0.1;

  /** A refused or failed call: status 0 for a network failure, else the HTTP status and the problem's code. */
  class Refusal extends Error {
    constructor(status, code, detail, retryAfterMs) {
      super(detail || code);
      this.name = 'Refusal';
      this.status = status;
      this.code = code;
      this.retryAfterMs = retryAfterMs;
    }
  }

  function retryAfterMs(response) {
    var header = response.headers.get('Retry-After');
    if (!header) {
      return null;
    }
    var seconds = Number(header);
    if (Number.isFinite(seconds)) {
      return Math.max(0, seconds * 1000);
    }
    var date = Date.parse(header);
    return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
  }

  function codeOf(status) {
    if (status === 429) return 'too_many_requests';
    if (status === 503) return 'unavailable';
    if (status >= 500) return 'internal_error';
    return 'invalid_request';
  }

  /** One JSON call; resolves with the body (null for 204) and the server's clock, or rejects with a Refusal. */
  async function call(method, url, body) {
    var response;
    try {
      response = await fetch(url, {
        method: method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit'
      });
    } catch (e) {
      throw new Refusal(0, 'network', 'The connection failed.', null);
    }
    if (response.ok) {
      var json = response.status === 204 ? null : await response.json();
      return { body: json, serverDate: Date.parse(response.headers.get('Date') || '') };
    }
    var problem = {};
    try {
      problem = await response.json();
    } catch (e) {
      // not a problem document: the status alone says what happened
    }
    throw new Refusal(response.status, problem.code || codeOf(response.status), problem.detail,
        retryAfterMs(response));
  }

  /**
   * The solving worker, from ingest's altcha-worker.js: started from its URL on ingest's own origin, else (a shop's
   * page on another origin, where a browser starts no worker from a foreign URL) from its text.
   */
  async function solvingWorker(ingestUrl) {
    var url = ingestUrl + '/altcha-worker.js';
    if (new URL(url, global.location.href).origin === global.location.origin) {
      return new Worker(url);
    }
    var text = await (await fetch(url, { credentials: 'omit' })).text();
    return new Worker(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
  }

  /** The challenge's number, found by a Web Worker (null when none matches). */
  async function solveInWorker(ingestUrl, challenge) {
    var worker;
    try {
      worker = await solvingWorker(ingestUrl);
    } catch (e) {
      throw new Refusal(0, 'network', 'The browser check could not start.', null);
    }
    return new Promise(function (resolve, reject) {
      worker.onmessage = function (event) {
        if ('number' in event.data) {
          worker.terminate();
          resolve(event.data.number);
        }
      };
      worker.onerror = function () {
        worker.terminate();
        reject(new Refusal(0, 'network', 'The browser check could not run.', null));
      };
      worker.postMessage(challenge);
    });
  }

  /**
   * Runs task while holding the named lock of this origin (Web Locks), so that two tabs joining at once make one
   * place, not two; at once where the browser has no such locks.
   */
  function exclusively(name, task) {
    var locks = global.navigator && global.navigator.locks;
    return locks && typeof locks.request === 'function' ? locks.request(name, task) : task();
  }

  /**
   * What a link to this page handed over in its fragment (#pass=…&token=…): {pass, token}, each null when absent.
   * Both are taken out of the address bar (history.replaceState), so the page is not bookmarked, shared or synced
   * with them; a fragment is never sent to a server, and the waiting page sends no Referer.
   */
  function fromLink() {
    var hash = global.location.hash.replace(/^#/, '');
    var params = new URLSearchParams(hash);
    var link = { pass: params.get('pass') || null, token: params.get('token') || null };
    if (params.has('pass') || params.has('token')) {
      params.delete('pass');
      params.delete('token');
      var rest = params.toString();
      global.history.replaceState(global.history.state, '',
          global.location.pathname + global.location.search + (rest ? '#' + rest : ''));
    }
    return link;
  }

  function jittered(ms) {
    return Math.round(ms * (1 + Math.random() * JITTER));
  }

  /**
   * A user's place in one product's line. Its state (token, user, the first position seen, a booking) lives in
   * `storage` under one key per product, so a reload, or another tab, resumes where the user was.
   */
  class Line {
    /**
     * @param {object} options
     * @param {number|string} options.productId the product whose line this is
     * @param {string} [options.ingestUrl] ingest-service's base URL; '' for the page's own origin
     * @param {string} [options.bookingUrl] booking-service's base URL; '' for the page's own origin
     * @param {Storage} [options.storage] where the place is kept; localStorage by default
     */
    constructor(options) {
      this.productId = String(options.productId);
      this.ingestUrl = options.ingestUrl || '';
      this.bookingUrl = options.bookingUrl || '';
      this.storage = options.storage || global.localStorage;
      this.key = 'queuegate:' + this.productId;
    }

    /**
     * What is kept for this product: {token, userId, firstPosition, booking, outcome}, or null. userId is the one the
     * 202 named (none for an adopted token); outcome is what ended the place here ('BOOKED', or the caller's own).
     */
    saved() {
      try {
        return JSON.parse(this.storage.getItem(this.key) || 'null');
      } catch (e) {
        return null;
      }
    }

    save(changes) {
      var next = Object.assign({}, this.saved() || {}, changes);
      this.storage.setItem(this.key, JSON.stringify(next));
      return next;
    }

    /** Forgets the place in this browser only; the server keeps it until it expires or is left. */
    forget() {
      this.storage.removeItem(this.key);
    }

    get token() {
      var saved = this.saved();
      return saved ? saved.token : null;
    }

    entryUrl() {
      return this.ingestUrl + '/api/v1/queues/' + encodeURIComponent(this.productId) + '/entries';
    }

    /**
     * Enters the line, one join of this product at a time in this browser (another tab waits, then keeps the same
     * place). Without a pass: with the token of a place saved here (one not booked, sold out or left), enters again
     * with it and keeps the place; else enters as a new visitor ({}), the line making the user id. With a pass: enters
     * as the pass's subject. When the line asks for proof of work (403 proof_required, or proof_invalid for a proof
     * that expired), fetches its challenge, solves it in a Web Worker and enters with the proof.
     *
     * @param {object} [options]
     * @param {string} [options.pass] the pass the shop's backend signed for its user (a line of identity "pass")
     * @param {function(number)} [options.onChecking] called with the milliseconds spent while a challenge is solved
     * @returns {Promise<object>} the accepted entry: {token, userId, productId, status: 'PENDING'}
     * @throws {Refusal} e.g. 400 user_id_required (only the shop enters this line: see adopt), 403 pass_required
     *         or pass_invalid, 409 queue_closed, 429 or 503 with retryAfterMs
     */
    async join(options) {
      if (typeof options === 'string') {
        throw new TypeError('join() takes no user id: the line makes it, or the pass names it (join({pass}))');
      }
      var line = this;
      var pass = options && options.pass;
      var onChecking = (options && options.onChecking) || function () {};
      return exclusively('queuegate:join:' + this.productId, async function () {
        var saved = line.saved();
        var result;
        if (pass) {
          result = await line.enter({ pass: pass }, onChecking);
        } else if (saved && saved.token && !saved.outcome) {
          try {
            result = await line.enter({ token: saved.token }, onChecking);
          } catch (refusal) {
            if (refusal.code !== 'invalid_token') {
              throw refusal;
            }
            // a token this line did not issue (another deployment's, say): a place of one's own instead
            result = await line.enter({}, onChecking);
          }
        } else {
          result = await line.enter({}, onChecking);
        }
        var entry = result.body;
        if (!saved || saved.token !== entry.token) {
          // a new place starts afresh; the same place keeps what was seen of it
          line.forget();
        }
        line.save({ token: entry.token, userId: entry.userId });
        return entry;
      });
    }

    /**
     * Follows a place someone else entered: the token the shop's backend got for its user (a line of identity
     * "trusted") and handed to this page. Saved as this product's place, so watch, status, book and leave use it.
     * @returns {object} what is now saved for the product
     */
    adopt(token) {
      if (typeof token !== 'string' || token === '') {
        throw new TypeError('adopt(token) takes the token of a place');
      }
      var saved = this.saved();
      if (!saved || saved.token !== token) {
        this.forget();
        return this.save({ token: token });
      }
      return saved;
    }

    /** One enter with this body, and again with a proof of work when the line asks for one. */
    async enter(body, onChecking) {
      try {
        return await call('POST', this.entryUrl(), body);
      } catch (refusal) {
        if (refusal.code !== 'proof_required' && refusal.code !== 'proof_invalid') {
          throw refusal;
        }
        var proof = await this.solve(onChecking);
        return call('POST', this.entryUrl(), Object.assign({}, body, { proof: proof }));
      }
    }

    /**
     * Fetches and solves this line's proof-of-work challenge: ALTCHA's payload, base64. Fetched for nobody in
     * particular, it is good for one enter of whoever comes with it (a visitor has no id before entering).
     */
    async solve(onChecking) {
      onChecking = onChecking || function () {};
      var challenge = (await call('GET', this.ingestUrl + '/api/v1/queues/' + encodeURIComponent(this.productId)
          + '/challenge')).body;
      var started = Date.now();
      var timer = setInterval(function () { onChecking(Date.now() - started); }, 100);
      try {
        var number = await solveInWorker(this.ingestUrl, challenge);
        if (number === null) {
          throw new Refusal(403, 'proof_invalid', 'The challenge could not be solved.', null);
        }
        return global.btoa(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge,
          number: number, salt: challenge.salt, signature: challenge.signature }));
      } finally {
        clearInterval(timer);
        onChecking(Date.now() - started);
      }
    }

    /**
     * Reads the place once. The answer carries `pollAfterMs` (null once nothing is left to wait for) and
     * `clockOffsetMs`, the server's clock minus this browser's, for counting down to `expiresAt`.
     */
    async status() {
      var token = this.requireToken();
      var result = await call('GET', this.entryUrl() + '/' + encodeURIComponent(token));
      var status = Object.assign({}, result.body);
      status.receivedAt = Date.now();
      // Date has whole seconds: only a clock that is clearly wrong is corrected
      var offset = Number.isNaN(result.serverDate) ? 0 : result.serverDate + 500 - status.receivedAt;
      status.clockOffsetMs = Math.abs(offset) > 2000 ? offset : 0;
      this.remember(status);
      return status;
    }

    /** Keeps the furthest position seen, which the progress bar counts from. */
    remember(status) {
      if (status.status === 'WAITING' && typeof status.position === 'number') {
        var saved = this.saved() || {};
        if (!saved.firstPosition || status.position > saved.firstPosition) {
          this.save({ firstPosition: status.position });
        }
      }
    }

    /**
     * Follows the place until it is gone: by its event stream (`…/events`, Server-Sent Events: the server tells each
     * change as it reads it) where the browser has EventSource, by polling (see poll) where it has not, when the
     * stream fails, or when the server asks this page to poll instead. An admitted place stays followed: the stock
     * can run out under it (SOLD_OUT, with the admission's `expiresAt`) and come back (AVAILABLE again). The first
     * answer with an `expiresAt` is fetched by one poll, whose Date header sets the clock the countdown runs on.
     *
     * @param {function(object)} onStatus every change
     * @param {function(Refusal, number)} [onProblem] every failure, with the milliseconds until the next try
     * @returns {function()} stops following
     */
    watch(onStatus, onProblem) {
      var line = this;
      if (typeof global.EventSource !== 'function' || !this.token) {
        return this.poll(onStatus, onProblem);
      }
      var stopped = false;
      var stopPolling = null;
      var clockOffsetMs = null;
      var source = new global.EventSource(this.entryUrl() + '/' + encodeURIComponent(this.token) + '/events');
      function pollInstead(afterMs) {
        source.close();
        if (!stopped && stopPolling === null) {
          stopPolling = line.poll(onStatus, onProblem, afterMs);
        }
      }
      function deliver(event) {
        if (stopped) return;
        var status = JSON.parse(event.data);
        status.receivedAt = Date.now();
        status.clockOffsetMs = clockOffsetMs || 0;
        line.remember(status);
        if (typeof status.expiresAt === 'number' && clockOffsetMs === null) {
          // a countdown runs on the server's clock: one poll's Date header says how far this browser's is off
          clockOffsetMs = 0;
          line.status().then(function (polled) {
            clockOffsetMs = polled.clockOffsetMs;
            if (!stopped) onStatus(polled);
          }, function () {
            if (!stopped) onStatus(status);
          });
          return;
        }
        onStatus(status);
        if (status.status === 'EXPIRED') {
          source.close();
        }
      }
      ['PENDING', 'WAITING', 'AVAILABLE', 'SOLD_OUT', 'EXPIRED'].forEach(function (name) {
        source.addEventListener(name, deliver);
      });
      // too many streams on this product: poll at the pace the answer names
      source.addEventListener('poll', function (event) {
        var status = JSON.parse(event.data);
        pollInstead(status.pollAfterMs || DEFAULT_POLL_MS);
      });
      // a failed stream (a proxy that does not pass it, a server that ended it): polling goes on from here
      source.onerror = function () {
        pollInstead(0);
      };
      return function stop() {
        stopped = true;
        source.close();
        if (stopPolling !== null) stopPolling();
      };
    }

    /**
     * Polls until the place needs no more waiting: after each answer it waits the `pollAfterMs` the server
     * asked for; after a failure it waits twice as long as after the previous one (1 s up to 30 s), or the
     * server's Retry-After when that is longer. A token this server does not accept (400) ends the watch.
     *
     * @param {function(object)} onStatus every answer
     * @param {function(Refusal, number)} [onProblem] every failure, with the milliseconds until the next try
     * @param {number} [firstAfterMs] when to poll first (at once when left out)
     * @returns {function()} stops the polling
     */
    poll(onStatus, onProblem, firstAfterMs) {
      var line = this;
      var stopped = false;
      var timer = null;
      var backoff = MIN_BACKOFF_MS;
      function schedule(ms) {
        if (!stopped) {
          timer = global.setTimeout(poll, ms);
        }
      }
      async function poll() {
        timer = null;
        if (stopped || !line.token) {
          return;
        }
        try {
          var status = await line.status();
          backoff = MIN_BACKOFF_MS;
          if (stopped) return;
          onStatus(status);
          if (status.pollAfterMs !== null && status.pollAfterMs !== undefined) {
            schedule(jittered(status.pollAfterMs));
          } else if (status.status !== 'EXPIRED' && status.status !== 'SOLD_OUT' && !('pollAfterMs' in status)) {
            schedule(jittered(DEFAULT_POLL_MS));
          }
        } catch (refusal) {
          if (stopped) return;
          var fatal = refusal.status === 400 || refusal.status === 404;
          var wait = fatal ? null : jittered(Math.max(backoff, refusal.retryAfterMs || 0));
          backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
          if (onProblem) onProblem(refusal, wait);
          if (!fatal) schedule(wait);
        }
      }
      schedule(firstAfterMs || 0);
      return function stop() {
        stopped = true;
        if (timer !== null) global.clearTimeout(timer);
      };
    }

    /**
     * Books with the admitted place. The token is used up by a booking, so the booking is saved: a reload
     * shows it instead of an expired place.
     * @returns {Promise<object>} the booking: {bookingId, productId, userId, quantity, bookedAt}
     * @throws {Refusal} 409 sold_out (the place stays usable), 403 token_not_admitted (not admitted, expired or
     *         used), 503 unavailable (nothing was taken; try again)
     */
    async book(quantity) {
      var result = await call('POST', this.bookingUrl + '/api/v1/bookings',
          { productId: Number(this.productId), token: this.requireToken(), quantity: quantity || 1 });
      this.save({ booking: result.body, outcome: 'BOOKED' });
      return result.body;
    }

    /** Gives the place (or the admitted slot) up and forgets it here. */
    async leave() {
      var token = this.requireToken();
      await call('DELETE', this.entryUrl() + '/' + encodeURIComponent(token));
      this.forget();
    }

    requireToken() {
      var token = this.token;
      if (!token) {
        throw new Refusal(0, 'no_place', 'There is no place to check: join first.', null);
      }
      return token;
    }
  }

  global.Queuegate = Object.freeze({
    /** A place in one product's line; see Line. */
    line: function (options) {
      return new Line(options);
    },
    /** The pass and token a link handed over in the page's fragment, taken out of the address bar; see fromLink. */
    fromLink: fromLink,
    Refusal: Refusal,
    MIN_BACKOFF_MS: MIN_BACKOFF_MS,
    MAX_BACKOFF_MS: MAX_BACKOFF_MS
  });
})(window);
