import { createLaunchTimeline, currentPhaseWords, readTimeline } from './launch-timeline';

/** A clock that moves on by a second at each reading. */
function ticking() {
  let at = Date.parse('2026-12-01T10:00:00.000Z');
  return () => {
    const now = new Date(at);
    at += 1000;
    return now;
  };
}

describe('createLaunchTimeline', () => {
  it('ends each phase as the next begins and reports the ones that completed with their durations', () => {
    const ended: [string, number][] = [];
    const timeline = createLaunchTimeline((phase, s) => ended.push([phase, s]), ticking());
    expect(timeline.begin('pull')).toEqual([
      { phase: 'pull', started_at: '2026-12-01T10:00:00.000Z', ended_at: null },
    ]);
    timeline.begin('create');
    timeline.begin('start');
    timeline.begin('ready');
    const done = timeline.complete();
    expect(done.map((e) => e.phase)).toEqual(['pull', 'create', 'start', 'ready']);
    expect(done.every((e) => e.ended_at !== null)).toBe(true);
    // Each reading moves the clock: the end of one phase is read just before the next begins.
    expect(ended).toEqual([
      ['pull', 1],
      ['create', 1],
      ['start', 1],
      ['ready', 1],
    ]);
  });

  it('closes the failing phase without reporting it, and completes nothing twice', () => {
    const ended: string[] = [];
    const timeline = createLaunchTimeline((phase) => ended.push(phase), ticking());
    timeline.begin('pull');
    timeline.begin('create');
    const failed = timeline.fail();
    expect(failed.at(-1)).toMatchObject({ phase: 'create' });
    expect(failed.at(-1)?.ended_at).not.toBeNull();
    timeline.complete();
    timeline.fail();
    expect(ended).toEqual(['pull']);
  });

  it('hands out copies: a stored timeline is not changed by later phases', () => {
    const timeline = createLaunchTimeline(() => undefined, ticking());
    const stored = timeline.begin('pull');
    timeline.begin('create');
    expect(stored).toEqual([expect.objectContaining({ phase: 'pull', ended_at: null })]);
  });
});

describe('readTimeline', () => {
  it.each([
    ['nothing', null, []],
    ['an object', { phase: 'pull' }, []],
    [
      'entries with unknown phases or no start',
      [{ phase: 'brew', started_at: 'x' }, { phase: 'pull' }, 7],
      [],
    ],
    [
      'a valid entry',
      [{ phase: 'pull', started_at: 'a', ended_at: 'b', extra: 1 }],
      [{ phase: 'pull', started_at: 'a', ended_at: 'b' }],
    ],
  ])('reads %s', (_, stored, expected) => {
    expect(readTimeline(stored)).toEqual(expected);
  });
});

describe('currentPhaseWords', () => {
  const open = (phase: string) => [
    { phase, started_at: '2026-12-01T10:00:00.000Z', ended_at: null },
  ];
  it.each([
    ['provisioning', open('pull'), 'pulling'],
    ['provisioning', open('create'), 'creating'],
    ['starting', open('start'), 'starting'],
    ['starting', open('ready'), 'waiting for the workspace to answer'],
    ['running', open('ready'), null],
    ['error', open('pull'), null],
    ['requested', [], null],
    ['starting', [{ phase: 'start', started_at: 'a', ended_at: 'b' }], null],
  ])('says, for a %s session with %j, %s', (status, stored, words) => {
    expect(currentPhaseWords(status, stored)).toBe(words);
  });
});
