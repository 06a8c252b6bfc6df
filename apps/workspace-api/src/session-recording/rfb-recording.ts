import type { Framebuffer } from '../session-driver';

/**
 * The RFB bytes a recording is made of beyond what the server sent: the handshake a player's
 * client expects before the server's messages, and keyframes (a whole screen as one update).
 */

/**
 * SetPixelFormat the recorder asks for: 32 bits, little-endian, red in the lowest byte (red,
 * green, blue, unused in memory), the format noVNC's decoders draw without converting.
 */
export function pixelFormatRgbx(): Buffer {
  const format = Buffer.alloc(20);
  format.set([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 0, 8, 16], 4);
  return format;
}

/** RFB 3.8, security None, ServerInit of that pixel format: what a player connects through. */
export function playbackHandshake(width: number, height: number, name = 'recording'): Buffer {
  const title = Buffer.from(name, 'utf8');
  const init = Buffer.alloc(24);
  init.writeUInt16BE(width, 0);
  init.writeUInt16BE(height, 2);
  pixelFormatRgbx().copy(init, 4, 4, 20);
  init.writeUInt32BE(title.length, 20);
  const security = Buffer.from([1, 1, 0, 0, 0, 0]);
  return Buffer.concat([Buffer.from('RFB 003.008\n', 'latin1'), security, init, title]);
}

/** A FramebufferUpdate of the whole screen: DesktopSize, then every pixel as Raw. */
export function keyframeUpdate(screen: Framebuffer): Buffer {
  const head = Buffer.alloc(4 + 12 + 12);
  head[0] = 0;
  head.writeUInt16BE(2, 2);
  head.writeUInt16BE(screen.width, 4 + 4);
  head.writeUInt16BE(screen.height, 4 + 6);
  head.writeInt32BE(-223, 4 + 8);
  head.writeUInt16BE(screen.width, 16 + 4);
  head.writeUInt16BE(screen.height, 16 + 6);
  head.writeInt32BE(0, 16 + 8);
  return Buffer.concat([head, screen.bgrx]);
}

/** The input a viewer sent, by RFB client message type: key events are kept only when allowed. */
export function inputKind(message: Buffer): 'key' | 'pointer' | null {
  if (message[0] === 4 || message[0] === 255) return 'key';
  if (message[0] === 5) return 'pointer';
  return null;
}
