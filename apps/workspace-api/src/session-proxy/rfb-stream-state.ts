/**
 * What the two sides of one RFB stream learn of it that the other side's reader needs: the
 * version and security type the client chose (the server's replies follow them) and the bytes
 * per pixel of framebuffer updates (the server's pixel format, or the one the client set).
 */
export interface RfbStreamState {
  /** 'other' once the server's first bytes are not an RFB version: nothing is policed then. */
  kind: 'unknown' | 'rfb' | 'other';
  /** The minor version the client answered (3, 7, 8); null until it did. */
  clientMinor: number | null;
  /** The security type the client chose (3.7 on); null until it did. */
  security: number | null;
  /** Bytes per pixel of Raw rectangles and cursors; null until ServerInit. */
  bytesPerPixel: number | null;
  /** Whether the server's updates are read: the client's encodings are then kept to those. */
  followServer: boolean;
}

export const newStreamState = (followServer: boolean): RfbStreamState => ({
  kind: 'unknown',
  clientMinor: null,
  security: null,
  bytesPerPixel: null,
  followServer,
});

export const RFB_VERSION = /^RFB (\d{3})\.(\d{3})\n$/;
export const SECURITY_NONE = 1;
export const SECURITY_VNC = 2;

/** The minor version of an RFB ProtocolVersion message; null when it is none. */
export function rfbMinor(message: Buffer): number | null {
  const match = RFB_VERSION.exec(message.toString('latin1'));
  if (!match || match[1] !== '003') return null;
  return Number(match[2]);
}
