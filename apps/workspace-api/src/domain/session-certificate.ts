import { createHash, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

/**
 * A session's own TLS identity: made by the platform for each session, handed to its container
 * before it starts, and pinned by its SHA-256 fingerprint. Node signs but has no API that writes a
 * certificate, so the few DER structures of one self-signed ECDSA P-256 certificate are written
 * here: nothing checks its name, issuer or dates (the pin is the whole of the trust), and Node's
 * own parser and OpenSSL read it back in the tests.
 */
export interface SessionCertificate {
  /** The certificate and its private key, PEM, one after the other (as websockify and KasmVNC read). */
  pem: string;
  /** SHA-256 of the certificate's DER, 64 lowercase hex characters: what is stored and checked. */
  fingerprint: string;
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const sequence = (...content: Buffer[]) => tlv(0x30, ...content);
const oid = (hex: string) => tlv(0x06, Buffer.from(hex, 'hex'));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
const time = (date: Date) => {
  const digits = date.toISOString().replace(/[-:T]|\.\d+/g, '');
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii'))
    : tlv(0x18, Buffer.from(digits, 'ascii'));
};

const ECDSA_WITH_SHA256 = sequence(oid('2a8648ce3d040302'));
const COMMON_NAME = '550403';

const pem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .replace(/\n?$/, '\n')}-----END ${label}-----\n`;

/** A new key and self-signed certificate for `commonName`, valid from an hour ago for `days`. */
export function issueSessionCertificate(commonName: string, days = 3650): SessionCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x40; // positive, and minimal (DER) without a leading zero
  const name = sequence(tlv(0x31, sequence(oid(COMMON_NAME), utf8(commonName.slice(0, 64)))));
  const from = new Date(Date.now() - 3600_000);
  const until = new Date(from.getTime() + days * 86_400_000);
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version 3
    tlv(0x02, serial),
    ECDSA_WITH_SHA256,
    name,
    sequence(time(from), time(until)),
    name,
    publicKey.export({ format: 'der', type: 'spki' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ECDSA_WITH_SHA256, tlv(0x03, Buffer.from([0]), signature));
  const key = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  return { pem: pem('CERTIFICATE', der) + key, fingerprint: fingerprintOf(der) };
}

/** The pin of a certificate: SHA-256 of its DER, lowercase hex. */
export const fingerprintOf = (der: Buffer): string =>
  createHash('sha256').update(der).digest('hex');

/** The pin of the certificate a peer presented (Node's X509Certificate), or null for none. */
export const peerFingerprint = (cert: X509Certificate | undefined): string | null =>
  cert ? fingerprintOf(cert.raw) : null;
