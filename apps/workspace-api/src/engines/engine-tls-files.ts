import { X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import type { FieldProblem } from '@platform/errors';
import type { EngineAddress } from './engine-address';

const FILES = [
  ['tls_ca_path', 'tlsCaPath', 'CERTIFICATE'],
  ['tls_cert_path', 'tlsCertPath', 'CERTIFICATE'],
  ['tls_key_path', 'tlsKeyPath', 'PRIVATE KEY'],
] as const;
/** Far above any real PEM chain or key; a bigger file is not one. */
const MAX_PEM_BYTES = 1_048_576;

async function readPem(file: string, kind: string): Promise<{ pem: Buffer } | { error: string }> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { error: 'is not a file' };
    if (info.size > MAX_PEM_BYTES) return { error: 'is too large to be a PEM file' };
    const pem = await readFile(file);
    // The words only, never the content: the file may be anything the service can read.
    if (!pem.toString('latin1').includes(`-----BEGIN `) || !pem.toString('latin1').includes(kind)) {
      return { error: `is not a PEM file holding a ${kind.toLowerCase()}` };
    }
    return { pem };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { error: code === 'ENOENT' ? 'names no file' : 'cannot be read by the service' };
  }
}

/**
 * Whether the TLS files of an address (already checked by checkEngineAddress) can be used: each
 * a readable PEM file, and the key the certificate's. Checked where an address is accepted, so
 * that a mistake is a 400 and not an agent that is offline later.
 */
export async function tlsFileProblems(address: EngineAddress): Promise<FieldProblem[]> {
  if (!address.dockerUrl.startsWith('tcp://') || !address.tlsCaPath) return [];
  const read = await Promise.all(FILES.map(([, key, kind]) => readPem(address[key], kind)));
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
