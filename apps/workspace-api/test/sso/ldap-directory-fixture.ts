import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const BASE_DN = 'dc=example,dc=org';
const ADMIN = { dn: `cn=admin,${BASE_DN}`, password: 'admin-pass' };
export const READER = { dn: `cn=reader,${BASE_DN}`, password: 'reader-pass' };

export interface TestDirectory {
  /** ldap:// (for StartTLS) and ldaps:// URLs of the directory. */
  ldapUrl: string;
  ldapsUrl: string;
  /** The directory's self-signed certificate, the CA the platform is told to trust. */
  caFile: string;
  /** A file holding the reader's (the service account's) password: a secret by reference. */
  readerPasswordFile: string;
  /** Changes the directory as its administrator (ldapmodify). */
  modify(ldif: string): Promise<void>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
      .once('connect', () => resolve(true))
      .once('error', () => resolve(false));
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('close', () => resolve(false));
  });

const slapdConf = (dir: string) => `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
TLSCertificateFile ${dir}/cert.pem
TLSCertificateKeyFile ${dir}/key.pem
database mdb
maxsize 10485760
suffix "${BASE_DN}"
rootdn "${ADMIN.dn}"
rootpw ${ADMIN.password}
directory ${dir}/data
overlay memberof
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="${READER.dn}" read by self read by * none
`;

/** People (password `<uid>-pass-1`), the reader, and the groups devs (dana) and ops (dana, eve). */
export const SEED = `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ou=people,${BASE_DN}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${BASE_DN}
objectClass: organizationalUnit
ou: groups

dn: ${READER.dn}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${READER.password}

dn: uid=dana,ou=people,${BASE_DN}
objectClass: inetOrgPerson
uid: dana
cn: Dana Scully
givenName: Dana
sn: Scully
telephoneNumber: +1 555 0100
o: Example Corp
userPassword: dana-pass-1

dn: uid=eve,ou=people,${BASE_DN}
objectClass: inetOrgPerson
uid: eve
cn: Eve Moneypenny
givenName: Eve
sn: Moneypenny
userPassword: eve-pass-1

dn: cn=devs,ou=groups,${BASE_DN}
objectClass: groupOfNames
cn: devs
member: uid=dana,ou=people,${BASE_DN}

dn: cn=ops,ou=groups,${BASE_DN}
objectClass: groupOfNames
cn: ops
member: uid=dana,ou=people,${BASE_DN}
member: uid=eve,ou=people,${BASE_DN}
`;

/**
 * Debian's OpenLDAP server, private to the test: its own slapd.conf, mdb database, TLS
 * certificate (for 127.0.0.1) and ports in a temporary folder, the memberof overlay, seeded by
 * ldapadd. Stopped by its PID.
 */
export async function startTestDirectory(): Promise<TestDirectory> {
  const dir = await mkdtemp(path.join(tmpdir(), 'test-slapd-'));
  await mkdir(path.join(dir, 'data'));
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ]);
  await writeFile(path.join(dir, 'slapd.conf'), slapdConf(dir));
  await writeFile(path.join(dir, 'reader-password'), `${READER.password}\n`);
  const [ldapPort, ldapsPort] = [await freePort(), await freePort()];
  const urls = `ldap://127.0.0.1:${ldapPort}/ ldaps://127.0.0.1:${ldapsPort}/`;
  // -d 0: in the foreground, so that the child is slapd itself.
  const child: ChildProcess = spawn(
    '/usr/sbin/slapd',
    ['-f', path.join(dir, 'slapd.conf'), '-h', urls, '-d', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (!(await answers(ldapPort)) || !(await answers(ldapsPort))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`slapd did not start (${child.exitCode}): ${said}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ldapUrl = `ldap://127.0.0.1:${ldapPort}`;
  const admin = async (tool: 'ldapadd' | 'ldapmodify', ldif: string) => {
    const file = path.join(dir, `change-${Date.now()}.ldif`);
    await writeFile(file, ldif);
    await run(tool, ['-x', '-H', ldapUrl, '-D', ADMIN.dn, '-w', ADMIN.password, '-f', file]);
  };
  await admin('ldapadd', SEED);
  return {
    ldapUrl,
    ldapsUrl: `ldaps://127.0.0.1:${ldapsPort}`,
    caFile: path.join(dir, 'cert.pem'),
    readerPasswordFile: path.join(dir, 'reader-password'),
    modify: (ldif) => admin('ldapmodify', ldif),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(child.pid!, 'SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
