// Progressive enhancement of the server-rendered pages; everything works without it.
// Served as a file: the Content-Security-Policy forbids inline script.
'use strict';
(function () {
  var main = document.getElementById('main');
  if (!main) return;

  // The start page: poll the session's status until it runs, then open it in this tab.
  var kasmId = main.getAttribute('data-kasm-id');
  if (kasmId) {
    var text = document.getElementById('status-text');
    var phase = document.getElementById('launch-phase');
    var headline = document.getElementById('launch-status');
    var bar = document.getElementById('launch-progress');
    var message = document.getElementById('launch-message');
    var openForm = document.getElementById('open-form');
    var openButton = document.getElementById('open-button');
    var poll = function () {
      fetch('/sessions/' + kasmId + '/status', { headers: { accept: 'application/json' } })
        .then(function (res) {
          return res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status));
        })
        .then(function (s) {
          text.textContent = s.status;
          phase.textContent = s.phase || '';
          bar.value = s.progress;
          bar.textContent = s.progress + '%';
          message.textContent = s.message || '';
          if (s.status === 'running') {
            headline.firstChild.textContent = 'Ready: ';
            openButton.disabled = false;
            openForm.submit();
          } else if (s.status === 'error' || s.status === 'destroyed') {
            headline.firstChild.textContent = 'The launch failed: ';
          } else {
            setTimeout(poll, 1000);
          }
        })
        .catch(function () {
          setTimeout(poll, 3000);
        });
    };
    if (openButton.disabled) poll();
    return;
  }

  // The workspace list: filter as the user types.
  var search = document.getElementById('q');
  var cards = document.querySelectorAll('#workspaces > li');
  var noMatch = document.getElementById('no-match');
  if (search) {
    search.addEventListener('input', function () {
      var q = search.value.trim().toLowerCase();
      var shown = 0;
      cards.forEach(function (card) {
        var match = card.getAttribute('data-search').indexOf(q) !== -1;
        card.hidden = !match;
        if (match) shown += 1;
      });
      if (noMatch) noMatch.hidden = shown > 0;
    });
  }

  // The sessions list: refreshed while the page is visible (a launch runs in another tab).
  var sessions = document.getElementById('sessions');
  if (!sessions) return;
  var refresh = function () {
    if (document.hidden) return;
    fetch('/sessions', { headers: { accept: 'text/html' } })
      .then(function (res) {
        return res.ok ? res.text() : null;
      })
      .then(function (markup) {
        // Same-origin, server-escaped markup; replaced only when it changed, so focus stays put.
        if (markup !== null && markup !== sessions.getAttribute('data-markup')) {
          var focused = document.activeElement && sessions.contains(document.activeElement);
          if (!focused) {
            sessions.innerHTML = markup;
            sessions.setAttribute('data-markup', markup);
          }
        }
      })
      .catch(function () {});
  };
  setInterval(refresh, 3000);
  document.addEventListener('visibilitychange', refresh);
})();
