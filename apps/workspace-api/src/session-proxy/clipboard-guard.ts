import { FrameRewriter } from './frame-rewriter';
import { RfbClientCutter } from './rfb-client-cutter';
import type { ClipboardRefusal } from './rfb-cut-text';
import type { Referee } from './rfb-referee';
import { RfbServerCutter } from './rfb-server-cutter';
import { newStreamState } from './rfb-stream-state';

/** A session's clipboard policy, as the proxy enforces it on the stream. */
export interface ClipboardPolicy {
  allowUp: boolean;
  allowDown: boolean;
  /** Null: no limit. */
  maxBytes: number | null;
}

/** The two rewriters of one WebSocket: the browser's frames, and the container's when read. */
export interface ClipboardGuard {
  fromBrowser: FrameRewriter;
  fromContainer: FrameRewriter | null;
}

/**
 * What enforces `policy` on one session WebSocket; null when it allows everything (the stream
 * is then piped unread, as fast as before). The browser's side is always read under a
 * restriction (its ClientCutText, its SetEncodings); the container's only when down is refused
 * or limited, and then the encodings the client may ask for are those its reader can measure
 * (see docs/decisions/0014-clipboard-on-the-stream.md).
 */
export function createClipboardGuard(
  policy: ClipboardPolicy,
  onRefused: (refusal: ClipboardRefusal) => void,
  referee: Referee | null = null,
): ClipboardGuard | null {
  const { allowUp, allowDown, maxBytes } = policy;
  if (allowUp && allowDown && maxBytes === null && !referee) return null;
  const followServer = !allowDown || maxBytes !== null;
  const stream = newStreamState(followServer);
  const client = new RfbClientCutter(
    { direction: 'up', allowed: allowUp, maxBytes, onRefused },
    stream,
    referee,
  );
  const server = followServer
    ? new RfbServerCutter({ direction: 'down', allowed: allowDown, maxBytes, onRefused }, stream)
    : null;
  const notRfb = () => stream.kind === 'other';
  // A server whose first message is text does not speak RFB (its version comes first).
  const serverText = () => {
    if (stream.kind === 'unknown') stream.kind = 'other';
    return notRfb();
  };
  return {
    fromBrowser: new FrameRewriter(client, () => notRfb() || client.passing),
    fromContainer: server && new FrameRewriter(server, serverText),
  };
}
