import {
  compatibleRow,
  installRow,
  isCompatible,
  platformSeries,
  type CompatibilityRow,
} from './compatibility';

const row = (version: string, image = `kasmweb/terminal:${version}`): CompatibilityRow => ({
  version,
  image,
  uncompressed_size_mb: 100,
  available_tags: [],
});

describe('platformSeries', () => {
  it.each([
    ['1.16.2', '1.16.x'],
    ['1.16.0', '1.16.x'],
    ['1.1.0', '1.1.x'],
    ['1.10.4', '1.10.x'],
    ['2.0.11', '2.0.x'],
    ['1.16', '1.16.x'],
  ])('turns %s into %s', (version, series) => {
    expect(platformSeries(version)).toBe(series);
  });

  it.each(['', '1', 'v1.16.2', '1.16.2-rc1', '1.16.x', ' 1.16.2', 'one.two.three'])(
    'refuses %p',
    (version) => {
      expect(() => platformSeries(version)).toThrow(/not <major>.<minor>.<patch>/);
    },
  );
});

describe('isCompatible', () => {
  it('matches the exact series', () => {
    expect(isCompatible(['1.15.x', '1.16.x'], '1.16.x')).toBe(true);
  });

  it('never confuses 1.10.x with 1.1.x, in either direction', () => {
    expect(isCompatible(['1.10.x'], '1.1.x')).toBe(false);
    expect(isCompatible(['1.1.x'], '1.10.x')).toBe(false);
    expect(isCompatible(['1.1.x'], '1.1.x')).toBe(true);
  });

  it('does not treat versions as numbers or prefixes', () => {
    expect(isCompatible(['1.16'], '1.16.x')).toBe(false);
    expect(isCompatible(['1.16.2'], '1.16.x')).toBe(false);
    expect(isCompatible(['1.16.x.1'], '1.16.x')).toBe(false);
    expect(isCompatible(['1.160.x'], '1.16.x')).toBe(false);
    expect(isCompatible(['01.16.x'], '1.16.x')).toBe(false);
  });

  it('compares case and whitespace exactly', () => {
    expect(isCompatible(['1.16.X'], '1.16.x')).toBe(false);
    expect(isCompatible([' 1.16.x'], '1.16.x')).toBe(false);
  });

  it('is false for an empty list', () => {
    expect(isCompatible([], '1.16.x')).toBe(false);
  });
});

describe('compatibleRow and installRow', () => {
  const rows = [row('1.15.x'), row('1.16.x'), row('1.1.x')];

  it('finds the row of this platform', () => {
    expect(compatibleRow(rows, '1.16.x')?.image).toBe('kasmweb/terminal:1.16.x');
    expect(compatibleRow(rows, '1.10.x')).toBeUndefined();
  });

  it('installs the first row when none matches, and nothing when there are none', () => {
    expect(installRow(rows, '1.17.x')?.version).toBe('1.15.x');
    expect(installRow(rows, '1.1.x')?.version).toBe('1.1.x');
    expect(installRow([], '1.16.x')).toBeUndefined();
  });
});
