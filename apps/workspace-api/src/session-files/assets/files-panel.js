// The session page's files panel: drop or pick files to upload into the desktop's ~/Uploads
// (resumable: a cut upload continues from what arrived), and the desktop's ~/Downloads listed
// with a link each. Served as a file (the Content-Security-Policy forbids inline script); the
// session page mounts it: mountFilesPanel(element, { kasmId }). No dependencies.
'use strict';
(function (global) {
  var RETRIES = 5;

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) {
      node.setAttribute(key, attributes[key]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function size(bytes) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var i = 0;
    while (bytes >= 1024 && i < units.length - 1) ((bytes /= 1024), i++);
    return (i ? bytes.toFixed(1) : bytes) + ' ' + units[i];
  }

  function problem(xhrOrRes, fallback) {
    try {
      var body = JSON.parse(xhrOrRes.responseText);
      return body.detail || body.title || fallback;
    } catch (e) {
      return fallback;
    }
  }

  /** PATCHes `file` from `offset`; XMLHttpRequest because fetch reports no upload progress. */
  function send(root, id, file, offset, onProgress) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open('PATCH', root + '/uploads/' + id);
      xhr.setRequestHeader('content-type', 'application/offset+octet-stream');
      xhr.setRequestHeader('upload-offset', String(offset));
      xhr.upload.onprogress = function (event) {
        onProgress(offset + event.loaded);
      };
      xhr.onload = function () {
        if (xhr.status === 200) return resolve(JSON.parse(xhr.responseText));
        var error = new Error(problem(xhr, 'Upload refused (' + xhr.status + ')'));
        error.final = xhr.status < 500;
        reject(error);
      };
      xhr.onerror = function () {
        reject(new Error('The connection was cut'));
      };
      xhr.send(file.slice(offset));
    });
  }

  async function upload(root, file, row) {
    var bar = row.querySelector('progress');
    var note = row.querySelector('.files-note');
    var started = await fetch(root + '/uploads', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: file.name, size: file.size }),
    });
    var text = await started.text();
    if (started.status !== 201) throw new Error(problem({ responseText: text }, 'Upload refused'));
    var id = JSON.parse(text).upload_id;
    var offset = 0;
    for (var attempt = 0; ; attempt++) {
      try {
        var done = await send(root, id, file, offset, function (at) {
          bar.value = at / Math.max(file.size, 1);
        });
        if (done.done) return done.file;
      } catch (error) {
        if (error.final || attempt >= RETRIES) throw error;
        note.textContent = 'Connection lost, resuming…';
        await new Promise(function (r) {
          setTimeout(r, 1000 * (attempt + 1));
        });
      }
      var status = await fetch(root + '/uploads/' + id);
      if (!status.ok) throw new Error('The upload could not be resumed');
      offset = (await status.json()).offset;
    }
  }

  function mountFilesPanel(element, options) {
    var root = '/kasm/' + encodeURIComponent(options.kasmId) + '/_files';
    var panel = el('section', { class: 'files-panel', 'aria-label': 'Files' });
    var drop = el(
      'div',
      { class: 'files-drop', tabindex: '0', role: 'button' },
      'Drop files here or choose them to upload to ~/Uploads',
    );
    var picker = el('input', {
      type: 'file',
      multiple: '',
      class: 'files-picker',
      'aria-label': 'Choose files to upload',
    });
    var uploads = el('ul', { class: 'files-uploads', 'aria-live': 'polite' });
    var heading = el('h2', {}, 'Downloads');
    var refresh = el('button', { type: 'button' }, 'Refresh');
    var downloads = el('ul', { class: 'files-downloads' });
    [drop, picker, uploads, heading, refresh, downloads].forEach(function (n) {
      panel.appendChild(n);
    });
    element.appendChild(panel);

    function start(files) {
      Array.prototype.forEach.call(files, function (file) {
        var row = el('li');
        row.appendChild(el('span', {}, file.name + ' (' + size(file.size) + ') '));
        row.appendChild(
          el('progress', { max: '1', value: '0', 'aria-label': 'Upload of ' + file.name }),
        );
        row.appendChild(el('span', { class: 'files-note' }));
        uploads.appendChild(row);
        upload(root, file, row).then(
          function (done) {
            row.querySelector('.files-note').textContent = ' in ~/Uploads as ' + done.name;
          },
          function (error) {
            row.querySelector('.files-note').textContent = ' ' + error.message;
          },
        );
      });
    }

    async function list() {
      var res = await fetch(root + '/downloads');
      downloads.textContent = '';
      if (!res.ok)
        return void downloads.appendChild(
          el('li', {}, problem({ responseText: await res.text() }, 'Downloads are not available')),
        );
      var files = (await res.json()).files;
      if (files.length === 0) downloads.appendChild(el('li', {}, '~/Downloads is empty'));
      files.forEach(function (file) {
        var item = el('li');
        var link = el(
          'a',
          { href: root + '/downloads/' + encodeURIComponent(file.name), download: file.name },
          file.name,
        );
        item.appendChild(link);
        item.appendChild(el('span', {}, ' ' + size(file.size)));
        downloads.appendChild(item);
      });
    }

    drop.addEventListener('click', function () {
      picker.click();
    });
    drop.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === ' ') (event.preventDefault(), picker.click());
    });
    picker.addEventListener('change', function () {
      start(picker.files);
      picker.value = '';
    });
    ['dragenter', 'dragover'].forEach(function (type) {
      panel.addEventListener(type, function (event) {
        event.preventDefault();
        drop.classList.add('files-drop-over');
      });
    });
    panel.addEventListener('dragleave', function () {
      drop.classList.remove('files-drop-over');
    });
    panel.addEventListener('drop', function (event) {
      event.preventDefault();
      drop.classList.remove('files-drop-over');
      start(event.dataTransfer.files);
    });
    refresh.addEventListener('click', list);
    list();
    return { refresh: list, upload: start };
  }

  global.mountFilesPanel = mountFilesPanel;
})(window);
