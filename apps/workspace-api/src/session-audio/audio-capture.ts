import type { Engine, ExecOutput } from '../engines';
import { SessionAudioUnavailableError } from '../errors';

/** What the browser receives: signed 16-bit little-endian PCM, interleaved, at this rate. */
export const AUDIO_RATE = 48_000;
export const AUDIO_FORMAT = 's16le' as const;
/** parec's fragment: how much sound waits in the container before it is sent. */
const CAPTURE_LATENCY_MS = 20;
/** How long the first sound may take to come (the null sink's monitor sends silence at once). */
const FIRST_SOUND_MS = 5_000;
const NO_PAREC = 20;

// Run in the session's container as the image's own user: PulseAudio's recorder on the monitor
// of the default sink (the desktop's output). Our images point every client at their server
// (client.conf.d); Kasm's images run PulseAudio for their user and name its runtime folder in
// their environment, which an exec inherits. Values travel in environment variables.
// The capture ends when the platform closes the command's input (or its connection drops), and
// the command ends with the capture. The watcher reads the input through fd 3 (a job in the
// background gets /dev/null as its stdin) and holds none of the output, so that its end is seen.
const CAPTURE_SCRIPT = `command -v parec >/dev/null 2>&1 || exit ${NO_PAREC}
exec 3<&0
parec --raw --format=${AUDIO_FORMAT} --rate="$RATE" --channels="$CHANNELS" \\
  --latency-msec="$LATENCY" --device=@DEFAULT_MONITOR@ \\
  --client-name=workspace-platform --stream-name=browser &
capture=$!
{ cat <&3 >/dev/null; kill "$capture"; } >/dev/null 2>&1 &
watcher=$!
wait "$capture"; status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

/** A running capture: its first bytes, the rest as they come, and the way to end it. */
export interface AudioCapture {
  first: Buffer;
  output: ExecOutput;
  /** Bytes per frame (one sample of every channel). */
  frameBytes: number;
}

/**
 * Starts recording the session's sound and waits for its first bytes, so that a session that
 * cannot play sound is refused with a reason (409) before any WebSocket is opened: no parec in
 * the image, no sound server running for its user.
 */
export async function startCapture(
  engine: Engine,
  containerId: string,
  channels: 1 | 2,
): Promise<AudioCapture> {
  const output = await engine.execOutput(containerId, {
    cmd: CAPTURE_SCRIPT,
    env: {
      RATE: String(AUDIO_RATE),
      CHANNELS: String(channels),
      LATENCY: String(CAPTURE_LATENCY_MS),
    },
  });
  const first = await firstBytes(output);
  if (first) return { first, output, frameBytes: 2 * channels };
  await output.stop();
  const { exitCode } = await output.ended;
  throw new SessionAudioUnavailableError(
    exitCode === NO_PAREC
      ? "The session's image has no parec (PulseAudio's recorder): it cannot play sound here"
      : "The session's desktop runs no sound server the platform can record (PulseAudio)",
  );
}

/** The first chunk of stdout, or null when the command ended (or stayed silent) first. */
function firstBytes(output: ExecOutput): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (chunk: Buffer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      output.stdout.removeListener('data', onData);
      output.stdout.pause();
      resolve(chunk);
    };
    const onData = (chunk: Buffer) => done(chunk);
    const timer = setTimeout(() => done(null), FIRST_SOUND_MS);
    output.stdout.on('data', onData);
    void output.ended.then(() => done(null));
  });
}

/**
 * Cuts a byte stream into whole frames: what is left of a frame waits for the next chunk, so
 * that every message the browser gets holds whole samples of every channel.
 */
export function frameAligner(frameBytes: number) {
  let rest = Buffer.alloc(0);
  return (chunk: Buffer): Buffer => {
    const all = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    const whole = all.length - (all.length % frameBytes);
    rest = Buffer.from(all.subarray(whole));
    return all.subarray(0, whole);
  };
}
