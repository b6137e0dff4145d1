/*
 * altcha-worker.js: solves a proof-of-work challenge off the page's thread, as ALTCHA's widget does: finds the
 * number n in 0..maxnumber for which SHA-256(salt + n), in hex, is the challenge. Posts {progress: n} now and then,
 * then {number, took} (or {number: null} when no number up to maxnumber matches).
 */
'use strict';

function hex(buffer) {
  var bytes = new Uint8Array(buffer);
  var out = '';
  for (var i = 0; i < bytes.length; i++) {
    out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  }
  return out;
}

self.onmessage = async function (event) {
  var task = event.data;
  var encoder = new TextEncoder();
  var started = Date.now();
  for (var n = 0; n <= task.maxnumber; n++) {
    var digest = await crypto.subtle.digest('SHA-256', encoder.encode(task.salt + n));
    if (hex(digest) === task.challenge) {
      self.postMessage({ number: n, took: Date.now() - started });
      return;
    }
    if (n % 2000 === 0) {
      self.postMessage({ progress: n });
    }
  }
  self.postMessage({ number: null, took: Date.now() - started });
};
