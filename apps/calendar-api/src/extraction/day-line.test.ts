import { parseDayLine, parseTitle } from './day-line';

describe('parseDayLine', () => {
  it.each([
    ['[Mon]: Intro', [0]],
    ['[monday]: Intro', [0]],
    ['[MONDAY] : Intro', [0]],
    ['[Sun]: Intro', [6]],
    ['[Tue - Thu]: Intro', [1, 2, 3]],
    ['[Tue-Thu]: Intro', [1, 2, 3]],
    ['[tue–thu]: Intro', [1, 2, 3]],
    ['[Tuesday to Thursday]: Intro', [1, 2, 3]],
    ['[ Mon - Fri ]   :Intro', [0, 1, 2, 3, 4]],
    ['[Thurs]: Intro', [3]],
    ['[Wed - Wed]: Intro', [2]],
    ['[Fri]Intro', [4]],
  ])('reads the days of %j as offsets %j from Monday', (line, offsets) => {
    expect(parseDayLine(line)).toEqual({
      kind: 'day-line',
      offsets,
      title: 'Intro',
      type: 'general',
    });
  });

  it.each(['[Thu - Tue]: Lab', '[Sun-Mon]: Lab'])('reports the backwards range %j', (line) => {
    expect(parseDayLine(line)).toEqual({
      kind: 'invalid',
      reason: expect.stringContaining('backwards day range'),
    });
  });

  it.each(['[Note]: bring pencils', '[Mon 3/3]: Intro', 'Mon: Intro', '[Mon - Note]: x'])(
    'does not treat %j as a day line',
    (line) => {
      expect(parseDayLine(line)).toBeNull();
    },
  );

  it('keeps an empty title for the caller to reject', () => {
    expect(parseDayLine('[Mon]:')).toEqual({
      kind: 'day-line',
      offsets: [0],
      title: '',
      type: 'general',
    });
  });
});

describe('parseTitle', () => {
  it.each([
    ['Unit 5 intro', 'Unit 5 intro', 'general'],
    ['* Lab 3 check-in', 'Lab 3 check-in', 'check-in'],
    ['*Lab 3 check-in', 'Lab 3 check-in', 'check-in'],
    ['** Unit 5 quiz', 'Unit 5 quiz', 'grade'],
    ['*Quiz*', 'Quiz', 'check-in'],
    ['**Quiz**', 'Quiz', 'grade'],
    ['** Quiz *', 'Quiz *', 'grade'],
    ['Read pages 3*4', 'Read pages 3*4', 'general'],
    ['*Quiz* on loops', 'Quiz on loops', 'check-in'],
    ['** *Unit quiz*', 'Unit quiz', 'grade'],
    ['* **Unit quiz**', 'Unit quiz', 'check-in'],
    ['**Unit quiz** on *loops*', 'Unit quiz on loops', 'grade'],
    ['Review *chapter 5* today', 'Review chapter 5 today', 'general'],
    ['Lab (*pairs*), then quiz', 'Lab (pairs), then quiz', 'general'],
    ['Quiz *', 'Quiz *', 'general'],
    ['2*3*4 drill', '2*3*4 drill', 'general'],
    ['* not* bold', 'not* bold', 'check-in'],
  ])('reads %j as title %j of type %s', (text, title, type) => {
    expect(parseTitle(text)).toEqual({ title, type });
  });
});
