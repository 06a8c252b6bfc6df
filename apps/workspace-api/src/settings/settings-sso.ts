import { canonical, settingsProblems } from '../sso';
import type { SettingsChange, SsoProviderValues } from './settings-changes';
import type { CurrentSettings } from './settings-current';
import type { DesiredSettings, DesiredSsoProvider } from './settings-desired';
import { listedItems, textField, type Locate } from './settings-items';
import { problemAt, type Location, type SettingsProblem } from './settings-problems';
import { SsoProviderSettingSchema } from './settings-sso.schemas';

/** The keys of an item that are not a kind's block. */
const PROVIDER_KEYS = new Set(['name', 'kind', 'display_name', 'enabled', 'group_mappings']);

type Item = {
  name: string;
  kind: string;
  display_name: string;
  enabled?: boolean;
  group_mappings?: { value: string; group: string }[];
} & Record<string, unknown>;

/** The file's `sso_providers`: names unique, each with its own kind's block and no other. */
export function normalizeSsoProviders(
  value: Record<string, unknown>,
  locate: Locate,
  unique: (key: string, at: Location, what: string) => boolean,
  desired: DesiredSettings,
  problems: SettingsProblem[],
): void {
  const items = listedItems<Item>(value.sso_providers, ['sso_providers'], SsoProviderSettingSchema);
  for (const { raw, valid, path } of items) {
    const given = Array.isArray(raw.group_mappings) ? (raw.group_mappings as unknown[]) : [];
    given.forEach((mapping, i) => {
      const group =
        mapping && typeof mapping === 'object'
          ? textField(mapping as Record<string, unknown>, 'group')
          : undefined;
      if (group !== undefined)
        desired.ssoGroupReferences.push({
          name: group,
          at: locate([...path, 'group_mappings', i, 'group']),
        });
    });
    const name = textField(raw, 'name');
    const at = locate([...path, 'name']);
    if (name === undefined || !unique(`sso ${name}`, at, `sso provider "${name}"`) || !valid)
      continue;
    const { group_mappings: mappings = [], kind, display_name, enabled } = valid;
    const blocks = Object.fromEntries(
      Object.entries(valid).filter(([key]) => !PROVIDER_KEYS.has(key)),
    );
    // The item matched its schema: what is left is a missing block, or another kind's.
    const checked = settingsProblems({ kind, blocks });
    for (const p of checked.problems)
      problems.push(problemAt(locate([...path, ...p.field.split('.')]), p.message));
    if (checked.problems.length > 0) continue;
    desired.ssoProviders.push({
      name,
      kind,
      displayName: display_name,
      enabled: enabled ?? true,
      settings: blocks[kind] as object,
      mappings: mappings.map((m) => ({ value: m.value, group: m.group })),
      at,
    });
  }
}

const SSO_FIELDS = [
  ['kind', 'kind'],
  ['displayName', 'display_name'],
  ['enabled', 'enabled'],
  ['settings', 'settings'],
  ['mappings', 'group_mappings'],
] as const;

/** Mappings in one order, so that two lists of the same pairs compare equal. */
const sortedMappings = (mappings: readonly { value: string; group: string }[]) =>
  [...mappings]
    .map(({ value, group }) => ({ value, group }))
    .sort((a, b) =>
      a.value === b.value ? (a.group < b.group ? -1 : 1) : a.value < b.value ? -1 : 1,
    );

const valuesOf = (p: Omit<DesiredSsoProvider, 'at'> | SsoProviderValues): SsoProviderValues => ({
  name: p.name,
  kind: p.kind,
  displayName: p.displayName,
  enabled: p.enabled,
  settings: p.settings,
  mappings: sortedMappings(p.mappings),
});

export const currentSsoValues = (row: CurrentSettings['ssoProviders'][number]) =>
  valuesOf({
    ...row,
    settings: row.settings as object,
    mappings: row.mappings.map((m) => ({ value: m.value, group: m.groupName })),
  });

/** Creates and updates of providers; a mapping to a group the database lacks is a problem. */
export function planSsoProviders(
  desired: DesiredSettings,
  current: CurrentSettings,
  problems: SettingsProblem[],
): SettingsChange[] {
  const groups = new Set(current.groups.map((g) => g.name));
  for (const { name, at } of desired.ssoGroupReferences)
    if (!groups.has(name)) problems.push(problemAt(at, `no group is named "${name}"`));
  return desired.ssoProviders.flatMap((provider): SettingsChange[] => {
    if (provider.mappings.some((m) => !groups.has(m.group))) return [];
    const values = valuesOf(provider);
    const row = current.ssoProviders.find((p) => p.name === provider.name);
    const change = { entity: 'sso_provider' as const, key: provider.name, values };
    if (!row) return [{ ...change, action: 'create', id: null, fields: [] }];
    const stored = currentSsoValues(row);
    const fields = SSO_FIELDS.filter(
      ([key]) => canonical(stored[key]) !== canonical(values[key]),
    ).map(([key, field]) => ({ field, from: stored[key], to: values[key] }));
    return fields.length ? [{ ...change, action: 'update', id: row.id, fields }] : [];
  });
}

/** Under --prune: the providers the file does not name. */
export const pruneSsoProviders = (desired: DesiredSettings, current: CurrentSettings) =>
  current.ssoProviders
    .filter((row) => !desired.ssoProviders.some((p) => p.name === row.name))
    .map((row): SettingsChange => ({
      entity: 'sso_provider',
      action: 'delete',
      key: row.name,
      id: row.id,
      fields: [],
      values: currentSsoValues(row),
    }));

/** The stored providers as the file writes them: settings as given (secrets by reference), defaults left out. */
export const exportSsoProviders = (current: CurrentSettings) =>
  current.ssoProviders.map((row) => {
    const { name, kind, displayName, enabled, settings, mappings } = currentSsoValues(row);
    return {
      name,
      kind,
      display_name: displayName,
      enabled,
      [kind]: settings,
      ...(mappings.length ? { group_mappings: mappings } : {}),
    };
  });
