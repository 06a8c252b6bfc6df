import { isoFromUtcText } from './event-row';

describe('isoFromUtcText', () => {
  it.each([
    ['2025-03-03 09:30:00', '2025-03-03T09:30:00.000Z'],
    ['2025-03-03 09:30:00.1', '2025-03-03T09:30:00.100Z'],
    ['2025-03-03 09:30:00.12', '2025-03-03T09:30:00.120Z'],
    ['2025-03-03 09:30:00.123', '2025-03-03T09:30:00.123Z'],
  ])('turns %s into %s, as Date#toISOString writes it', (text, iso) => {
    expect(isoFromUtcText(text)).toBe(iso);
    expect(new Date(iso).toISOString()).toBe(iso);
  });

  it('falls back to parsing what it does not recognise', () => {
    expect(isoFromUtcText('2025-03-03 09:30:00.123456')).toBe('2025-03-03T09:30:00.123Z');
  });
});
