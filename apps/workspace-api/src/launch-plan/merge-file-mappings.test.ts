import type { MappingTarget, TargetedMapping } from '../file-mappings';
import { mergeFileMappings, type MergeInput } from './merge-file-mappings';

const image = { id: 'img', name: 'kasmweb/terminal:1.16.0' };
const user = { id: 'usr', username: 'ada' };
const devs = { id: 'g-dev', name: 'Developers', priority: 50 };
const all = { id: 'g-all', name: 'All Users', priority: 4095 };
const admins = { id: 'g-adm', name: 'Administrators', priority: 10 };

let counter = 0;
function mapping(
  type: MappingTarget['type'],
  id: string,
  destination: string,
  name = `${type}:${destination}`,
): TargetedMapping {
  counter += 1;
  return {
    id: `m${counter}`,
    target: { type, id },
    name,
    description: '',
    destination,
    executable: false,
    content: name,
  };
}

const merge = (mappings: TargetedMapping[], groups: MergeInput['groups'] = [devs, all]) =>
  mergeFileMappings({ image, groups, user, mappings }).map((m) => [
    m.destination,
    m.name,
    m.source.type,
    m.source.name,
  ]);

describe('mergeFileMappings', () => {
  it('keeps every mapping when no two share a destination: workspace, then groups by priority, then user', () => {
    expect(
      merge([
        mapping('user', 'usr', '/u'),
        mapping('group', 'g-all', '/all'),
        mapping('image', 'img', '/w'),
        mapping('group', 'g-dev', '/dev'),
      ]),
    ).toEqual([
      ['/w', 'image:/w', 'image', 'kasmweb/terminal:1.16.0'],
      ['/dev', 'group:/dev', 'group', 'Developers'],
      ['/all', 'group:/all', 'group', 'All Users'],
      ['/u', 'user:/u', 'user', 'ada'],
    ]);
  });

  it("lets the workspace's mapping win over a group's and the user's for the same destination", () => {
    const merged = merge([
      mapping('user', 'usr', '/x', 'user'),
      mapping('group', 'g-dev', '/x', 'group'),
      mapping('image', 'img', '/x', 'workspace'),
    ]);
    expect(merged).toEqual([['/x', 'workspace', 'image', 'kasmweb/terminal:1.16.0']]);
  });

  it('lets the group with the lower priority number win, whatever order the groups come in', () => {
    const mappings = [
      mapping('group', 'g-all', '/x', 'all'),
      mapping('group', 'g-dev', '/x', 'dev'),
      mapping('group', 'g-adm', '/x', 'adm'),
    ];
    expect(merge(mappings, [all, devs, admins])).toEqual([
      ['/x', 'adm', 'group', 'Administrators'],
    ]);
    expect(merge(mappings, [devs, all])).toEqual([['/x', 'dev', 'group', 'Developers']]);
  });

  it('breaks a tie in priority by group name', () => {
    const beta = { id: 'g-b', name: 'Beta', priority: 5 };
    const alpha = { id: 'g-a', name: 'Alpha', priority: 5 };
    const mappings = [
      mapping('group', 'g-b', '/x', 'beta'),
      mapping('group', 'g-a', '/x', 'alpha'),
    ];
    expect(merge(mappings, [beta, alpha])).toEqual([['/x', 'alpha', 'group', 'Alpha']]);
  });

  it("lets a group's mapping win over the user's", () => {
    expect(
      merge([mapping('user', 'usr', '/x', 'user'), mapping('group', 'g-all', '/x', 'all')]),
    ).toEqual([['/x', 'all', 'group', 'All Users']]);
  });

  it("uses the user's mapping only for destinations nobody else maps", () => {
    const merged = merge([
      mapping('user', 'usr', '/x', 'user-x'),
      mapping('user', 'usr', '/y', 'user-y'),
      mapping('image', 'img', '/x', 'ws-x'),
    ]);
    expect(merged).toEqual([
      ['/x', 'ws-x', 'image', 'kasmweb/terminal:1.16.0'],
      ['/y', 'user-y', 'user', 'ada'],
    ]);
  });

  it('ignores mappings of other workspaces, of groups the user is not in, and of other users', () => {
    const merged = merge([
      mapping('image', 'other-img', '/a'),
      mapping('group', 'g-adm', '/b'),
      mapping('user', 'someone-else', '/c'),
      mapping('user', 'usr', '/d'),
    ]);
    expect(merged).toEqual([['/d', 'user:/d', 'user', 'ada']]);
  });

  it('orders the mappings of one source by destination, and keeps their fields', () => {
    const script = {
      ...mapping('image', 'img', '/b.sh'),
      executable: true,
      description: 'setup',
      content: '#!/bin/sh\n',
    };
    const result = mergeFileMappings({
      image,
      groups: [],
      user,
      mappings: [script, mapping('image', 'img', '/a.txt')],
    });
    expect(result.map((m) => m.destination)).toEqual(['/a.txt', '/b.sh']);
    expect(result[1]).toEqual({
      ...script,
      source: { type: 'image', id: 'img', name: image.name },
    });
  });

  it('answers no mappings when there are none', () => {
    expect(merge([])).toEqual([]);
  });
});
