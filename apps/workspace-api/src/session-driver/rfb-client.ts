import {
  type DisplayStream,
  MAX_SCREEN_PIXELS,
  pixelFormat32,
  ScreenUnreadableError,
  setEncodings,
  updateRequest,
} from '../sessions';

const ENCODING_RAW = 0;
const ENCODING_COPY_RECT = 1;
const PSEUDO_DESKTOP_SIZE = -223;

/** The screen as the stream last drew it: 4 bytes a pixel, blue, green, red, unused. */
export interface Framebuffer {
  width: number;
  height: number;
  bgrx: Buffer;
}

/**
 * A program's client on a session's VNC stream (opened by sessions' display-stream.ts). It keeps
 * a copy of the screen up to date as noVNC does: one incremental update request always pending,
 * sent again as each update has been read, so the copy follows the screen within a round trip
 * and reading a frame costs no wait. Only Raw and CopyRect are asked for (with DesktopSize): the
 * server spends no CPU compressing, and after the first full screen the updates are the small
 * regions that changed. The server draws the pointer into the updates it sends, since this
 * client takes no cursor shape of its own.
 */
export function startRfbClient(
  display: DisplayStream,
  onEnd: (error: Error) => void,
  options: RfbClientOptions = {},
) {
  const { ws } = display;
  const captured: Buffer[] = [];
  const { onMessage } = options;
  const reader = onMessage
    ? {
        read: async (n: number) => {
          const bytes = await display.reader.read(n);
          captured.push(Buffer.from(bytes));
          return bytes;
        },
      }
    : display.reader;
  const messageRead = () => {
    if (!onMessage) return;
    onMessage(Buffer.concat(captured));
    captured.length = 0;
  };
  let screen: Framebuffer = {
    width: display.width,
    height: display.height,
    bgrx: Buffer.alloc(display.width * display.height * 4),
  };
  let updating: Promise<void> | null = null;
  let ready!: () => void;
  const firstFrame = new Promise<void>((resolve) => (ready = resolve));
  let ended: Error | null = null;

  const send = (message: Buffer) =>
    new Promise<void>((resolve, reject) =>
      ws.send(message, (error) =>
        error ? reject(new ScreenUnreadableError('The display closed its stream')) : resolve(),
      ),
    );

  async function readUpdate(): Promise<void> {
    const rects = (await reader.read(3)).readUInt16BE(1);
    let resized = false;
    for (let i = 0; i < rects; i++) {
      const rect = await reader.read(12);
      const [x, y, w, h] = [0, 2, 4, 6].map((at) => rect.readUInt16BE(at));
      const encoding = rect.readInt32BE(8);
      // A rectangle off the screen (or a screen too large) would have the service buffer it.
      const fits =
        encoding === PSEUDO_DESKTOP_SIZE
          ? w * h <= MAX_SCREEN_PIXELS
          : x + w <= screen.width && y + h <= screen.height;
      if (!fits) throw new ScreenUnreadableError('The VNC server sent a rectangle off its screen');
      if (encoding === PSEUDO_DESKTOP_SIZE) {
        screen = { width: w, height: h, bgrx: Buffer.alloc(w * h * 4) };
        resized = true;
      } else if (encoding === ENCODING_RAW) {
        const pixels = await reader.read(w * h * 4);
        for (let row = 0; row < h && y + row < screen.height; row++) {
          const width = Math.min(w, screen.width - x) * 4;
          if (width > 0)
            pixels.copy(
              screen.bgrx,
              ((y + row) * screen.width + x) * 4,
              row * w * 4,
              row * w * 4 + width,
            );
        }
      } else if (encoding === ENCODING_COPY_RECT) {
        const source = await reader.read(4);
        copyRect(screen, source.readUInt16BE(0), source.readUInt16BE(2), x, y, w, h);
      } else {
        throw new ScreenUnreadableError('The VNC server sent an encoding it was not asked for');
      }
    }
    // After a resize the whole new screen is asked for; otherwise only what changes from now on.
    ws.send(updateRequest(!resized, screen.width, screen.height));
  }

  async function run(): Promise<void> {
    ws.send(options.pixelFormat ?? pixelFormat32());
    ws.send(setEncodings([ENCODING_COPY_RECT, ENCODING_RAW, PSEUDO_DESKTOP_SIZE]));
    ws.send(updateRequest(false, screen.width, screen.height));
    for (;;) {
      const type = (await reader.read(1))[0];
      if (type === 0) {
        updating = readUpdate();
        await updating;
        updating = null;
        messageRead();
        ready();
        continue;
      } else if (type === 1) await reader.read((await reader.read(5)).readUInt16BE(3) * 6);
      else if (type === 3) await reader.read((await reader.read(7)).readUInt32BE(3));
      else if (type !== 2) throw new ScreenUnreadableError(`Unexpected VNC message ${type}`);
      messageRead();
    }
  }

  run().catch((error: Error) => {
    ended = error;
    ws.terminate();
    ready();
    onEnd(error);
  });

  return {
    /** The screen copy as of the last whole message (for a recording's keyframe). */
    get screen(): Framebuffer {
      return screen;
    },
    get width() {
      return screen.width;
    },
    get height() {
      return screen.height;
    },
    get ended() {
      return ended !== null;
    },
    /** Resolves once the first whole screen has been read; fails if the stream ended first. */
    async ready(): Promise<void> {
      await firstFrame;
      if (ended) throw ended;
    },
    /** The screen as of the last whole update (one being read is waited for). */
    async frame(): Promise<Framebuffer> {
      await firstFrame;
      await updating;
      if (ended) throw ended;
      return screen;
    },
    /** Sends input messages (KeyEvent, PointerEvent) in one piece: no other call's come between. */
    async send(messages: Buffer): Promise<void> {
      if (ended) throw ended;
      await send(messages);
    },
    close(): void {
      ws.terminate();
    },
  };
}
export type RfbClient = ReturnType<typeof startRfbClient>;

export interface RfbClientOptions {
  /** SetPixelFormat to ask for instead of pixelFormat32() (the screen copy keeps its bytes). */
  pixelFormat?: Buffer;
  /** Told of each whole server message as it came, once the screen copy holds it (recordings). */
  onMessage?: (message: Buffer) => void;
}

/** CopyRect: a region moved within the screen (the source read whole first: they may overlap). */
function copyRect(
  screen: Framebuffer,
  sx: number,
  sy: number,
  x: number,
  y: number,
  w: number,
  h: number,
) {
  const rowBytes = Math.min(w, screen.width - x, screen.width - sx) * 4;
  if (rowBytes <= 0) return;
  const rows: Buffer[] = [];
  for (let row = 0; row < h && sy + row < screen.height; row++) {
    const from = ((sy + row) * screen.width + sx) * 4;
    rows.push(Buffer.from(screen.bgrx.subarray(from, from + rowBytes)));
  }
  rows.forEach((data, row) => {
    if (y + row < screen.height) data.copy(screen.bgrx, ((y + row) * screen.width + x) * 4);
  });
}
