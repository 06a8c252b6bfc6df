// noVNC builds the stream's address from the host's root; behind the platform's proxy this page is
// at /kasm/<kasm_id>/, so the stream's path is taken relative to the page (KasmVNC's way).
var folder = location.pathname.replace(/[^/]*$/, '');
var query = new URLSearchParams({
  autoconnect: 'true',
  reconnect: 'true',
  resize: 'remote',
  path: folder.slice(1) + 'websockify',
});
location.replace('vnc.html?' + query.toString());
