import { parseIsoDay } from '../domain';
import { MAX_MESSAGE_LENGTH } from '../messages';
import { parseDayLine, splitDayLine } from './day-line';
import { parseFreeTextDate, withoutEdgeJunk } from './free-text-date';

const week = parseIsoDay('2025-03-03') as number;

/** Milliseconds `work` took. The limits below are thousands of times what a linear parse needs. */
function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

describe('lines as long as a message may be', () => {
  it('reads a day line that opens a bracket and never closes it in linear time', () => {
    // The old pattern backtracked cubically: minutes for 5 000 characters.
    const spaces = `[${' '.repeat(MAX_MESSAGE_LENGTH - 1)}`;
    const tabs = `[${'\t'.repeat(3000)}x`;
    expect(timed(() => parseDayLine(spaces))).toBeLessThan(1000);
    expect(timed(() => parseDayLine(tabs))).toBeLessThan(1000);
    expect(parseDayLine(spaces)).toBeNull();
  });

  it('trims the ends of a title holding a long run of punctuation in linear time', () => {
    // The old pattern tried the trailing run from each of its characters: a second and more.
    const title = `quiz ${'. '.repeat(MAX_MESSAGE_LENGTH / 2)}today`;
    expect(timed(() => withoutEdgeJunk(title))).toBeLessThan(100);
    expect(withoutEdgeJunk(` -- ${title}!? `)).toBe(title);
    const line = `Mon 3/3 ${'. '.repeat(MAX_MESSAGE_LENGTH / 4)}quiz`;
    expect(parseFreeTextDate(line, week)).toMatchObject({ kind: 'dated' });
  });
});

describe('the day line, read without a backtracking pattern', () => {
  const OLD_DAY_LINE = /^\[\s*([^\]]*?)\s*\]\s*:?\s*(.*)$/;
  const ALPHABET = ['[', ']', ' ', ':', 'Mon', '\n', '\u2028', '-', 'Tue'];

  function* lines(length: number, prefix = '['): Generator<string> {
    yield prefix;
    if (length === 0) return;
    for (const piece of ALPHABET) yield* lines(length - 1, prefix + piece);
  }

  it('splits every short line exactly as the old pattern did', () => {
    let compared = 0;
    for (const line of lines(4)) {
      const old = OLD_DAY_LINE.exec(line);
      expect([line, splitDayLine(line)]).toEqual([line, old ? [...old] : null]);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(7000);
  });
});
