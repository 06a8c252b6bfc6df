import type { ApplyResult } from '../../settings';
import type { AdminPerson } from '../admin-context';
import { requireGrantsOf } from './settings-grants';

const person = (permissions: string[]): AdminPerson => ({
  userId: 'u',
  username: 'u',
  csrf: 'c',
  grant: { permissions, readOnly: false },
  sections: [],
});
/** A group's permissions as the settings planner words their update. */
const groupChange = (from: string, to: string) =>
  ({
    entity: 'group',
    action: 'update',
    key: 'Support',
    id: 'g',
    fields: [{ field: 'permissions', from, to }],
    values: { permissions: to.split(', ') },
  }) as unknown as ApplyResult['changes'][number];
const zoneChange = {
  entity: 'zone',
  action: 'update',
  key: 'lab',
  id: 'z',
  fields: [{ field: 'proxy_port', from: 443, to: 0 }],
  values: {},
} as unknown as ApplyResult['changes'][number];

describe('requireGrantsOf', () => {
  it('asks nothing more of a file that changes no group', () => {
    expect(() => requireGrantsOf(person(['settings.modify']), [zoneChange])).not.toThrow();
  });

  it('needs groups.modify for a file that changes what a group grants', () => {
    expect(() =>
      requireGrantsOf(person(['settings.modify', 'users.view']), [groupChange('', 'users.view')]),
    ).toThrow('groups.modify');
  });

  it('needs every permission granted or taken away, and no other', () => {
    const changes = [groupChange('sessions.view, users.view', 'users.view, global_admin')];
    const holder = person(['groups.modify', 'sessions.view']);
    expect(() => requireGrantsOf(holder, changes)).toThrow('lack global_admin');
    const enough = person(['groups.modify', 'sessions.view', 'global_admin']);
    expect(() => requireGrantsOf(enough, changes)).not.toThrow();
    const unchangedKept = person(['groups.modify', 'sessions.view']);
    expect(() =>
      requireGrantsOf(unchangedKept, [groupChange('users.view, sessions.view', 'users.view')]),
    ).not.toThrow();
  });
});
