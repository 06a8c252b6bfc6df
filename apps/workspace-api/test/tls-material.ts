import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** PEM files of one certificate authority's world: the CA, a server certificate for 127.0.0.1, a client certificate. */
export interface TlsWorld {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export interface TlsMaterial {
  dir: string;
  /** The engine's CA: it signed the server's and the service's certificates. */
  trusted: TlsWorld;
  /** Another CA, with certificates of its own: what an impostor engine or client would hold. */
  other: TlsWorld;
  remove: () => Promise<void>;
}

const openssl = (dir: string, args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function world(dir: string, name: string): TlsWorld {
  const file = (f: string) => path.join(dir, `${name}-${f}`);
  openssl(dir, [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    `/CN=${name} test CA`,
  ]);
  const sign = (role: string, extensions: string) => {
    openssl(dir, [
      'req',
      ...EC,
      '-keyout',
      file(`${role}.key`),
      '-out',
      file(`${role}.csr`),
      '-subj',
      `/CN=${name} ${role}`,
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      file(`${role}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(`${role}.pem`),
      '-days',
      '2',
      '-extfile',
      path.join(dir, extensions),
    ]);
  };
  sign('server', 'server.cnf');
  sign('client', 'client.cnf');
  return {
    ca: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
  };
}

/** Two certificate authorities made with openssl in a temp folder (≈ 0.5 s); `remove` deletes it. */
export async function createTlsMaterial(): Promise<TlsMaterial> {
  const dir = await mkdtemp(path.join(tmpdir(), 'engine-tls-'));
  await writeFile(
    path.join(dir, 'server.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  await writeFile(path.join(dir, 'client.cnf'), 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    trusted: world(dir, 'trusted'),
    other: world(dir, 'other'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
