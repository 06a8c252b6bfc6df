import { createHash } from 'node:crypto';
import type { FieldProblem } from '@platform/errors';
import { keysymsOfChord, keysymsOfText } from './keysyms';
import type { Region } from './png';
import type { InputAction } from './session-driver.schemas';

/** At most this many characters typed by one call, over all its `type` actions. */
export const MAX_TYPED_CHARACTERS = 10_000;

const BUTTON_MASK = { left: 1, middle: 2, right: 4 } as const;
const WHEEL_UP = 8;
const WHEEL_DOWN = 16;

const keyEvent = (keysym: number, down: boolean) => {
  const message = Buffer.alloc(8);
  message.writeUInt8(4, 0);
  message.writeUInt8(down ? 1 : 0, 1);
  message.writeUInt32BE(keysym, 4);
  return message;
};

const pointerEvent = (x: number, y: number, mask: number) => {
  const message = Buffer.alloc(6);
  message.writeUInt8(5, 0);
  message.writeUInt8(mask, 1);
  message.writeUInt16BE(x, 2);
  message.writeUInt16BE(y, 4);
  return message;
};

/**
 * The RFB messages (KeyEvent, PointerEvent) that carry out `actions` on a screen of `width` by
 * `height`, in order (one buffer each: a recording keeps them one by one), or every problem with
 * them (a point off the screen, a key with no name, a character no key types, too much text),
 * each naming its field as the validator does.
 */
export function inputMessages(
  actions: InputAction[],
  screen: { width: number; height: number },
): { messages: Buffer[] } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const messages: Buffer[] = [];
  let typed = 0;
  actions.forEach((action, i) => {
    const field = `actions/${i}`;
    if ('x' in action) {
      if (action.x >= screen.width)
        problems.push({
          field: `${field}/x`,
          message: `must be less than the screen's width ${screen.width}`,
        });
      if (action.y >= screen.height)
        problems.push({
          field: `${field}/y`,
          message: `must be less than the screen's height ${screen.height}`,
        });
    }
    switch (action.type) {
      case 'move':
        messages.push(pointerEvent(action.x, action.y, 0));
        break;
      case 'click': {
        const mask = BUTTON_MASK[action.button ?? 'left'];
        messages.push(pointerEvent(action.x, action.y, 0));
        for (let n = 0; n < (action.double ? 2 : 1); n++)
          messages.push(
            pointerEvent(action.x, action.y, mask),
            pointerEvent(action.x, action.y, 0),
          );
        break;
      }
      case 'scroll': {
        const mask = action.delta < 0 ? WHEEL_UP : WHEEL_DOWN;
        messages.push(pointerEvent(action.x, action.y, 0));
        for (let n = 0; n < Math.abs(action.delta); n++)
          messages.push(
            pointerEvent(action.x, action.y, mask),
            pointerEvent(action.x, action.y, 0),
          );
        break;
      }
      case 'key': {
        const keysyms = keysymsOfChord(action.keys);
        if (!keysyms) {
          problems.push({ field: `${field}/keys`, message: `names no key: ${action.keys}` });
          break;
        }
        messages.push(...keysyms.map((k) => keyEvent(k, true)));
        messages.push(...keysyms.reverse().map((k) => keyEvent(k, false)));
        break;
      }
      case 'type': {
        const text = keysymsOfText(action.text);
        if ('badAt' in text) {
          problems.push({
            field: `${field}/text`,
            message: `holds a control character no key types, at ${text.badAt}`,
          });
          break;
        }
        typed += text.keysyms.length;
        for (const k of text.keysyms) messages.push(keyEvent(k, true), keyEvent(k, false));
        break;
      }
    }
  });
  if (typed > MAX_TYPED_CHARACTERS)
    problems.push({
      field: 'actions',
      message: `types ${typed} characters, more than ${MAX_TYPED_CHARACTERS}`,
    });
  return problems.length > 0 ? { problems } : { messages };
}

/** The part of a screen a frame call asks for (all of it by default), or why it is not on it. */
export function frameRegion(
  asked: { x: number; y: number; width?: number; height?: number } | undefined,
  screen: { width: number; height: number },
): { region: Region } | { problems: FieldProblem[] } {
  const { x = 0, y = 0 } = asked ?? {};
  const width = asked?.width ?? screen.width - x;
  const height = asked?.height ?? screen.height - y;
  const problems: FieldProblem[] = [];
  if (x >= screen.width || x + width > screen.width)
    problems.push({
      field: 'region',
      message: `must lie within the screen's width ${screen.width}`,
    });
  if (y >= screen.height || y + height > screen.height)
    problems.push({
      field: 'region',
      message: `must lie within the screen's height ${screen.height}`,
    });
  return problems.length > 0 ? { problems } : { region: { x, y, width, height } };
}

/**
 * What the audit trail keeps of an input call: how many actions of each type and characters
 * typed, and the SHA-256 of the text (each `type` action's text, joined by line breaks), never
 * the text or the keys themselves.
 */
export function inputSummary(actions: unknown) {
  const list = Array.isArray(actions) ? (actions as Partial<InputAction>[]) : [];
  const counts: Record<string, number> = {};
  const texts: string[] = [];
  for (const action of list) {
    const type = typeof action?.type === 'string' ? action.type : 'unknown';
    counts[type] = (counts[type] ?? 0) + 1;
    if (action?.type === 'type' && typeof action.text === 'string') texts.push(action.text);
  }
  const text = texts.join('\n');
  return {
    actions: counts,
    characters: [...text].length - Math.max(0, texts.length - 1),
    text_sha256: texts.length > 0 ? createHash('sha256').update(text).digest('hex') : null,
  };
}
