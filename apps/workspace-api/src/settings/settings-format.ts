import { TARGET_NOUNS } from '../file-mappings';
import type { FieldChange, SettingsChange } from './settings-changes';

const MARK = { create: '+', update: '~', delete: '-' } as const;

const bytes = (text: string) => `${Buffer.byteLength(text, 'utf8')} bytes`;
const show = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : String(value);

/** Content is shown by size: a 5 MiB script does not belong in a diff line. */
function showField({ field, from, to }: FieldChange): string {
  if (field === 'content') {
    return `content ${bytes(String(from))} → ${bytes(String(to))}`;
  }
  return `${field} ${show(from)} → ${show(to)}`;
}

function label(change: SettingsChange): string {
  switch (change.entity) {
    case 'zone':
      return `zone "${change.key}"`;
    case 'agent':
      return `agent "${change.key}"`;
    case 'workspace':
      return `workspace "${change.key}"`;
    case 'group':
      return `group "${change.key}"`;
    case 'file_mapping':
      return `file mapping ${change.key} of ${TARGET_NOUNS[change.target.type]} "${change.target.name}"`;
    case 'staging':
      return `staging of workspace "${change.target.name}" in zone "${change.key}"`;
    case 'sso_provider':
      return `sso provider "${change.key}"`;
  }
}

function summary(change: SettingsChange): string {
  if (change.action === 'update') return change.fields.map(showField).join(', ');
  switch (change.entity) {
    case 'zone': {
      const { proxyHostname, proxyPort, proxyPath } = change.values;
      return `https://${proxyHostname}${proxyPort === 0 ? '' : `:${proxyPort}`}${proxyPath}`;
    }
    case 'agent':
      return `zone ${show(change.values.zone)}, ${change.values.cores} cores, ${change.values.memory} bytes`;
    case 'file_mapping':
      return `${show(change.values.name)}, ${bytes(change.values.content)}${change.values.executable ? ', executable' : ''}`;
    case 'staging':
      return `${change.values.numSessions} sessions, expiring after ${change.values.expirationHours} hours`;
    case 'sso_provider':
      return `${change.values.kind}, ${change.values.mappings.length} group mapping(s)${change.values.enabled ? '' : ', disabled'}`;
    default:
      return '';
  }
}

/** One line per change: `+ zone "eu" (https://eu.example.com/)`, `~ agent "a1": cores_override 0 → 8`. */
export function formatChange(change: SettingsChange): string {
  const head = `${MARK[change.action]} ${label(change)}`;
  const detail = summary(change);
  if (!detail) return head;
  return change.action === 'update' ? `${head}: ${detail}` : `${head} (${detail})`;
}

/** `2 to create, 1 to update, 0 to delete`, or in the past tense once written. */
export function countChanges(changes: readonly SettingsChange[], done = false): string {
  const count = (action: SettingsChange['action']) =>
    changes.filter((c) => c.action === action).length;
  const words = done ? ['created', 'updated', 'deleted'] : ['to create', 'to update', 'to delete'];
  return `${count('create')} ${words[0]}, ${count('update')} ${words[1]}, ${count('delete')} ${words[2]}`;
}
