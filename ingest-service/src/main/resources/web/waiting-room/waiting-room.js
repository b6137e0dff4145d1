/*
 * The waiting page: join, watch the place move, book when admitted. Everything it knows about the line comes
 * through queuegate.js, the same client a shop would use; this file only decides what to show and say.
 */
(function () {
  'use strict';

  var VIEWS = ['join-view', 'waiting-view', 'available-view', 'done-view'];
  var USER_ID = /^[A-Za-z0-9._@:-]{1,64}$/;

  var line = null;
  var stopWatching = null;
  var countdownTimer = null;
  var expiresAtHere = null;

  function $(id) {
    return document.getElementById(id);
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
    return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
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

  function showJoin() {
    stopAll();
    show('join-view');
    var button = $('join');
    button.disabled = false;
    button.textContent = 'Join';
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
      $('booking-time').textContent = new Date(booking.bookedAt).toLocaleString();
    }
    announce(heading + '. ' + text);
    $('done-heading').focus();
  }

  function showBooked(booking) {
    showDone('Booked!', 'Your booking is confirmed. Keep the booking reference below.', booking);
  }

  function showSoldOut() {
    showDone('Sold out', 'Every ticket was taken before you could book. Nothing was booked or charged.');
  }

  function showWaiting() {
    if ($('waiting-view').hidden) {
      show('waiting-view');
    }
  }

  function positionText(position) {
    if (position === null || position === undefined) {
      // before the sale opens nobody has a number: the order is drawn at the opening
      return 'You are in line. Your number is drawn when the sale opens.';
    }
    var ahead = position - 1;
    var people = ahead === 0 ? 'Nobody is ahead of you.'
        : ahead === 1 ? '1 person is ahead of you.' : ahead + ' people are ahead of you.';
    return 'You are number ' + position + ' in line. ' + people;
  }

  function minutesText(seconds) {
    var minutes = Math.max(1, Math.round(seconds / 60));
    return minutes + (minutes === 1 ? ' minute' : ' minutes');
  }

  // Before the line's pace is measured the server gives a range (etaSeconds to etaMaxSeconds): said as a range, never
  // as one confident figure.
  function etaText(etaSeconds, etaMaxSeconds) {
    if (typeof etaSeconds !== 'number') {
      return '';
    }
    if (typeof etaMaxSeconds === 'number' && etaMaxSeconds > etaSeconds) {
      if (etaMaxSeconds < 60) {
        return 'Your turn should come in less than a minute.';
      }
      if (etaSeconds < 60) {
        return 'Your turn should come within ' + minutesText(etaMaxSeconds)
            + '; the line is just starting, so this will get more precise.';
      }
      return 'Your turn should come in ' + minutesText(etaSeconds) + ' to ' + minutesText(etaMaxSeconds)
          + '; the line is just starting, so this will get more precise.';
    }
    if (etaSeconds < 60) {
      return 'Your turn should come in less than a minute.';
    }
    return 'Your turn should come in about ' + minutesText(etaSeconds) + '.';
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
    expiresAtHere = status.expiresAt - (status.clockOffsetMs || 0);
    if ($('available-view').hidden) {
      show('available-view');
      $('book').disabled = false;
      $('book').textContent = 'Book';
      announce("It's your turn. You can book now.");
      $('book').focus();
    }
    tick();
    if (!countdownTimer) {
      countdownTimer = setInterval(tick, 1000);
    }
  }

  function tick() {
    var left = expiresAtHere - Date.now();
    if (left <= 0) {
      $('countdown').textContent = '0:00';
      showDone('Your time to book ran out', 'Your turn was held for a while and has now passed to the next '
          + 'people in line.');
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
    $('other-status').textContent = 'Your place is kept. The waiting room says: '
        + String(status.status).toLowerCase().replace(/_/g, ' ') + '.';
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
        showDone('Your place has gone', 'It expired, was used for a booking, was given up, or was released '
            + 'because this page stopped checking in for too long. '
            + 'A place is for one sale only, so joining again with the same user ID shows this again.');
        break;
      case 'SOLD_OUT':
        // the line's own sold out: the place is kept and polling goes on, slower; tickets may come back
        showWaiting();
        $('pending').hidden = true;
        $('place').hidden = true;
        $('other-status').hidden = false;
        $('other-status').textContent = 'Sold out for now: every ticket is taken. You keep your place, and if '
            + 'tickets come back (a booking cancelled or not paid), the line moves again and this page shows it.';
        if ($('announcer').textContent !== $('other-status').textContent) {
          announce($('other-status').textContent);
        }
        break;
      default:
        showOther(status);
    }
    if (status.opensAt && status.status !== 'AVAILABLE') {
      $('other-status').hidden = false;
      $('other-status').textContent = 'The sale opens at ' + clock(new Date(status.opensAt)) + '. Your place is kept.';
    }
  }

  function onProblem(refusal, waitMs) {
    if (refusal.status === 400) {
      line.forget();
      showJoin();
      say('This waiting room no longer recognises the place saved in this browser. Please join again.');
      return;
    }
    var next = ' Checking again in ' + seconds(waitMs) + ' s.';
    if (refusal.status === 503) {
      say('The waiting room is very busy right now (it answered 503). You keep your place.' + next);
    } else if (refusal.status === 429) {
      say('Slow down: we are checking a little less often. You keep your place.' + next);
    } else if (refusal.status === 0) {
      say('We cannot reach the waiting room. Check your connection; you keep your place.' + next);
    } else {
      say('Something went wrong while checking your place (HTTP ' + refusal.status + '). You keep your place.'
          + next);
    }
  }

  function watch() {
    stopAll();
    stopWatching = line.watch(onStatus, onProblem);
  }

  function joinProblem(refusal) {
    switch (refusal.code) {
      case 'queue_closed':
        return 'This waiting room is closed right now. Please try again later.';
      case 'queue_not_found':
        return 'There is no waiting room for this product.';
      case 'proof_invalid':
      case 'proof_required':
        return 'Your browser could not be checked. Please try again.';
      case 'invalid_request':
        return 'Please check your user ID: letters, digits and . _ @ : - only, up to 64 characters.';
      default:
        if (refusal.status === 503 || refusal.status === 429) {
          return 'The waiting room is very busy right now. Please try again in '
              + seconds(refusal.retryAfterMs || 1000) + ' s.';
        }
        if (refusal.status === 0) {
          return 'We cannot reach the waiting room. Check your connection and try again.';
        }
        return 'Joining failed (HTTP ' + refusal.status + '). Please try again.';
    }
  }

  async function join(event) {
    event.preventDefault();
    var input = $('user-id');
    var userId = input.value.trim();
    if (!USER_ID.test(userId)) {
      input.setAttribute('aria-invalid', 'true');
      say('Please enter a user ID: letters, digits and . _ @ : - only, up to 64 characters.');
      input.focus();
      return;
    }
    input.removeAttribute('aria-invalid');
    var button = $('join');
    button.disabled = true;
    button.textContent = 'Joining…';
    try {
      await line.join(userId, function (elapsedMs) {
        button.textContent = 'Checking your browser… ' + (elapsedMs / 1000).toFixed(1) + ' s';
      });
      say('');
      show('waiting-view');
      $('pending').hidden = false;
      $('place').hidden = true;
      showProgress(0);
      $('position').textContent = '';
      announce("We've got your place.");
      $('leave').focus();
      watch();
    } catch (refusal) {
      say(joinProblem(refusal));
      button.disabled = false;
      button.textContent = 'Join';
    }
  }

  async function book() {
    var button = $('book');
    button.disabled = true;
    button.textContent = 'Booking…';
    try {
      var booking = await line.book(1);
      showBooked(booking);
    } catch (refusal) {
      if (refusal.code === 'sold_out') {
        line.save({ outcome: 'SOLD_OUT' });
        showSoldOut();
      } else if (refusal.status === 403) {
        showDone('Your turn has ended', 'The booking counter no longer accepts this place: the time to book ran '
            + 'out, or the place was already used. Nothing was booked.');
      } else {
        say(refusal.status === 0 ? 'We cannot reach the booking counter. Nothing was booked; please try again.'
            : refusal.status === 503 ? 'The booking could not be stored, so nothing was taken. Please press Book again.'
            : 'The booking failed (HTTP ' + refusal.status + '). Nothing was booked; please try again.');
        button.disabled = false;
        button.textContent = 'Book';
      }
    }
  }

  async function leave() {
    try {
      await line.leave();
      showJoin();
      say('You left the line and gave up your place.');
      $('user-id').focus();
    } catch (refusal) {
      say('Leaving did not work just now (' + (refusal.status || 'no connection') + '). Please try again.');
    }
  }

  function startOver() {
    line.forget();
    say('');
    showJoin();
    $('user-id').focus();
  }

  /** Where the last visit left off: a booking, a sell-out, a place to keep watching, or nothing yet. */
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
    } else {
      showJoin();
    }
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

  async function start() {
    var match = /^\/queues\/([1-9][0-9]{0,18})\/?$/.exec(location.pathname);
    if (!match) {
      showDone('No waiting room here', 'The address should look like /queues/42.');
      return;
    }
    var productId = match[1];
    $('title').textContent = 'Waiting room for product ' + productId;
    document.title = 'Waiting room · product ' + productId;
    var settings = await pageSettings();
    line = Queuegate.line({ productId: productId, bookingUrl: settings.bookingUrl });
    $('join-form').addEventListener('submit', join);
    $('book').addEventListener('click', book);
    $('leave').addEventListener('click', leave);
    $('leave-available').addEventListener('click', leave);
    $('start-over').addEventListener('click', startOver);
    resume();
  }

  start();
})();
