// The panel's Sharing section (the owner's; a joiner's page gets 403 and shows nothing): make a
// link (view or control, an hour, one use or not), see and revoke the links, see who watches
// or drives, give or take control, remove anyone. Refreshed every few seconds while open.
const EVERY_MS = 3000;

export function mountSharing(box, { base, el }) {
  const role = el('select', { id: 'share-role' });
  role.append(el('option', { value: 'view' }, 'View only'), el('option', { value: 'control' }, 'Control'));
  const oneUse = el('input', { type: 'checkbox', id: 'share-one-use' });
  const make = el('button', { type: 'button' }, 'Make a link');
  const made = el('input', { type: 'text', readonly: '', id: 'share-link', 'aria-label': 'The new link' });
  const note = el('p', { class: 'hint', 'aria-live': 'polite' });
  const links = el('ul', { class: 'shares', 'aria-label': 'Links' });
  const people = el('ul', { class: 'participants', 'aria-label': 'Watching' });
  const send = (path, body = {}) =>
    fetch(`${base}/_session/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => null);

  async function refresh() {
    const [s, p] = await Promise.all(
      ['shares', 'participants'].map((what) =>
        fetch(`${base}/_session/${what}`, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : null), () => null),
      ),
    );
    if (!s || !p) return;
    links.replaceChildren(
      ...s.shares.map((share) => {
        const revoke = el('button', { type: 'button', class: 'secondary' }, 'Revoke');
        revoke.addEventListener('click', async () => {
          await send(`shares/${share.share_id}/revoke`);
          await refresh();
        });
        const ends = new Date(share.expiration_date).toLocaleTimeString();
        return el('li', {}, `${share.role}, until ${ends}${share.one_use ? ', one use' : ''} `, revoke);
      }),
    );
    people.replaceChildren(
      ...p.participants.map((who) => {
        const items = [`${who.username} (${who.role === 'watch' ? 'administrator, watching' : who.role}) `];
        if (who.role === 'view' || who.role === 'control') {
          const next = who.role === 'view' ? 'control' : 'view';
          const flip = el('button', { type: 'button' }, next === 'control' ? 'Give control' : 'Take control');
          flip.addEventListener('click', async () => {
            await send(`participants/${who.participant_id}/role`, { role: next });
            await refresh();
          });
          items.push(flip);
        }
        const remove = el('button', { type: 'button', class: 'danger' }, 'Remove');
        remove.addEventListener('click', async () => {
          await send(`participants/${who.participant_id}/remove`);
          await refresh();
        });
        return el('li', {}, ...items, remove);
      }),
    );
    if (p.participants.length === 0) people.append(el('li', {}, 'Nobody else.'));
  }

  make.addEventListener('click', async () => {
    const res = await send('shares', { role: role.value, one_use: oneUse.checked });
    const answer = res ? await res.json().catch(() => ({})) : {};
    if (res?.ok) {
      made.value = answer.url;
      note.textContent = 'Copy the link now: it is not shown again.';
      await refresh();
    } else note.textContent = answer.detail || 'No link was made: try again.';
  });

  box.append(
    el('label', { for: 'share-role' }, 'Role'),
    el('div', { class: 'row' }, role, el('label', {}, oneUse, ' One use'), make),
    made,
    note,
    el('h3', {}, 'Links'),
    links,
    el('h3', {}, 'Watching'),
    people,
  );
  void refresh();
  setInterval(() => {
    if (!box.closest('[hidden]')) void refresh();
  }, EVERY_MS);
}
