// noVNC builds the stream's address from the host's root; behind the platform's proxy this page is
// at /kasm/<kasm_id>/, so the stream's path is taken relative to the page (KasmVNC's way). The
// address gains noVNC's settings in place, before its module reads them: no second page load.
{
  const folder = location.pathname.replace(/[^/]*$/, '');
  const query = new URLSearchParams(location.search);
  const defaults = {
    autoconnect: 'true',
    reconnect: 'true',
    resize: 'remote',
    path: `${folder.slice(1)}websockify`,
  };
  for (const [name, value] of Object.entries(defaults))
    if (!query.has(name)) query.set(name, value);
  history.replaceState(null, '', `?${query}${location.hash}`);
}
