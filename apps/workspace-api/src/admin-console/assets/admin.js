// Niceties of the console's server-rendered pages; every form works without this file.
// Served as a file: the Content-Security-Policy forbids inline script.
'use strict';
(function () {
  // Forms that destroy or revoke ask first.
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  });

  // The password rules, checked as the administrator types, by the server's own rules.
  var input = document.querySelector('input[data-password-rules]');
  if (!input) return;
  var list = document.getElementById(input.getAttribute('data-password-rules'));
  var token = input.form.querySelector('input[name="_csrf"]').value;
  var pending = 0;
  var check = function () {
    var asked = ++pending;
    fetch('/admin/users/password-rules', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ password: input.value }),
    })
      .then(function (res) {
        return res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status));
      })
      .then(function (result) {
        if (asked !== pending) return;
        list.querySelectorAll('li[data-rule]').forEach(function (li) {
          var unmet = result.unmet.indexOf(li.getAttribute('data-rule')) >= 0;
          li.className = input.value === '' ? '' : unmet ? 'unmet' : 'met';
        });
      })
      .catch(function () {
        // The server checks again when the form is sent.
      });
  };
  input.addEventListener('input', check);
})();

// A workspace's persistent profile path, checked as the administrator types by the server's rules.
(function () {
  var input = document.querySelector('input[data-profile-check]');
  if (!input) return;
  var list = document.getElementById(input.getAttribute('data-profile-check'));
  var token = input.form.querySelector('input[name="_csrf"]').value;
  var pending = 0;
  var show = function (problems) {
    list.textContent = '';
    problems.forEach(function (problem) {
      var li = document.createElement('li');
      li.className = 'unmet';
      li.textContent = problem;
      list.appendChild(li);
    });
    if (problems.length === 0 && input.value.trim() !== '') {
      var ok = document.createElement('li');
      ok.className = 'met';
      ok.textContent = 'This path is valid.';
      list.appendChild(ok);
    }
    input.setAttribute('aria-invalid', problems.length > 0 ? 'true' : 'false');
  };
  var check = function () {
    var asked = ++pending;
    fetch('/admin/workspaces/profile-path-check', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ path: input.value }),
    })
      .then(function (res) {
        return res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status));
      })
      .then(function (result) {
        if (asked === pending) show(result.problems);
      })
      .catch(function () {
        // The server checks again when the form is sent.
      });
  };
  input.addEventListener('input', check);
})();
