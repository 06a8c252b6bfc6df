import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTlsMaterial, type TlsMaterial } from '../../test/tls-material';
import { tlsFileProblems } from './engine-tls-files';

let tls: TlsMaterial;
beforeAll(async () => {
  tls = await createTlsMaterial();
});
afterAll(() => tls?.remove());

const address = (
  files: Partial<{ tlsCaPath: string; tlsCertPath: string; tlsKeyPath: string }>,
) => ({
  dockerUrl: 'tcp://127.0.0.1:2376',
  tlsCaPath: tls.trusted.ca,
  tlsCertPath: tls.trusted.clientCert,
  tlsKeyPath: tls.trusted.clientKey,
  ...files,
});

describe('tlsFileProblems', () => {
  it('accepts a readable CA, client certificate and its key', async () => {
    expect(await tlsFileProblems(address({}))).toEqual([]);
  });

  it('checks nothing for an address without TLS', async () => {
    expect(
      await tlsFileProblems({
        ...address({}),
        dockerUrl: 'unix:///var/run/docker.sock',
        tlsCaPath: '',
      }),
    ).toEqual([]);
  });

  it('names each file that does not exist or is a folder', async () => {
    const problems = await tlsFileProblems(
      address({ tlsCaPath: path.join(tls.dir, 'absent.pem'), tlsKeyPath: tls.dir }),
    );
    expect(problems).toEqual([
      { field: 'tls_ca_path', message: 'names no file' },
      { field: 'tls_key_path', message: 'is not a file' },
    ]);
  });

  it('refuses a file that is not PEM, without quoting it', async () => {
    const secret = path.join(tls.dir, 'secret.txt');
    await writeFile(secret, 'root:$6$very-secret-hash:19000:0:99999:7:::\n');
    const problems = await tlsFileProblems(address({ tlsCertPath: secret }));
    expect(problems).toEqual([
      { field: 'tls_cert_path', message: 'is not a PEM file holding a certificate' },
    ]);
    expect(JSON.stringify(problems)).not.toContain('very-secret-hash');
  });

  it('refuses a certificate given as the key, and a key that is not the certificate’s', async () => {
    expect(await tlsFileProblems(address({ tlsKeyPath: tls.trusted.clientCert }))).toEqual([
      { field: 'tls_key_path', message: 'is not a PEM file holding a private key' },
    ]);
    expect(await tlsFileProblems(address({ tlsKeyPath: tls.other.clientKey }))).toEqual([
      {
        field: 'tls_key_path',
        message: 'is not the unencrypted key of the certificate in tls_cert_path',
      },
    ]);
  });

  it('refuses a CA file that holds no usable certificate', async () => {
    const broken = path.join(tls.dir, 'broken-ca.pem');
    await writeFile(
      broken,
      '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n',
    );
    expect(await tlsFileProblems(address({ tlsCaPath: broken }))).toEqual([
      { field: 'tls_ca_path', message: 'holds no usable certificate' },
    ]);
  });

  it('says a file the service cannot read cannot be read', async () => {
    // Root reads any file whatever its mode; a link loop cannot be read by anyone.
    const looped = path.join(tls.dir, 'loop.pem');
    await symlink(looped, looped);
    expect(await tlsFileProblems(address({ tlsCaPath: looped }))).toEqual([
      { field: 'tls_ca_path', message: 'cannot be read by the service' },
    ]);
  });
});
