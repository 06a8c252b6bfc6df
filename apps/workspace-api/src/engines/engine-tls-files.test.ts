import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTlsMaterial, type TlsMaterial } from '../../test/tls-material';
import { TLS_FILE_UNUSABLE, tlsFileProblems as problemsIn } from './engine-tls-files';

let tls: TlsMaterial;
beforeAll(async () => {
  tls = await createTlsMaterial();
});
/** The operator's folder is the one the test's files are in. */
const tlsFileProblems = (address: Parameters<typeof problemsIn>[0]) => problemsIn(address, tls.dir);
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

  it('says the same of a file that does not exist, a folder and a file that is not PEM, quoting none', async () => {
    const secret = path.join(tls.dir, 'secret.txt');
    await writeFile(secret, 'root:$6$very-secret-hash:19000:0:99999:7:::\n');
    const problems = await tlsFileProblems(
      address({
        tlsCaPath: path.join(tls.dir, 'absent.pem'),
        tlsCertPath: secret,
        tlsKeyPath: tls.dir,
      }),
    );
    expect(problems).toEqual([
      { field: 'tls_ca_path', message: TLS_FILE_UNUSABLE },
      { field: 'tls_cert_path', message: TLS_FILE_UNUSABLE },
      { field: 'tls_key_path', message: TLS_FILE_UNUSABLE },
    ]);
    expect(JSON.stringify(problems)).not.toContain('very-secret-hash');
  });

  it('reads nothing outside ENGINE_TLS_DIR, directly or through a link, and says so as of any other failure', async () => {
    const inner = await mkdtemp(path.join(tls.dir, 'operator-'));
    const linked = path.join(inner, 'ca.pem');
    await symlink(tls.trusted.ca, linked);
    // A readable, valid CA outside the folder, a link to it, and a file that does not exist.
    for (const tlsCaPath of [tls.trusted.ca, linked, '/etc/passwd', '/nonexistent/ca.pem']) {
      expect(await problemsIn(address({ tlsCaPath }), inner)).toEqual(
        expect.arrayContaining([{ field: 'tls_ca_path', message: TLS_FILE_UNUSABLE }]),
      );
    }
  });

  it('refuses a certificate given as the key, and a key that is not the certificate’s', async () => {
    expect(await tlsFileProblems(address({ tlsKeyPath: tls.trusted.clientCert }))).toEqual([
      { field: 'tls_key_path', message: TLS_FILE_UNUSABLE },
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
      { field: 'tls_ca_path', message: TLS_FILE_UNUSABLE },
    ]);
  });
});
