import { badBasicCredentials, badTextFields, isBadText } from './input-guard';

describe('isBadText', () => {
  it.each([
    ['a\u0000b', true],
    ['a\ud800', true],
    ['\udc00b', true],
    ['\ud83d\ude80 rocket', false],
    ['tabs\tand\nnew lines, zoë ☃', false],
    ['\ufffd', false],
  ])('judges %j bad: %s', (text, bad) => {
    expect(isBadText(text)).toBe(bad);
  });
});

describe('badTextFields', () => {
  it('names every bad string and key, however deep, as a dotted field', () => {
    const value = { a: { b: ['ok', 'x\u0000'] }, ['k\ud800']: 1, c: 'fine' };
    expect(badTextFields(value, '')).toEqual(
      expect.arrayContaining([
        { field: 'a.b.1', message: expect.stringContaining('NUL') },
        { field: 'k\ud800', message: expect.stringContaining('its name') },
      ]),
    );
    expect(badTextFields('\u0000', '')).toEqual([{ field: 'body', message: expect.any(String) }]);
    expect(badTextFields({ x: 'y' }, 'query')).toEqual([]);
  });
});

describe('badBasicCredentials', () => {
  const basic = (bytes: number[]) => `Basic ${Buffer.from(bytes).toString('base64')}`;
  it('refuses NUL and bytes that are not UTF-8, and lets clean credentials through', () => {
    expect(badBasicCredentials(basic([0x6b, 0x00, 0x3a, 0x73]))).not.toBeNull();
    expect(badBasicCredentials(basic([0x6b, 0xed, 0xa0, 0x80, 0x3a, 0x73]))).not.toBeNull();
    expect(badBasicCredentials(basic([0x6b, 0xff, 0x3a, 0x73]))).not.toBeNull();
    expect(badBasicCredentials(`Basic ${Buffer.from('key:sëcret').toString('base64')}`)).toBeNull();
    expect(badBasicCredentials('Bearer abc')).toBeNull();
    expect(badBasicCredentials(undefined)).toBeNull();
  });
});
