import { currentSettings, desiredFrom, MATCHING_FILE } from '../../test/settings-fixtures';
import { exportSettings } from './settings-export';
import { formatChange } from './settings-format';
import { planSettings } from './settings-plan';

const workspaces = (items: string) =>
  MATCHING_FILE.replace(
    'workspaces: [{name: "kasmweb/firefox:1.16.0", persistent_profile_path: "/p/{username}"}]\n',
    `workspaces:\n  - {name: "kasmweb/firefox:1.16.0", persistent_profile_path: "/p/{username}"}\n${items}`,
  );
const STAGED = workspaces(`  - name: "kasmweb/terminal:1.16.0"
    staging: [{zone: default, num_sessions: 2, expiration: 0.5}]
`);
const stored = (numSessions: number) =>
  currentSettings({
    stagingConfigs: [
      { id: 's1', imageId: 'i-term', zoneId: 'z1', numSessions, expirationHours: 0.5 },
    ],
  });

describe('staging in the settings file', () => {
  it('creates a workspace’s staging in a zone, then finds nothing to do', () => {
    const plan = planSettings(desiredFrom(STAGED), currentSettings(), { prune: false });
    expect(plan.problems).toEqual([]);
    expect(plan.changes.map(formatChange)).toEqual([
      '+ staging of workspace "kasmweb/terminal:1.16.0" in zone "default" (2 sessions, expiring after 0.5 hours)',
    ]);
    expect(planSettings(desiredFrom(STAGED), stored(2), { prune: true }).changes).toEqual([]);
  });

  it('updates a changed number, and deletes staging the file leaves out only under --prune', () => {
    const update = planSettings(desiredFrom(STAGED), stored(5), { prune: false });
    expect(update.changes.map(formatChange)).toEqual([
      '~ staging of workspace "kasmweb/terminal:1.16.0" in zone "default": num_sessions 5 → 2',
    ]);
    expect(planSettings(desiredFrom(MATCHING_FILE), stored(2), { prune: false }).changes).toEqual(
      [],
    );
    const pruned = planSettings(desiredFrom(MATCHING_FILE), stored(2), { prune: true });
    expect(pruned.changes.map(formatChange)).toEqual([
      '- staging of workspace "kasmweb/terminal:1.16.0" in zone "default" (2 sessions, expiring after 0.5 hours)',
    ]);
  });

  it('refuses staging of a workspace with a per-user profile, and of a zone nowhere to be found', () => {
    const file = workspaces(`  - name: "kasmweb/terminal:1.16.0"
    staging: [{zone: mars, num_sessions: 1, expiration: 1}]
`).replace(
      'persistent_profile_path: "/p/{username}"}',
      'persistent_profile_path: "/p/{username}", staging: [{zone: default, num_sessions: 1, expiration: 1}]}',
    );
    const plan = planSettings(desiredFrom(file), currentSettings(), { prune: false });
    expect(plan.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'workspaces[1].staging[0].zone: zone "mars" is neither in this file nor in the database',
      'workspaces[0].staging[0].zone: workspace "kasmweb/firefox:1.16.0" has a persistent_profile_path: it cannot be staged',
    ]);
  });

  it('exports staging so that applying the export changes nothing', () => {
    const text = exportSettings(stored(3));
    expect(text).toContain('staging:');
    expect(planSettings(desiredFrom(text), stored(3), { prune: true })).toEqual({
      changes: [],
      problems: [],
    });
  });
});
