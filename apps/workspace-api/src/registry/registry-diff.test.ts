import { diffEntries, stableJson } from './registry-diff';

describe('stableJson', () => {
  it('is the same for objects whose keys come in another order, at any depth', () => {
    expect(stableJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      stableJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
  });

  it('keeps array order significant and drops undefined properties', () => {
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
    expect(stableJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});

describe('diffEntries', () => {
  const entry = (name: string, extra: object = {}) => ({
    name,
    friendly_name: name.toUpperCase(),
    ...extra,
  });

  it('reports nothing when the list is unchanged, even with keys reordered by the database', () => {
    const stored = [{ name: 'a:1', data: { friendly_name: 'A:1', name: 'a:1' } }];
    expect(diffEntries(stored, [entry('a:1')])).toEqual({ added: [], changed: [], removed: [] });
  });

  it('reports added, changed and removed entries by name, sorted', () => {
    const before = [entry('keep:1'), entry('edit:1'), entry('gone:1'), entry('also-gone:1')].map(
      (e) => ({ name: e.name, data: e }),
    );
    const after = [
      entry('new:2'),
      entry('keep:1'),
      entry('edit:1', { cores: 4 }),
      entry('another:1'),
    ];
    expect(diffEntries(before, after)).toEqual({
      added: ['another:1', 'new:2'],
      changed: ['edit:1'],
      removed: ['also-gone:1', 'gone:1'],
    });
  });

  it('treats everything as added for an empty registry and removed for an emptied one', () => {
    expect(diffEntries([], [entry('x:1')])).toEqual({ added: ['x:1'], changed: [], removed: [] });
    expect(diffEntries([{ name: 'x:1', data: entry('x:1') }], [])).toEqual({
      added: [],
      changed: [],
      removed: ['x:1'],
    });
  });
});
