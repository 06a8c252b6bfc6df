import { statementNames } from './statement-names';

describe('statementNames', () => {
  it('gives the same SQL the same name and different SQL different names', () => {
    const nameOf = statementNames();
    const a = nameOf({ sql: 'SELECT 1' });
    expect(nameOf({ sql: 'SELECT 1' })).toBe(a);
    expect(nameOf({ sql: 'SELECT 2' })).not.toBe(a);
    expect(a).not.toBe('');
  });

  it('names no more than the limit of distinct texts; later ones run unnamed', () => {
    const nameOf = statementNames(2);
    nameOf({ sql: 'SELECT 1' });
    nameOf({ sql: 'SELECT 2' });
    expect(nameOf({ sql: 'SELECT 3' })).toBe('');
    expect(nameOf({ sql: 'SELECT 1' })).not.toBe('');
  });
});
