import { keysymOfChar, keysymsOfChord, keysymsOfText } from './keysyms';

describe('keysyms', () => {
  it('gives Latin-1 characters their own code, others their Unicode keysym', () => {
    expect(keysymOfChar('a')).toBe(0x61);
    expect(keysymOfChar('~')).toBe(0x7e);
    expect(keysymOfChar('é')).toBe(0xe9);
    expect(keysymOfChar('€')).toBe(0x010020ac);
    expect(keysymOfChar('😀')).toBe(0x0101f600);
  });

  it('types a line break as Return and a tab as Tab, CR LF as one Return', () => {
    expect(keysymsOfText('a\tb\r\nc\n')).toEqual({
      keysyms: [0x61, 0xff09, 0x62, 0xff0d, 0x63, 0xff0d],
    });
  });

  it('refuses control characters no key types, naming where', () => {
    expect(keysymsOfText('ab\u0007c')).toEqual({ badAt: 2 });
    expect(keysymsOfText('\u0085')).toEqual({ badAt: 0 });
  });

  it('reads chords in any case with X names and single characters', () => {
    expect(keysymsOfChord('ctrl+alt+Delete')).toEqual([0xffe3, 0xffe9, 0xffff]);
    expect(keysymsOfChord('Return')).toEqual([0xff0d]);
    expect(keysymsOfChord('ctrl+c')).toEqual([0xffe3, 0x63]);
    expect(keysymsOfChord('shift+F10')).toEqual([0xffe1, 0xffc7]);
    expect(keysymsOfChord('PAGE_DOWN')).toEqual([0xff56]);
    expect(keysymsOfChord('ctrl++')).toEqual([0xffe3, 0x2b]);
    expect(keysymsOfChord('+')).toEqual([0x2b]);
  });

  it('answers null for a part that names no key', () => {
    expect(keysymsOfChord('ctrl+nokey')).toBeNull();
    expect(keysymsOfChord('ctrl+')).toBeNull();
    expect(keysymsOfChord('a+\u0001')).toBeNull();
  });
});
