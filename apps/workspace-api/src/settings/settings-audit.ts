import { toWireId } from '@platform/schemas';
import type { SettingsChange } from './settings-changes';

/** A settings file's entity as the audit trail's target types name it. */
const TARGET_TYPES = {
  zone: 'zone',
  agent: 'agent',
  workspace: 'image',
  file_mapping: 'file_mapping',
  staging: 'staging_config',
  group: 'group',
  sso_provider: 'sso_provider',
} as const satisfies Record<SettingsChange['entity'], string>;

const side = (change: SettingsChange, which: 'from' | 'to') =>
  Object.fromEntries(change.fields.map((f) => [f.field, f[which]]));

/**
 * Each change of an apply as one audit event (`settings_apply`): a create has only an after (its
 * values), a delete only a before, an update the fields it changes on each side. A created row's
 * id is not known yet: its key names it.
 */
export function auditedSettingsChanges(changes: readonly SettingsChange[]) {
  return changes.map((change) => ({
    operation: 'settings_apply',
    target: {
      type: TARGET_TYPES[change.entity],
      // A provider is known by its name everywhere (its URLs, its sign-ins' events).
      id: change.id === null || change.entity === 'sso_provider' ? change.key : toWireId(change.id),
    },
    before:
      change.action === 'create'
        ? null
        : change.action === 'delete'
          ? { key: change.key, ...change.values }
          : { key: change.key, ...side(change, 'from') },
    after:
      change.action === 'delete'
        ? null
        : change.action === 'create'
          ? { key: change.key, ...change.values }
          : { key: change.key, ...side(change, 'to') },
  }));
}
