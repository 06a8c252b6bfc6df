import { createHash } from 'node:crypto';
import { frameRegion, inputMessages, inputSummary, MAX_TYPED_CHARACTERS } from './input-actions';

const screen = { width: 1280, height: 800 };

/** The RFB messages as [type, flag/mask, …] tuples. */
function decode(messages: Buffer) {
  const out: (string | number)[][] = [];
  for (let at = 0; at < messages.length;) {
    if (messages[at] === 4) {
      out.push(['key', messages[at + 1], messages.readUInt32BE(at + 4)]);
      at += 8;
    } else {
      out.push([
        'pointer',
        messages[at + 1],
        messages.readUInt16BE(at + 2),
        messages.readUInt16BE(at + 4),
      ]);
      at += 6;
    }
  }
  return out;
}

function messagesOf(...args: Parameters<typeof inputMessages>) {
  const built = inputMessages(...args);
  if (!('messages' in built)) throw new Error(JSON.stringify(built.problems));
  return decode(Buffer.concat(built.messages));
}

describe('inputMessages', () => {
  it('moves, clicks with a button mask pressed then released, and double-clicks', () => {
    expect(
      messagesOf(
        [
          { type: 'move', x: 10, y: 20 },
          { type: 'click', x: 5, y: 6, button: 'right' },
          { type: 'click', x: 1, y: 2, double: true },
        ],
        screen,
      ),
    ).toEqual([
      ['pointer', 0, 10, 20],
      ['pointer', 0, 5, 6],
      ['pointer', 4, 5, 6],
      ['pointer', 0, 5, 6],
      ['pointer', 0, 1, 2],
      ['pointer', 1, 1, 2],
      ['pointer', 0, 1, 2],
      ['pointer', 1, 1, 2],
      ['pointer', 0, 1, 2],
    ]);
  });

  it('scrolls with the wheel buttons, up for negative steps', () => {
    expect(messagesOf([{ type: 'scroll', x: 3, y: 4, delta: -2 }], screen)).toEqual([
      ['pointer', 0, 3, 4],
      ['pointer', 8, 3, 4],
      ['pointer', 0, 3, 4],
      ['pointer', 8, 3, 4],
      ['pointer', 0, 3, 4],
    ]);
    expect(messagesOf([{ type: 'scroll', x: 3, y: 4, delta: 1 }], screen)[1]).toEqual([
      'pointer',
      16,
      3,
      4,
    ]);
  });

  it('presses a chord in order and releases it in reverse; types each character down and up', () => {
    expect(
      messagesOf(
        [
          { type: 'key', keys: 'ctrl+c' },
          { type: 'type', text: 'é\n' },
        ],
        screen,
      ),
    ).toEqual([
      ['key', 1, 0xffe3],
      ['key', 1, 0x63],
      ['key', 0, 0x63],
      ['key', 0, 0xffe3],
      ['key', 1, 0xe9],
      ['key', 0, 0xe9],
      ['key', 1, 0xff0d],
      ['key', 0, 0xff0d],
    ]);
  });

  it('names every problem: points off the screen, unknown keys, control characters, too much text', () => {
    const long = 'x'.repeat(2000);
    const built = inputMessages(
      [
        { type: 'move', x: 1280, y: 10 },
        { type: 'click', x: 0, y: 800 },
        { type: 'key', keys: 'hyper+q' },
        { type: 'type', text: 'a\u0000' },
        ...Array.from({ length: 6 }, () => ({ type: 'type' as const, text: long })),
      ],
      screen,
    );
    expect(built).toEqual({
      problems: [
        { field: 'actions/0/x', message: "must be less than the screen's width 1280" },
        { field: 'actions/1/y', message: "must be less than the screen's height 800" },
        { field: 'actions/2/keys', message: 'names no key: hyper+q' },
        { field: 'actions/3/text', message: 'holds a control character no key types, at 1' },
        {
          field: 'actions',
          message: `types 12000 characters, more than ${MAX_TYPED_CHARACTERS}`,
        },
      ],
    });
  });
});

describe('frameRegion', () => {
  it('is the whole screen by default, and the rest of it from a corner', () => {
    expect(frameRegion(undefined, screen)).toEqual({
      region: { x: 0, y: 0, width: 1280, height: 800 },
    });
    expect(frameRegion({ x: 1000, y: 700 }, screen)).toEqual({
      region: { x: 1000, y: 700, width: 280, height: 100 },
    });
  });

  it('refuses a region that leaves the screen', () => {
    expect(frameRegion({ x: 1200, y: 0, width: 100 }, screen)).toEqual({
      problems: [{ field: 'region', message: "must lie within the screen's width 1280" }],
    });
    expect(frameRegion({ x: 0, y: 800 }, screen)).toEqual({
      problems: [{ field: 'region', message: "must lie within the screen's height 800" }],
    });
  });
});

describe('inputSummary', () => {
  it('keeps counts and the typed text’s digest, never the text or the keys', () => {
    const summary = inputSummary([
      { type: 'type', text: 'secret one' },
      { type: 'key', keys: 'Return' },
      { type: 'type', text: 'two' },
      { type: 'click', x: 1, y: 1 },
    ]);
    expect(summary).toEqual({
      actions: { type: 2, key: 1, click: 1 },
      characters: 13,
      text_sha256: createHash('sha256').update('secret one\ntwo').digest('hex'),
    });
    expect(JSON.stringify(summary)).not.toMatch(/secret|Return/);
  });

  it('summarizes a body without actions as none', () => {
    expect(inputSummary(undefined)).toEqual({ actions: {}, characters: 0, text_sha256: null });
  });
});
