import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { badBasicCredentials, badTextFields, holdsBadText, isBadText } from './input-guard';

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

describe('holdsBadText', () => {
  it('finds what badTextFields names, and nothing else', () => {
    const values: unknown[] = [
      { a: { b: ['ok', 'x\u0000'] } },
      { ['k\ud800']: 1 },
      [[['\udc00']]],
      '\u0000',
      { fine: ['tabs\tand\nnew lines', 'zoë ☃', '\ud83d\ude80'], n: 1, t: true, z: null },
      [],
      undefined,
    ];
    for (const value of values) {
      expect(holdsBadText(value)).toBe(badTextFields(value, '').length > 0);
    }
    expect(values.map(holdsBadText)).toEqual([true, true, true, true, false, false, false]);
  });
});

describe('what the guard walks', () => {
  it('looks into plain objects, null-prototype objects and arrays only: a stream, a Buffer or a class instance is not parsed input', () => {
    const nullPrototype = Object.assign(Object.create(null) as object, { q: 'x\u0000' });
    expect(holdsBadText(nullPrototype)).toBe(true);
    // As Fastify's query and params objects: a prototype that is itself prototype-less.
    const dictionary = Object.assign(Object.create(Object.create(null)) as object, { q: '\ud800' });
    expect(holdsBadText(dictionary)).toBe(true);
    class Holder {
      text = 'x\u0000';
    }
    const notParsed: unknown[] = [
      new Holder(),
      Buffer.from('a\u0000b'),
      new Map([['k', 'x\u0000']]),
      Object.assign(new PassThrough(), { text: 'x\u0000' }),
    ];
    for (const value of notParsed) {
      expect(holdsBadText(value)).toBe(false);
      expect(holdsBadText({ body: value })).toBe(false);
      expect(badTextFields([value], '')).toEqual([]);
    }
  });

  it('ends on the request stream the session proxy hands over as its body (a cyclic graph reaching the server)', () => {
    const request = new IncomingMessage(new Socket());
    expect(holdsBadText(request)).toBe(false);
    expect(badTextFields(request, '')).toEqual([]);
  });

  it('enters each object once, so a cyclic or widely shared plain graph is walked in bounded time', () => {
    const cyclic: Record<string, unknown> = { name: 'ok' };
    cyclic.self = cyclic;
    cyclic.list = [cyclic, cyclic];
    expect(holdsBadText(cyclic)).toBe(false);
    cyclic.bad = 'x\u0000';
    expect(holdsBadText(cyclic)).toBe(true);
    expect(badTextFields(cyclic, '')).toEqual([{ field: 'bad', message: expect.any(String) }]);
    // 40 levels, each holding the one below twice: 2^40 paths, 41 objects.
    let shared: unknown = { leaf: 'fine' };
    for (let i = 0; i < 40; i += 1) shared = { a: shared, b: shared };
    expect(holdsBadText(shared)).toBe(false);
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
