import { X509Certificate } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import type { FieldProblem } from '@platform/errors';
import { type EngineAddress, isInsideDir } from './engine-address';

const FILES = [
  ['tls_ca_path', 'tlsCaPath', 'CERTIFICATE'],
  ['tls_cert_path', 'tlsCertPath', 'CERTIFICATE'],
  ['tls_key_path', 'tlsKeyPath', 'PRIVATE KEY'],
] as const;
/** Far above any real PEM chain or key; a bigger file is not one. */
const MAX_PEM_BYTES = 1_048_576;

/**
 * The one answer for a file that cannot be used, whatever the reason (none, a folder, unreadable,
 * not PEM, outside ENGINE_TLS_DIR): a caller learns nothing of the server's other files.
 */
export const TLS_FILE_UNUSABLE = 'names no readable PEM file of its kind inside ENGINE_TLS_DIR';

async function readPem(
  file: string,
  kind: string,
  tlsDir: string,
): Promise<{ pem: Buffer } | { error: string }> {
  try {
    // Nothing outside the folder is looked at; inside it, a link that leads out is refused too.
    if (!isInsideDir(tlsDir, file)) return { error: TLS_FILE_UNUSABLE };
    const real = await realpath(file);
    if (!isInsideDir(await realpath(tlsDir), real)) return { error: TLS_FILE_UNUSABLE };
    const info = await stat(real);
    if (!info.isFile() || info.size > MAX_PEM_BYTES) return { error: TLS_FILE_UNUSABLE };
    const pem = await readFile(real);
    const text = pem.toString('latin1');
    return text.includes('-----BEGIN ') && text.includes(kind)
      ? { pem }
      : { error: TLS_FILE_UNUSABLE };
  } catch {
    return { error: TLS_FILE_UNUSABLE };
  }
}

/**
 * Whether the TLS files of an address (already checked by checkEngineAddress) can be used: each
 * a readable PEM file inside `tlsDir` (ENGINE_TLS_DIR), and the key the certificate's. Checked where an address is accepted, so
 * that a mistake is a 400 and not an agent that is offline later.
 */
export async function tlsFileProblems(
  address: EngineAddress,
  tlsDir: string,
): Promise<FieldProblem[]> {
  if (!address.dockerUrl.startsWith('tcp://') || !address.tlsCaPath) return [];
  const read = await Promise.all(FILES.map(([, key, kind]) => readPem(address[key], kind, tlsDir)));
  const problems = FILES.flatMap(([field], i) => {
    const result = read[i];
    return 'error' in result ? [{ field, message: result.error }] : [];
  });
  if (problems.length > 0) return problems;
  const [ca, cert, key] = read.map((r) => ('pem' in r ? r.pem : Buffer.alloc(0)));
  const usable = (options: Parameters<typeof createSecureContext>[0]) => {
    try {
      createSecureContext(options);
      return true;
    } catch {
      return false;
    }
  };
  const parses = (pem: Buffer) => {
    try {
      return Boolean(new X509Certificate(pem));
    } catch {
      return false;
    }
  };
  if (!parses(ca) || !usable({ ca })) {
    return [{ field: 'tls_ca_path', message: 'holds no usable certificate' }];
  }
  if (!usable({ cert, key })) {
    return [
      {
        field: 'tls_key_path',
        message: 'is not the unencrypted key of the certificate in tls_cert_path',
      },
    ];
  }
  return [];
}
