import { memo } from './memo';

describe('memo', () => {
  it('computes each argument once, and forgets everything once it holds max of them', () => {
    const computed: string[] = [];
    const upper = memo((s) => (computed.push(s), s.toUpperCase()), 2);
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(computed).toEqual(['a', 'b']);
    // A third argument: the two known ones are forgotten, then it is remembered.
    expect(upper('c')).toBe('C');
    expect(upper('a')).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});
