import { parseChannelPeriods } from './channel-periods';

describe('parseChannelPeriods', () => {
  it('maps each channel to its period', () => {
    expect(parseChannelPeriods('C123=CSA,C456=CSP')).toEqual(
      new Map([
        ['C123', 'CSA'],
        ['C456', 'CSP'],
      ]),
    );
  });

  it('ignores spaces and empty entries', () => {
    expect(parseChannelPeriods(' C1 = 3 , ,C2=4,')).toEqual(
      new Map([
        ['C1', '3'],
        ['C2', '4'],
      ]),
    );
  });

  it('reads an empty setting as no mapping', () => {
    expect(parseChannelPeriods('')).toEqual(new Map());
  });

  it.each([
    ['C1', /not CHANNEL=PERIOD/],
    ['=CSA', /not CHANNEL=PERIOD/],
    ['C1=A=B', /not CHANNEL=PERIOD/],
    ['C1=A,C1=B', /listed twice/],
    [`C1=${'x'.repeat(33)}`, /longer than 32/],
  ])('rejects %j', (text, message) => {
    expect(() => parseChannelPeriods(text)).toThrow(message);
  });
});
