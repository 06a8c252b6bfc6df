import type { FetchProgress } from './registry-fetch';

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** One line describing a fetch in flight or finished, e.g. `fetching …/list.json  12.3 kB of 20.0 kB (61%)`. */
export function formatProgress({ url, received, total, done }: FetchProgress): string {
  if (done) return `fetched  ${url}  ${formatBytes(received)}`;
  if (received === 0) return `fetching ${url} ...`;
  if (total === null) return `fetching ${url}  ${formatBytes(received)}`;
  return `fetching ${url}  ${formatBytes(received)} of ${formatBytes(total)} (${Math.floor((received / total) * 100)}%)`;
}

/**
 * Shows fetch progress on a stream (the CLI's stderr): on a terminal one line updated in place,
 * elsewhere (logs, pipes) only the finished fetches, one line each.
 */
export function progressPrinter(stream: { write: (s: string) => unknown; isTTY?: boolean }) {
  return (progress: FetchProgress) => {
    if (stream.isTTY)
      stream.write(`\r\x1b[K${formatProgress(progress)}${progress.done ? '\n' : ''}`);
    else if (progress.done) stream.write(`${formatProgress(progress)}\n`);
  };
}
