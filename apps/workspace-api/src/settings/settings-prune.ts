import type { SettingsChange, TargetRef } from './settings-changes';
import type { CurrentSettings } from './settings-current';
import type { DesiredSettings } from './settings-desired';
import { namedKey, targetKey, targetNames } from './settings-references';

const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** Under --prune: every staging config, mapping, agent and zone the file does not name, in the order they can go. */
export function planDeletes(
  desired: DesiredSettings,
  current: CurrentSettings,
  resolved: Map<string, TargetRef>,
): SettingsChange[] {
  const names = targetNames(current);
  const kept = new Set(
    desired.mappings.map(
      (m) =>
        `${targetKey(resolved.get(namedKey(m.target)) ?? { type: '', id: '' })} ${m.destination}`,
    ),
  );
  const hostnames = new Set(desired.agents.map((a) => a.hostname));
  const zones = new Set(desired.zones.map((z) => z.name));
  const zoneName = new Map(current.zones.map((z) => [z.id, z.name]));
  const remove = { action: 'delete' as const, fields: [] };
  const staged = new Set(
    desired.staging.map((s) => `${resolved.get(namedKey(s.workspace))?.id} ${s.zone}`),
  );
  return [
    ...current.stagingConfigs
      .filter((s) => !staged.has(`${s.imageId} ${zoneName.get(s.zoneId)}`))
      .map(({ id, imageId, zoneId, ...values }): SettingsChange => {
        const zone = zoneName.get(zoneId) ?? '';
        const target = {
          type: 'image' as const,
          id: imageId,
          name: names.get(targetKey({ type: 'image', id: imageId })) ?? imageId,
        };
        return { ...remove, entity: 'staging', key: zone, id, target, values: { ...values, zone } };
      })
      .sort(byKey),
    ...current.mappings
      .filter((m) => !kept.has(`${targetKey(m.target)} ${m.destination}`))
      .map(({ id, target, ...values }): SettingsChange => {
        const ref = { ...target, name: names.get(targetKey(target)) ?? target.id };
        return {
          ...remove,
          entity: 'file_mapping',
          key: values.destination,
          id,
          target: ref,
          values,
        };
      })
      .sort(byKey),
    ...current.agents
      .filter((a) => !hostnames.has(a.hostname))
      .map(({ id, zoneId, ...values }): SettingsChange => {
        return {
          ...remove,
          entity: 'agent',
          key: values.hostname,
          id,
          values: { ...values, zone: zoneName.get(zoneId) ?? '' },
        };
      }),
    ...current.zones
      .filter((z) => !zones.has(z.name))
      .map(({ id, ...values }): SettingsChange => ({
        ...remove,
        entity: 'zone',
        key: values.name,
        id,
        values,
      })),
  ];
}
