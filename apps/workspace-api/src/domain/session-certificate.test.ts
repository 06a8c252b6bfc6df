import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueSessionCertificate } from './session-certificate';

describe('issueSessionCertificate', () => {
  it('makes a self-signed P-256 certificate that Node reads back, signed by the key beside it', () => {
    const { pem, fingerprint } = issueSessionCertificate('session-f00d');
    const cert = new X509Certificate(pem);
    const key = createPrivateKey(pem);
    expect(cert.subject).toBe('CN=session-f00d');
    expect(cert.issuer).toBe('CN=session-f00d');
    expect(cert.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(key)).toBe(true);
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    expect(fingerprint).toBe(cert.fingerprint256.replaceAll(':', '').toLowerCase());
  });

  it('is read and verified by OpenSSL, which websockify and KasmVNC load it with', () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-cert-'));
    try {
      const file = join(dir, 'self.pem');
      writeFileSync(file, issueSessionCertificate('session-f00d').pem);
      expect(execFileSync('openssl', ['verify', '-CAfile', file, file], { encoding: 'utf8' })).toBe(
        `${file}: OK\n`,
      );
      execFileSync('openssl', ['pkey', '-in', file, '-noout']);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('makes a new key and certificate each time', () => {
    const [a, b] = [issueSessionCertificate('s'), issueSessionCertificate('s')];
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(createPrivateKey(a.pem).export({ format: 'der', type: 'pkcs8' })).not.toEqual(
      createPrivateKey(b.pem).export({ format: 'der', type: 'pkcs8' }),
    );
  });
});
