import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundFetch } from '@platform/outbound';
import { RegistryTimeoutError, RegistryTooLargeError, RegistryUnreachableError } from '../errors';
import { fileUrl, type RegistrySource } from './registry-source';

export interface FetchProgress {
  url: string;
  received: number;
  /** From Content-Length or the file size; null when the server does not say. */
  total: number | null;
  done: boolean;
}

export interface FetchOptions {
  /** HTTP(S) that refuses addresses the outbound policy does not allow (see createOutboundFetch). */
  fetch: OutboundFetch;
  timeoutMs: number;
  maxBytes: number;
  onProgress?: (progress: FetchProgress) => void;
}

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

/** Our own errors (they carry a status) pass through; anything else is the network's doing. */
const isDefined = (error: unknown) => error instanceof Error && 'statusCode' in error;

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function fetchHttp(
  url: string,
  { fetch, timeoutMs, maxBytes, onProgress }: FetchOptions,
): Promise<string | null> {
  const controller = new AbortController();
  // Covers the whole transfer, not only the wait for headers: a server that trickles is cut off too.
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  onProgress?.({ url, received: 0, total: null, done: false });
  try {
    const response = await fetch(url, {
      signal: controller.signal,
      headers: { accept: 'application/json, text/plain, */*' },
    });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RegistryUnreachableError(`${url} answered HTTP ${response.status}`);
    }
    const total = Number(response.headers.get('content-length')) || null;
    if (total !== null && total > maxBytes) {
      await response.body?.cancel();
      throw new RegistryTooLargeError(url, maxBytes);
    }
    const chunks: Uint8Array[] = [];
    let received = 0;
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      received += chunk.value.byteLength;
      if (received > maxBytes) {
        controller.abort();
        throw new RegistryTooLargeError(url, maxBytes);
      }
      chunks.push(chunk.value);
      onProgress?.({ url, received, total, done: false });
    }
    onProgress?.({ url, received, total, done: true });
    return decode(Buffer.concat(chunks));
  } catch (error) {
    if (isDefined(error)) throw error;
    if (controller.signal.aborted) throw new RegistryTimeoutError(timeoutMs, url);
    throw new RegistryUnreachableError(`${url} (${causeOf(error)})`);
  } finally {
    clearTimeout(timer);
  }
}

async function readLocal(
  dir: string,
  file: string,
  url: string,
  { maxBytes, onProgress }: FetchOptions,
): Promise<string | null> {
  const full = path.join(dir, file);
  const info = await stat(full).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw new RegistryUnreachableError(`${full} (${error.code ?? error.message})`);
  });
  if (!info?.isFile()) return null;
  if (info.size > maxBytes) throw new RegistryTooLargeError(url, maxBytes);
  const bytes = await readFile(full);
  onProgress?.({ url, received: bytes.byteLength, total: info.size, done: true });
  return decode(bytes);
}

/** Fails unless the registry's location exists at all (a missing directory is unreachable, not empty). */
export async function checkReachable(source: RegistrySource): Promise<void> {
  if (source.kind !== 'local') return;
  const info = await stat(source.dir).catch(() => null);
  if (!info?.isDirectory())
    throw new RegistryUnreachableError(`there is no directory ${source.dir}`);
}

/** One file of the registry as text, or null when the registry has no such file. */
export function fetchRegistryFile(
  source: RegistrySource,
  file: string,
  options: FetchOptions,
): Promise<string | null> {
  const url = fileUrl(source, file);
  return source.kind === 'local'
    ? readLocal(source.dir, file, url, options)
    : fetchHttp(url, options);
}
