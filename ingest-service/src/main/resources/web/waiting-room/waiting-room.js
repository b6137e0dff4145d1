/*
 * The waiting page: join, watch the place move, book when admitted. Everything it knows about the line comes
 * through queuegate.js, the same client a shop would use; this file only decides what to show and say. What it says
 * comes from the catalogue the server put into the page (#messages), in the page's language.
 *
 * Nobody types who they are. A person who arrives with no place saved in this browser joins at once: as a visitor
 * (the line makes the id), or with the pass the shop's link carried (/queues/42#pass=<JWS>). A place saved here is
 * followed again after a reload, as is one whose token the shop's link carried (#token=). Whether the line lets the
 * page join at all (identity "trusted": only the shop does; "pass": only with the shop's pass) the page learns from
 * the answer, and says where to go instead. Having left, or being done, a person joins again with the button.
 *
 * Sent here by a proxy that protects a shop's site (/queues/42?return=<the URL they asked for>), a person is sent back
 * there when their turn comes, with their admission in the one parameter the proxy reads (qg_admission), and the
 * proxy lets them in. The page sends nobody anywhere the server has not said the queue returns people to (its
 * returnHosts): another host, javascript: or //evil is never followed.
 */
(function () {
  'use strict';

  var VIEWS = ['join-view', 'waiting-view', 'available-view', 'done-view'];
  /** Where the language a person picked with the switch is remembered, for their next visit. */
  var LANGUAGE_KEY = 'queuegate:language';
  var MESSAGES = JSON.parse(document.getElementById('messages').textContent);
  var LANGUAGE = document.documentElement.lang || 'en';

  var line = null;
  var stopWatching = null;
  var countdownTimer = null;
  var expiresAtHere = null;
  /** Admitted, but the stock ran out: the turn is kept in case tickets come back before it ends. */
  var soldOutTurn = false;
  /**
   * The pass the shop's link carried: kept in memory for this page's life only (a join after leaving needs it again),
   * never saved, and already out of the address bar.
   */
  var pass = null;
  /** Where to send the person back to when their turn comes, as the server allowed it; null to stay here. */
  var returnUrl = null;
  /** What the page saves as the outcome of a place the person left: the next visit offers to join, not joins. */
  var LEFT = 'LEFT';

  function $(id) {
    return document.getElementById(id);
  }

  /** The page's words for key, with {0}, {1}… filled in by the arguments after it. */
  function t(key) {
    var args = arguments;
    var text = Object.prototype.hasOwnProperty.call(MESSAGES, key) ? MESSAGES[key] : key;
    return text.replace(/\{(\d+)\}/g, function (all, index) {
      var value = args[Number(index) + 1];
      return value === undefined ? all : String(value);
    });
  }

  function show(view) {
    VIEWS.forEach(function (id) {
      $(id).hidden = id !== view;
    });
  }

  function say(text) {
    $('notice').textContent = text || '';
    $('notice').hidden = !text;
  }

  /** Tells screen readers about a change of state the eye sees as a new section. */
  function announce(text) {
    $('announcer').textContent = text;
  }

  function seconds(ms) {
    return Math.max(1, Math.ceil(ms / 1000));
  }

  function clock(date) {
    return date.toLocaleTimeString(LANGUAGE, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  }

  function stopAll() {
    if (stopWatching) {
      stopWatching();
      stopWatching = null;
    }
    if (countdownTimer) {
      clearInterval(countdownTimer);
      countdownTimer = null;
    }
  }

  // --- views -------------------------------------------------------------------------------------------

  /** The join view with the button ready; a person who left, or is done, joins again with it. */
  function showJoin() {
    stopAll();
    show('join-view');
    var button = $('join');
    button.disabled = false;
    button.textContent = t('join');
  }

  /** Out of line by the person's own doing (or a place the line no longer knows): the button, not a join by itself. */
  function outOfLine() {
    line.forget();
    line.save({ outcome: LEFT });
    showJoin();
  }

  function showDone(heading, text, booking) {
    stopAll();
    show('done-view');
    $('done-heading').textContent = heading;
    $('done-heading').className = booking ? 'booked' : '';
    $('done-text').textContent = text;
    $('booking').hidden = !booking;
    if (booking) {
      $('booking-id').textContent = booking.bookingId;
      $('booking-quantity').textContent = String(booking.quantity);
      $('booking-time').textContent = new Date(booking.bookedAt).toLocaleString(LANGUAGE);
    }
    announce(heading + '. ' + text);
    $('done-heading').focus();
  }

  function showBooked(booking) {
    showDone(t('done.booked.heading'), t('done.booked.text'), booking);
  }

  function showSoldOut() {
    showDone(t('done.soldOut.heading'), t('done.soldOut.text'));
  }

  function showWaiting() {
    if ($('waiting-view').hidden) {
      show('waiting-view');
    }
  }

  function positionText(position) {
    if (position === null || position === undefined) {
      // before the sale opens nobody has a number: the order is drawn at the opening
      return t('position.unnumbered');
    }
    var ahead = position - 1;
    var people = ahead === 0 ? t('ahead.none') : ahead === 1 ? t('ahead.one') : t('ahead.other', ahead);
    return t('position.number', position) + ' ' + people;
  }

  function minutesText(seconds) {
    var minutes = Math.max(1, Math.round(seconds / 60));
    return t(minutes === 1 ? 'minutes.one' : 'minutes.other', minutes);
  }

  // Before the line's pace is measured the server gives a range (etaSeconds to etaMaxSeconds): said as a range, never
  // as one confident figure.
  function etaText(etaSeconds, etaMaxSeconds) {
    if (typeof etaSeconds !== 'number') {
      return '';
    }
    if (typeof etaMaxSeconds === 'number' && etaMaxSeconds > etaSeconds) {
      if (etaMaxSeconds < 60) {
        return t('eta.underMinute');
      }
      if (etaSeconds < 60) {
        return t('eta.within', minutesText(etaMaxSeconds));
      }
      return t('eta.range', minutesText(etaSeconds), minutesText(etaMaxSeconds));
    }
    if (etaSeconds < 60) {
      return t('eta.underMinute');
    }
    return t('eta.about', minutesText(etaSeconds));
  }

  function showProgress(percent) {
    $('progress').value = percent;
    $('progress').textContent = percent + '%';
  }

  function showPlace(status) {
    showWaiting();
    $('pending').hidden = true;
    $('place').hidden = false;
    var text = positionText(status.position);
    // only a change is written, so screen readers hear the position when it moves, not on every poll
    if ($('position').textContent !== text) {
      $('position').textContent = text;
      $('position').dataset.position = String(status.position);
    }
    $('eta').textContent = etaText(status.etaSeconds, status.etaMaxSeconds);
    if (status.position === null || status.position === undefined) {
      showProgress(0);
      return;
    }
    var first = (line.saved() || {}).firstPosition || status.position;
    showProgress(first > 0 ? Math.round(100 * (first - status.position) / first) : 0);
  }

  function showAvailable(status) {
    if (returnUrl && status.admission) {
      goBack(status.admission);
      return;
    }
    expiresAtHere = status.expiresAt - (status.clockOffsetMs || 0);
    if ($('available-view').hidden || soldOutTurn) {
      soldOutTurn = false;
      show('available-view');
      $('available-heading').textContent = t('available.heading');
      $('available-text').textContent = t('available.text');
      $('countdown-label').textContent = t('available.countdown');
      $('book').hidden = false;
      $('book').disabled = false;
      $('book').textContent = t('book');
      announce(t('available.announce'));
      $('book').focus();
    }
    countDown();
  }

  /**
   * Admitted, but every ticket is taken: said at once, with no Book button the counter could only refuse. The turn
   * is kept until it ends, and if tickets come back before then the place reads AVAILABLE again.
   */
  function showSoldOutTurn(expiresAt) {
    if (typeof expiresAt === 'number') {
      expiresAtHere = expiresAt;
    }
    if (!soldOutTurn || $('available-view').hidden) {
      soldOutTurn = true;
      show('available-view');
      $('available-heading').textContent = t('soldOutTurn.heading');
      $('available-text').textContent = t('soldOutTurn.text');
      $('countdown-label').textContent = t('soldOutTurn.countdown');
      $('book').hidden = true;
      announce(t('soldOutTurn.heading') + '. ' + t('soldOutTurn.text'));
      $('leave-available').focus();
    }
    countDown();
  }

  function countDown() {
    tick();
    if (!countdownTimer) {
      countdownTimer = setInterval(tick, 1000);
    }
  }

  /** The end of a turn that ran out while sold out: nothing came back in time. */
  function showSoldOutForGood() {
    soldOutTurn = false;
    line.save({ outcome: 'SOLD_OUT' });
    showSoldOut();
  }

  function tick() {
    var left = expiresAtHere - Date.now();
    if (left <= 0) {
      $('countdown').textContent = '0:00';
      if (soldOutTurn) {
        showSoldOutForGood();
      } else {
        showDone(t('done.timeUp.heading'), t('done.timeUp.text'));
      }
      return;
    }
    var total = Math.ceil(left / 1000);
    var h = Math.floor(total / 3600);
    var m = Math.floor(total % 3600 / 60);
    var s = total % 60;
    $('countdown').textContent = (h > 0 ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':'
        + String(s).padStart(2, '0');
  }

  function showOther(status) {
    // a status this page does not know (a newer server): say what it is, keep the place and keep polling
    showWaiting();
    $('pending').hidden = true;
    $('other-status').hidden = false;
    $('other-status').textContent = t('otherStatus', String(status.status).toLowerCase().replace(/_/g, ' '));
  }

  // --- the line ----------------------------------------------------------------------------------------

  function onStatus(status) {
    say('');
    $('updated').textContent = clock(new Date(status.receivedAt));
    $('updated').dateTime = new Date(status.receivedAt).toISOString();
    $('other-status').hidden = true;
    switch (status.status) {
      case 'PENDING':
        showWaiting();
        $('pending').hidden = false;
        $('place').hidden = true;
        break;
      case 'WAITING':
        showPlace(status);
        break;
      case 'AVAILABLE':
        showProgress(100);
        showAvailable(status);
        break;
      case 'EXPIRED':
        if (soldOutTurn) {
          showSoldOutForGood();
        } else {
          showDone(t('done.expired.heading'), t('done.expired.text'));
        }
        break;
      case 'SOLD_OUT':
        if (typeof status.expiresAt === 'number') {
          // admitted before the stock ran out: the turn is kept, with nothing to book until tickets come back
          showSoldOutTurn(status.expiresAt - (status.clockOffsetMs || 0));
          break;
        }
        // the line's own sold out: the place is kept and polling goes on, slower; tickets may come back
        showWaiting();
        $('pending').hidden = true;
        $('place').hidden = true;
        $('other-status').hidden = false;
        $('other-status').textContent = t('soldOut.waiting');
        if ($('announcer').textContent !== $('other-status').textContent) {
          announce($('other-status').textContent);
        }
        break;
      default:
        showOther(status);
    }
    if (status.opensAt && !$('waiting-view').hidden) {
      $('other-status').hidden = false;
      $('other-status').textContent = t('opensAt', clock(new Date(status.opensAt)));
    }
  }

  function onProblem(refusal, waitMs) {
    if (refusal.status === 400) {
      outOfLine();
      say(t('problem.unknownPlace'));
      return;
    }
    var next = t('problem.retry', seconds(waitMs));
    if (refusal.status === 503) {
      say(t('problem.busy') + next);
    } else if (refusal.status === 429) {
      say(t('problem.slowDown') + next);
    } else if (refusal.status === 0) {
      say(t('problem.offline') + next);
    } else {
      say(t('problem.other', refusal.status) + next);
    }
  }

  function watch() {
    stopAll();
    stopWatching = line.watch(onStatus, onProblem);
  }

  /**
   * What a refused join says, and whether joining again from this page could work: a line that only the shop enters,
   * or only with its pass, is not joined by trying again here.
   */
  function joinProblem(refusal) {
    switch (refusal.code) {
      case 'user_id_required':
      case 'enter_key_required':
      case 'enter_key_invalid':
        return { text: t('join.fromShop'), retry: false };
      case 'pass_required':
        return { text: t('join.passRequired'), retry: false };
      case 'pass_invalid':
        return { text: t('join.passInvalid'), retry: false };
      case 'queue_closed':
        return { text: t('join.closed'), retry: true };
      case 'queue_not_found':
        return { text: t('join.notFound'), retry: true };
      case 'proof_invalid':
      case 'proof_required':
        return { text: t('join.proof'), retry: true };
      default:
        if (refusal.status === 503 || refusal.status === 429) {
          return { text: t('join.busy', seconds(refusal.retryAfterMs || 1000)), retry: true };
        }
        if (refusal.status === 0) {
          return { text: t('join.offline'), retry: true };
        }
        return { text: t('join.failed', refusal.status), retry: true };
    }
  }

  /** Joins (the button, or at once on arrival) and follows the place; a refusal is said in the notice. */
  async function join() {
    show('join-view');
    var button = $('join');
    button.disabled = true;
    button.textContent = t('joining');
    try {
      await line.join({
        pass: pass || undefined,
        onChecking: function (elapsedMs) {
          button.textContent = t('checking', (elapsedMs / 1000).toFixed(1));
        }
      });
      say('');
      var saved = line.saved() || {};
      if (saved.outcome) {
        // the pass's place, which this browser saw booked or sold out already
        resume();
        return;
      }
      show('waiting-view');
      $('pending').hidden = false;
      $('place').hidden = true;
      showProgress(0);
      $('position').textContent = '';
      announce(t('pending.announce'));
      $('leave').focus();
      watch();
    } catch (refusal) {
      var problem = joinProblem(refusal);
      say(problem.text);
      button.disabled = false;
      button.textContent = t('join');
      if (!problem.retry) {
        // a line this page cannot join: only where to go instead, no promise of a place and no button to be refused
        show(null);
        announce(problem.text);
      }
    }
  }

  function onJoin(event) {
    event.preventDefault();
    join();
  }

  async function book() {
    var button = $('book');
    button.disabled = true;
    button.textContent = t('booking');
    try {
      var booking = await line.book(1);
      showBooked(booking);
    } catch (refusal) {
      if (refusal.code === 'sold_out') {
        // sold out before the page heard of it: the turn is kept (the watch goes on) should tickets come back
        showSoldOutTurn();
      } else if (refusal.status === 403) {
        showDone(t('done.turnEnded.heading'), t('done.turnEnded.text'));
      } else {
        say(refusal.status === 0 ? t('book.offline')
            : refusal.status === 503 ? t('book.unavailable')
            : t('book.failed', refusal.status));
        button.disabled = false;
        button.textContent = t('book');
      }
    }
  }

  async function leave() {
    try {
      await line.leave();
      outOfLine();
      say(t('leave.done'));
      $('join').focus();
    } catch (refusal) {
      say(t('leave.failed', refusal.status || t('leave.noConnection')));
    }
  }

  function startOver() {
    outOfLine();
    say('');
    $('join').focus();
  }

  /**
   * Where the last visit left off: a booking, a sell-out, a place to keep watching, a place left (the button), or
   * nothing yet, which joins at once.
   */
  function resume() {
    var saved = line.saved();
    if (saved && saved.outcome === 'BOOKED' && saved.booking) {
      showBooked(saved.booking);
    } else if (saved && saved.outcome === 'SOLD_OUT') {
      showSoldOut();
    } else if (saved && saved.token) {
      show('waiting-view');
      $('pending').hidden = true;
      $('place').hidden = true;
      watch();
    } else if (saved && saved.outcome === LEFT) {
      showJoin();
    } else {
      join();
    }
  }

  /** Back to the protected site, with the admission in the parameter its proxy reads; no history entry for here. */
  function goBack(admission) {
    var url = new URL(returnUrl);
    url.searchParams.set('qg_admission', admission);
    stopAll();
    say(t('available.heading'));
    location.replace(url.href);
  }

  /**
   * The URL the proxy sent this person from (?return=), once the server said the queue returns people there; null
   * without one, or when it is refused, and the page then works as it does without.
   */
  async function allowedReturn(productId) {
    var asked = new URLSearchParams(location.search).get('return');
    if (!asked) {
      return null;
    }
    try {
      var response = await fetch('/api/v1/queues/' + productId + '/return-url?url=' + encodeURIComponent(asked),
          { cache: 'no-store' });
      if (response.ok) {
        var url = (await response.json()).url;
        return /^https?:\/\//.test(url) ? url : null;
      }
    } catch (e) {
      // not sent back: the page still lets the person wait and book here
    }
    return null;
  }

  async function pageSettings() {
    try {
      var response = await fetch('/api/v1/page-settings', { cache: 'no-store' });
      if (response.ok) {
        return await response.json();
      }
    } catch (e) {
      // the defaults below still let people join and wait; booking may then fail, and says so
    }
    return { bookingUrl: '' };
  }

  /**
   * The language: the server answered in the one the switch (?lang=) or the browser asked for. A choice made with
   * the switch is remembered here and asked for again on a later visit without ?lang=. Returns false while the page
   * is being loaded again in the remembered language.
   */
  function language() {
    var asked = new URLSearchParams(location.search).get('lang');
    var remembered = null;
    try {
      if (asked) {
        localStorage.setItem(LANGUAGE_KEY, asked);
      }
      remembered = localStorage.getItem(LANGUAGE_KEY);
    } catch (e) {
      // storage refused: the switch still works by its ?lang= links
    }
    var offered = Array.prototype.map.call(document.querySelectorAll('nav.languages a'), function (link) {
      return link.dataset.lang;
    });
    if (!asked && remembered && remembered !== LANGUAGE && offered.indexOf(remembered) >= 0) {
      var url = new URL(location.href);
      url.searchParams.set('lang', remembered);
      location.replace(url.href);
      return false;
    }
    return true;
  }

  async function start() {
    if (!language()) {
      return;
    }
    var match = /^\/queues\/([1-9][0-9]{0,18})\/?$/.exec(location.pathname);
    if (!match) {
      showDone(t('done.noRoom.heading'), t('done.noRoom.text'));
      return;
    }
    var productId = match[1];
    $('title').textContent = t('title.product', productId);
    document.title = t('title.document', productId);
    // read before anything else, so that the pass or token leaves the address bar at once
    var link = Queuegate.fromLink();
    var settings = await pageSettings();
    returnUrl = await allowedReturn(productId);
    line = Queuegate.line({ productId: productId, bookingUrl: settings.bookingUrl });
    pass = link.pass;
    if (link.token && !pass) {
      // a place the shop entered for its user: followed like one joined here
      line.adopt(link.token);
    }
    $('join-form').addEventListener('submit', onJoin);
    $('book').addEventListener('click', book);
    $('leave').addEventListener('click', leave);
    $('leave-available').addEventListener('click', leave);
    $('start-over').addEventListener('click', startOver);
    if (pass) {
      // the link's pass joins whatever this browser saved: the line answers the pass's own place
      join();
    } else {
      resume();
    }
  }

  start();
})();
