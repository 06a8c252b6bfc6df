import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import type { RecordingRow } from '../../session-recording';
import type { AdminPerson } from '../admin-context';
import { adminPage, dataTable, field } from '../admin-layout';

interface Filters {
  username?: string;
  workspace?: string;
  since?: string;
  until?: string;
}

const duration = (row: RecordingRow) => {
  if (!row.endedAt) return 'under way';
  const seconds = Math.round((row.endedAt.getTime() - row.startedAt.getTime()) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

const size = (bytes: bigint) => {
  const n = Number(bytes);
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
};

function filterForm(filters: Filters, names: string[]): Html {
  return html`<form method="get" action="/admin/recordings" role="search">
    <div class="form-grid">
      ${field('username', 'User', filters.username, { maxlength: 255 })}
      <div class="field">
        <label for="f-workspace">Workspace</label>
        <select id="f-workspace" name="workspace">
          <option value="">any</option>
          ${names.map(
            (n) =>
              html`<option value="${n}" ${n === filters.workspace ? html`selected` : null}>
                ${n}
              </option>`,
          )}
        </select>
      </div>
      ${field('since', 'From (day)', filters.since, { type: 'date' })}
      ${field('until', 'To (day)', filters.until, { type: 'date' })}
    </div>
    <button type="submit">Filter</button>
  </form>`;
}

export function recordingsPage(
  person: AdminPerson,
  filters: Filters,
  listed: { rows: RecordingRow[]; total: number },
  names: string[],
): Html {
  const table =
    listed.rows.length === 0
      ? html`<p>No recordings match.</p>`
      : dataTable(
          'Recordings',
          ['Started', 'User', 'Workspace', 'Length', 'Size', 'Status', 'Keys', 'Actions'],
          listed.rows.map((row) => {
            const id = toWireId(row.id);
            return html`<tr>
              <td>${row.startedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</td>
              <td>${row.username}</td>
              <td>${row.imageName}</td>
              <td>${duration(row)}</td>
              <td>${size(row.bytes)}</td>
              <td>${row.status}</td>
              <td>${row.keystrokes ? 'recorded' : 'not recorded'}</td>
              <td>
                <div class="actions">
                  <a
                    href="/admin/recordings/${id}"
                    aria-label="Play the recording of ${row.username} started ${row.startedAt.toISOString()}"
                    >Play</a
                  >
                  <a href="/admin/recordings/${id}/download">Download</a>
                </div>
              </td>
            </tr>`;
          }),
        );
  return adminPage(person, {
    title: 'Recordings',
    section: 'recordings',
    body: html`${filterForm(filters, names)}
      <p class="muted">${listed.total} recording${listed.total === 1 ? '' : 's'}.</p>
      ${table}`,
  });
}

export interface VerifiedView {
  ok: boolean;
  reason: string | null;
  duration_ms: number | null;
}

export function playerPage(person: AdminPerson, row: RecordingRow, verified: VerifiedView): Html {
  const id = toWireId(row.id);
  return adminPage(person, {
    title: `Recording of ${row.username}, ${row.imageName}`,
    section: 'recordings',
    body: html`<p class="muted">
        Started ${row.startedAt.toISOString()} · ${duration(row)} · ${row.status} ·
        ${verified.ok ? 'its digest chain verifies' : html`<strong>does not verify: ${verified.reason}</strong>`}
      </p>
      <p class="muted">Digest (the chain's last link): <code>${row.digest ?? 'none'}</code></p>
      <div id="recording-player" data-src="/admin/recordings/${id}/file">
        <div class="recording-controls">
          <button type="button" data-action="play">Play</button>
          <label
            >Speed
            <select data-action="speed">
              ${['0.5', '1', '2', '4', '8'].map((s) => html`<option value="${s}" ${s === '1' ? html`selected` : null}>${s}×</option>`)}
            </select>
          </label>
          <label
            >Position
            <input
              type="range"
              data-action="seek"
              min="0"
              max="${verified.duration_ms ?? 0}"
              step="100"
              value="0"
            />
          </label>
          <output data-role="time">0:00</output>
        </div>
        <div class="recording-screen" data-role="screen"></div>
      </div>
      <p>
        <a href="/admin/recordings/${id}/download">Download</a> (its SHA-256 is sent as repr-digest)
      </p>
      <script type="module" src="/admin/assets/recording-player.js"></script>`,
  });
}
