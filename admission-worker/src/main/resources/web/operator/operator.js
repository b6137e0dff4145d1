/*
 * The operator view: nothing about any queue is fetched until an admin token is given; then every queue is
 * listed and refreshed every 2 seconds, its settings can be changed, and one queue's waiting and active counts
 * are drawn over the last minutes. The token stays in this tab (sessionStorage) and goes only to this origin.
 */
(function () {
  'use strict';

  var REFRESH_MS = 2000;
  var HISTORY_MS = 5 * 60 * 1000;
  var TOKEN_KEY = 'queuegate:admin-token';

  var token = null;
  var timer = null;
  var rows = new Map();        // productId → {row, cells, toggle}
  var queues = new Map();      // productId → the last answer
  var history = new Map();     // productId → [{at, waiting, active}]
  var previous = new Map();    // productId → {at, admittedTotal}, for the admission rate
  var charted = null;

  function $(id) {
    return document.getElementById(id);
  }

  function say(text) {
    $('notice').textContent = text || '';
    $('notice').hidden = !text;
  }

  function tokenStore() {
    try {
      return window.sessionStorage;
    } catch (e) {
      return null;
    }
  }

  async function api(method, path, body) {
    var response = await fetch(path, {
      method: method,
      headers: Object.assign({ Authorization: 'Bearer ' + token },
          body === undefined ? {} : { 'Content-Type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store'
    });
    if (response.status === 401) {
      signOut('The admin token was refused. Please enter it again.');
      throw new Error('unauthorized');
    }
    var json = null;
    try {
      json = await response.json();
    } catch (e) {
      // an empty or non-JSON answer; the status says enough
    }
    if (!response.ok) {
      throw new Error((json && json.detail) || 'HTTP ' + response.status);
    }
    return json;
  }

  // --- signing in and out ------------------------------------------------------------------------------

  function signIn(event) {
    event.preventDefault();
    var value = $('admin-token').value.trim();
    if (!value) {
      say('Please enter the admin token.');
      $('admin-token').focus();
      return;
    }
    token = value;
    $('sign-in').disabled = true;
    refresh(true);
  }

  function signOut(message) {
    token = null;
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    var store = tokenStore();
    if (store) store.removeItem(TOKEN_KEY);
    rows.forEach(function (entry) { entry.row.remove(); });
    rows.clear();
    queues.clear();
    history.clear();
    previous.clear();
    charted = null;
    $('queues-view').hidden = true;
    $('sign-out').hidden = true;
    $('sign-in-view').hidden = false;
    $('sign-in').disabled = false;
    $('admin-token').value = '';
    say(message || '');
    $('admin-token').focus();
  }

  // --- the list ----------------------------------------------------------------------------------------

  async function refresh(first) {
    timer = null;
    if (!token) return;
    var list;
    try {
      list = await api('GET', '/api/v1/queues');
    } catch (e) {
      if (!token) return;
      say('The queues could not be read (' + e.message + '). Trying again in 2 seconds.');
      timer = setTimeout(refresh, REFRESH_MS);
      return;
    }
    if (first) {
      var store = tokenStore();
      if (store) store.setItem(TOKEN_KEY, token);
      $('sign-in-view').hidden = true;
      $('queues-view').hidden = false;
      $('sign-out').hidden = false;
      $('sign-in').disabled = false;
      say('');
      $('queues-heading').focus();
    } else if ($('notice').textContent.indexOf('could not be read') >= 0) {
      say('');
    }
    show(list.queues, Date.now());
    timer = setTimeout(refresh, REFRESH_MS);
  }

  function show(list, now) {
    var seen = new Set();
    list.forEach(function (queue) {
      var id = String(queue.productId);
      seen.add(id);
      queues.set(id, queue);
      record(id, queue, now);
      update(rowFor(id), queue, rate(id, queue, now));
    });
    rows.forEach(function (entry, id) {
      if (!seen.has(id)) {
        entry.row.remove();
        rows.delete(id);
        queues.delete(id);
        history.delete(id);
      }
    });
    $('no-queues').hidden = list.length > 0;
    if ((charted === null || !queues.has(charted)) && list.length > 0) {
      select(String(list[0].productId));
    }
    draw();
    $('updated').textContent = new Date(now).toLocaleTimeString();
  }

  function record(id, queue, now) {
    var samples = history.get(id) || [];
    samples.push({ at: now, waiting: queue.waiting, active: queue.active });
    while (samples.length > 0 && samples[0].at < now - HISTORY_MS) samples.shift();
    history.set(id, samples);
  }

  function rate(id, queue, now) {
    var before = previous.get(id);
    previous.set(id, { at: now, admittedTotal: queue.admittedTotal });
    if (!before || now <= before.at) return null;
    return Math.max(0, queue.admittedTotal - before.admittedTotal) * 1000 / (now - before.at);
  }

  function rowFor(id) {
    var entry = rows.get(id);
    if (entry) return entry;
    var row = document.createElement('tr');
    row.dataset.product = id;
    var cells = {};
    ['product', 'state', 'identity', 'waiting', 'active', 'rate', 'maxActive', 'admitPerSecond', 'ttl', 'held', 'revoked']
        .forEach(function (name) {
      var cell = document.createElement(name === 'product' ? 'th' : 'td');
      if (name === 'product') cell.scope = 'row';
      if (['product', 'state', 'identity'].indexOf(name) < 0) cell.className = 'num';
      cell.dataset.field = name;
      row.appendChild(cell);
      cells[name] = cell;
    });
    var actions = document.createElement('td');
    var edit = button('Edit', 'Edit the settings of product ' + id, function () { editSettings(id); });
    var toggle = button('', '', function () { toggleOpen(id); });
    var chart = button('Chart', 'Chart product ' + id, function () { select(id); draw(); });
    actions.append(edit, toggle, chart);
    row.appendChild(actions);
    $('queues').tBodies[0].appendChild(row);
    entry = { row: row, cells: cells, toggle: toggle };
    rows.set(id, entry);
    return entry;
  }

  function button(text, label, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'secondary';
    b.textContent = text;
    if (label) b.setAttribute('aria-label', label);
    b.addEventListener('click', onClick);
    return b;
  }

  function update(entry, queue, perSecond) {
    var c = entry.cells;
    c.product.textContent = String(queue.productId);
    c.state.textContent = queue.deletedAt ? 'deleting' : queue.open ? 'open' : 'closed';
    c.state.className = queue.open ? 'open' : 'closed';
    // the admission step holds while the audit trail waits for Kafka: the line waits, and the operator should know why
    if (queue.admissionHold === 'audit_backlog') {
      c.state.textContent += ', held: audit backlog';
      c.state.title = (queue.auditBacklog || 0).toLocaleString() + ' audit changes wait for Kafka; '
          + 'nobody is admitted until the relay catches up';
    } else {
      c.state.removeAttribute('title');
    }
    c.identity.textContent = queue.identity || 'visitor';
    c.waiting.textContent = queue.waiting.toLocaleString();
    c.active.textContent = queue.active.toLocaleString();
    if (perSecond !== null) c.rate.textContent = perSecond.toFixed(1);
    else if (!c.rate.textContent) c.rate.textContent = '–';
    c.maxActive.textContent = queue.maxActive.toLocaleString();
    c.admitPerSecond.textContent = queue.admitPerSecond.toLocaleString();
    c.ttl.textContent = queue.entryTtlSeconds + ' s';
    c.held.textContent = queue.held.toLocaleString();
    c.revoked.textContent = queue.revokedTotal.toLocaleString();
    entry.toggle.textContent = queue.open ? 'Close' : 'Open';
    entry.toggle.setAttribute('aria-label', (queue.open ? 'Close' : 'Open') + ' the queue of product ' + queue.productId);
  }

  // --- changes -----------------------------------------------------------------------------------------

  // A change names every setting: one left out is turned off, so those this view does not edit are sent as they are
  // (the webhook's secret, never answered, is kept by the server when the URL comes without it).
  var KEPT_SETTINGS = ['maxPollsPerSecond', 'abandonAfterSeconds', 'opensAt', 'challengeMaxNumber', 'inviteOnly',
    'passKeys', 'passJwksUri', 'webhookUrl', 'identity'];

  function settingsOf(queue) {
    var settings = { maxActive: queue.maxActive, admitPerSecond: queue.admitPerSecond,
      entryTtlSeconds: queue.entryTtlSeconds, open: queue.open };
    KEPT_SETTINGS.forEach(function (name) {
      if (queue[name] !== null && queue[name] !== undefined) settings[name] = queue[name];
    });
    return settings;
  }

  async function put(id, settings, done) {
    try {
      await api('PUT', '/api/v1/queues/' + encodeURIComponent(id), settings);
      say(done);
      if (timer) clearTimeout(timer);
      refresh();
    } catch (e) {
      if (token) say('The change was not saved: ' + e.message);
    }
  }

  function toggleOpen(id) {
    var queue = queues.get(id);
    if (!queue) return;
    var settings = settingsOf(queue);
    settings.open = !queue.open;
    put(id, settings, 'Product ' + id + ' is now ' + (settings.open ? 'open.' : 'closed: nobody new can join.'));
  }

  function editSettings(id) {
    var queue = queues.get(id);
    if (!queue) return;
    $('s-product').value = id;
    $('s-max-active').value = queue.maxActive;
    $('s-admit').value = queue.admitPerSecond;
    $('s-ttl').value = queue.entryTtlSeconds;
    $('s-open').checked = queue.open;
    $('s-identity').value = queue.identity || 'visitor';
    $('s-max-active').focus();
  }

  function saveSettings(event) {
    event.preventDefault();
    var id = $('s-product').value.trim();
    var numbers = [$('s-max-active').value, $('s-admit').value, $('s-ttl').value].map(Number);
    if (!/^[1-9][0-9]{0,18}$/.test(id) || numbers.some(function (n) { return !Number.isInteger(n) || n < 1; })) {
      say('Product ID and every number must be whole numbers of at least 1.');
      return;
    }
    var known = queues.get(id);
    var settings = known ? settingsOf(known) : {};
    settings.maxActive = numbers[0];
    settings.admitPerSecond = numbers[1];
    settings.entryTtlSeconds = numbers[2];
    settings.open = $('s-open').checked;
    settings.identity = $('s-identity').value;
    // the older inviteOnly names identity "pass"; the identity chosen here says it now
    delete settings.inviteOnly;
    put(id, settings, 'Settings of product ' + id + ' saved.');
  }

  // --- the chart ---------------------------------------------------------------------------------------

  function select(id) {
    charted = id;
    rows.forEach(function (entry, rowId) { entry.row.classList.toggle('selected', rowId === id); });
    $('chart-heading').textContent = 'Product ' + id + ': waiting and active, the last minutes';
  }

  function draw() {
    var canvas = $('chart');
    var samples = charted === null ? [] : (history.get(charted) || []);
    var width = canvas.clientWidth || 640;
    var height = canvas.clientHeight || 260;
    var scale = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * scale)) canvas.width = Math.round(width * scale);
    if (canvas.height !== Math.round(height * scale)) canvas.height = Math.round(height * scale);
    var g = canvas.getContext('2d');
    g.setTransform(scale, 0, 0, scale, 0, 0);
    g.clearRect(0, 0, width, height);
    var left = 56, right = 8, top = 10, bottom = 24;
    var plotW = width - left - right, plotH = height - top - bottom;
    var now = Date.now();
    // the time axis spans what has been seen, from one minute up to the five kept, so a page opened a moment
    // ago still shows a readable line
    var span = samples.length > 0 ? now - samples[0].at : 0;
    var shownMs = Math.min(HISTORY_MS, Math.max(60000, Math.ceil(span / 60000) * 60000));
    // at least 4, so that each of the four grid lines stands for a whole number
    var max = 4;
    samples.forEach(function (s) { max = Math.max(max, s.waiting, s.active); });
    max = niceCeiling(max);

    g.font = '12px system-ui, sans-serif';
    g.fillStyle = '#57606a';
    g.strokeStyle = '#d0d7de';
    g.lineWidth = 1;
    for (var i = 0; i <= 4; i++) {
      var y = top + plotH - plotH * i / 4;
      g.beginPath();
      g.moveTo(left, y);
      g.lineTo(left + plotW, y);
      g.stroke();
      g.textAlign = 'right';
      g.textBaseline = 'middle';
      g.fillText(Math.round(max * i / 4).toLocaleString(), left - 6, y);
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    var step = shownMs <= 60000 ? 15000 : 60000;
    for (var t = shownMs; t >= 0; t -= step) {
      var x = left + plotW - plotW * t / shownMs;
      var label = t === 0 ? 'now' : step < 60000 ? '-' + t / 1000 + ' s' : '-' + t / 60000 + ' min';
      g.fillText(label, Math.min(Math.max(x, left + 16), left + plotW - 12), top + plotH + 6);
    }
    function series(field, color) {
      g.strokeStyle = color;
      g.lineWidth = 2;
      g.beginPath();
      samples.forEach(function (s, index) {
        var x = left + plotW - plotW * (now - s.at) / shownMs;
        var y = top + plotH - plotH * s[field] / max;
        if (index === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      g.stroke();
    }
    series('waiting', '#0b5cad');
    series('active', '#c2410c');

    var last = samples[samples.length - 1];
    canvas.dataset.samples = String(samples.length);
    canvas.setAttribute('aria-label', last
        ? 'Product ' + charted + ': ' + last.waiting + ' waiting and ' + last.active + ' active now, '
          + samples.length + ' samples over the last ' + Math.round((now - samples[0].at) / 1000) + ' seconds'
        : 'No data yet');
  }

  function niceCeiling(n) {
    var power = Math.pow(10, Math.floor(Math.log10(n)));
    var steps = [1, 2, 4, 5, 10];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * power >= n) return steps[i] * power;
    }
    return 10 * power;
  }

  // --- start -------------------------------------------------------------------------------------------

  function start() {
    $('sign-in-form').addEventListener('submit', signIn);
    $('sign-out').addEventListener('click', function () { signOut('Signed out.'); });
    $('settings-form').addEventListener('submit', saveSettings);
    window.addEventListener('resize', draw);
    var store = tokenStore();
    var kept = store ? store.getItem(TOKEN_KEY) : null;
    if (kept) {
      token = kept;
      refresh(true);
    } else {
      $('sign-in-view').hidden = false;
      $('admin-token').focus();
    }
  }

  start();
})();
