// X keysyms (X11's keysymdef.h) for what a program types and presses. A VNC server turns each
// keysym into a key of its keyboard map, adding Shift where the symbol needs it.

const NAMED: Record<string, number> = {
  backspace: 0xff08,
  tab: 0xff09,
  return: 0xff0d,
  enter: 0xff0d,
  pause: 0xff13,
  scroll_lock: 0xff14,
  escape: 0xff1b,
  esc: 0xff1b,
  home: 0xff50,
  left: 0xff51,
  up: 0xff52,
  right: 0xff53,
  down: 0xff54,
  page_up: 0xff55,
  page_down: 0xff56,
  end: 0xff57,
  print: 0xff61,
  insert: 0xff63,
  menu: 0xff67,
  num_lock: 0xff7f,
  caps_lock: 0xffe5,
  delete: 0xffff,
  space: 0x20,
  plus: 0x2b,
  shift: 0xffe1,
  shift_l: 0xffe1,
  shift_r: 0xffe2,
  ctrl: 0xffe3,
  control: 0xffe3,
  control_l: 0xffe3,
  control_r: 0xffe4,
  meta: 0xffe7,
  alt: 0xffe9,
  alt_l: 0xffe9,
  alt_r: 0xffea,
  super: 0xffeb,
  super_l: 0xffeb,
  super_r: 0xffec,
  win: 0xffeb,
  cmd: 0xffeb,
};
for (let n = 1; n <= 12; n++) NAMED[`f${n}`] = 0xffbe + n - 1;

/**
 * The keysym of one character: Latin-1 characters are their own keysym, a line break is Return
 * and a tab Tab, every other character its Unicode keysym (0x01000000 + code point); null for
 * control characters, which no key types.
 */
export function keysymOfChar(char: string): number | null {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n') return NAMED.return;
  if (char === '\t') return NAMED.tab;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return null;
  if (code <= 0xff) return code;
  return 0x01000000 + code;
}

/** The keysyms `text` types, one per character (a CR LF pair is one Return), or the first bad character's index. */
export function keysymsOfText(text: string): { keysyms: number[] } | { badAt: number } {
  const keysyms: number[] = [];
  const chars = [...text.replace(/\r\n?/g, '\n')];
  for (let i = 0; i < chars.length; i++) {
    const keysym = keysymOfChar(chars[i]);
    if (keysym === null) return { badAt: i };
    keysyms.push(keysym);
  }
  return { keysyms };
}

/**
 * The keys of a chord such as `ctrl+alt+Delete`, `Return` or `shift+F10`, in the order they are
 * pressed (released in reverse): names as X spells them, any case (`Page_Down`, `ctrl`, `super`),
 * or one character (`ctrl+c`, `ctrl++`). Null when a part names no key.
 */
export function keysymsOfChord(keys: string): number[] | null {
  const parts =
    keys === '+'
      ? ['+']
      : keys.endsWith('++')
        ? [...keys.slice(0, -2).split('+'), '+']
        : keys.split('+');
  const keysyms: number[] = [];
  for (const part of parts) {
    const named = NAMED[part.toLowerCase()];
    const single = [...part].length === 1 ? keysymOfChar(part) : null;
    const keysym = named ?? single;
    if (keysym === undefined || keysym === null) return null;
    keysyms.push(keysym);
  }
  return keysyms;
}
