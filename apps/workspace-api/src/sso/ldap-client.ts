import { readFile } from 'node:fs/promises';
import { isIP, connect as netConnect } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { Client, Filter, InvalidCredentialsError, ResultCodeError, type Entry } from 'ldapts';
import type { LdapSettings } from './ldap-settings';
import { readSecret } from './sso-secrets';
import { isSsoRefusal, ssoRefusal } from './sso-refusal';
import type { DirectoryIdentity } from './sso-sign-in';

/** Characters that only an attempt at LDAP filter injection puts in a username. */
const FILTER_SYNTAX = /[*()\\\0]/;

/** The user's search: `{username}` replaced by the name, escaped (RFC 4515) by the library. */
export function userFilter(template: string, username: string): string {
  return template.split('{username}').join(Filter.escape(username));
}

/** The names a group mapping can match: each group's DN and its first RDN's value (cn=devs,… → devs). */
export function groupNames(dns: readonly string[]): string[] {
  const names = new Set<string>();
  for (const dn of dns) {
    names.add(dn);
    const rdn = /^[^=,]+=((?:\\.|[^,\\+])*)/.exec(dn)?.[1];
    if (rdn) names.add(rdn.replace(/\\(.)/g, '$1').trim());
  }
  return [...names];
}

const values = (entry: Entry, attribute: string): string[] => {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? [] : entry[key];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : String(v)));
};
const first = (entry: Entry, attribute: string, max = 64) =>
  (values(entry, attribute)[0] ?? '').slice(0, max);

/** What the directory's answer means for a sign-in: a refusal with its reason. */
function reasonOf(error: unknown, step: string) {
  const detail = `${step}: ${error instanceof Error ? error.message : String(error)}`;
  if (error instanceof ResultCodeError) return ssoRefusal('SSO_PROVIDER_ERROR', detail);
  return ssoRefusal('SSO_DIRECTORY_UNREACHABLE', detail);
}

/**
 * A client on one TLS-protected connection: LDAPS, or ldap:// upgraded by StartTLS before any
 * bind. Plain ldap:// only with allow_plain. The client may open its connection only once, so a
 * dropped StartTLS connection is never silently reopened in clear.
 */
async function connect(settings: LdapSettings): Promise<Client> {
  const url = new URL(settings.url);
  const secure = url.protocol === 'ldaps:';
  if (!secure && !settings.start_tls && !settings.allow_plain)
    throw ssoRefusal(
      'SSO_DIRECTORY_INSECURE',
      'ldap:// without start_tls: set allow_plain for a lab, or use ldaps:// or start_tls',
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const tls: ConnectionOptions = {
    host,
    ...(isIP(host) ? {} : { servername: host }),
    minVersion: 'TLSv1.2',
    ...(settings.ca_file ? { ca: await readFile(settings.ca_file, 'utf8') } : {}),
  };
  let opened = 0;
  const once = <T>(open: () => T): T => {
    if ((opened += 1) > 1) throw new Error('the connection to the directory was lost');
    return open();
  };
  const client = new Client({
    url: settings.url,
    timeout: settings.timeout_ms,
    connectTimeout: settings.timeout_ms,
    // Given for ldap:// too, ldapts would speak TLS at once instead of StartTLS.
    ...(secure ? { tlsOptions: tls } : {}),
    createConnection: ((...args: Parameters<typeof netConnect>) =>
      once(() => netConnect(...args))) as typeof netConnect,
    createSecureConnection: ((...args: Parameters<typeof tlsConnect>) =>
      secure ? once(() => tlsConnect(...args)) : tlsConnect(...args)) as typeof tlsConnect,
  });
  if (!secure && settings.start_tls)
    await client.startTLS(tls).catch((error: unknown) => {
      void client.unbind().catch(() => undefined);
      throw reasonOf(error, 'StartTLS');
    });
  return client;
}

async function serviceBind(client: Client, settings: LdapSettings) {
  if (!settings.bind_dn) return;
  if (!settings.bind_password)
    throw ssoRefusal('SSO_SECRET_MISSING', 'bind_dn is set without bind_password');
  const secret = await readSecret(settings.bind_password);
  if ('problem' in secret) throw ssoRefusal('SSO_SECRET_MISSING', secret.problem);
  await client.bind(settings.bind_dn, secret.value).catch((error: unknown) => {
    throw reasonOf(error, 'the service account bind (bind_dn)');
  });
}

async function findUser(client: Client, settings: LdapSettings, username: string) {
  const attributes = [
    settings.username_attribute,
    settings.subject_attribute,
    settings.first_name_attribute,
    settings.last_name_attribute,
    settings.phone_attribute,
    settings.organization_attribute,
    settings.groups_attribute,
  ];
  const { searchEntries } = await client
    .search(settings.base_dn, {
      scope: 'sub',
      filter: userFilter(settings.user_filter, username),
      attributes,
      sizeLimit: 2,
      explicitBufferAttributes: ['objectGUID'],
    })
    .catch((error: unknown) => {
      throw reasonOf(error, 'the user search');
    });
  if (searchEntries.length === 0)
    throw ssoRefusal('SSO_USER_NOT_FOUND', `no entry under ${settings.base_dn} matches`);
  if (searchEntries.length > 1)
    throw ssoRefusal('SSO_USER_NOT_FOUND', 'more than one entry matches the user filter');
  return searchEntries[0];
}

async function groupsOf(client: Client, settings: LdapSettings, entry: Entry) {
  if (!settings.group_search) return groupNames(values(entry, settings.groups_attribute));
  const { base_dn: base, filter } = settings.group_search;
  const { searchEntries } = await client
    .search(base, {
      scope: 'sub',
      filter: filter.split('{dn}').join(Filter.escape(entry.dn)),
      attributes: ['cn'],
    })
    .catch((error: unknown) => {
      throw reasonOf(error, 'the group search');
    });
  return groupNames(searchEntries.map((group) => group.dn));
}

/**
 * Checks a username and password against the directory: the user found by the configured
 * filter (as the service account, or anonymously), then a simple bind as that user's DN with the
 * password; their fields and groups read from the entry (or a group search).
 */
export async function ldapIdentity(
  settings: LdapSettings,
  username: string,
  password: string,
): Promise<DirectoryIdentity> {
  if (FILTER_SYNTAX.test(username))
    throw ssoRefusal('SSO_USERNAME_INJECTION', 'the username holds LDAP filter syntax');
  // An empty password is an unauthenticated bind, which directories answer with success.
  if (password === '') throw ssoRefusal('SSO_CREDENTIALS', 'an empty password');
  const client = await connect(settings).catch((error: unknown) => {
    throw isSsoRefusal(error) ? error : reasonOf(error, 'connecting');
  });
  try {
    await serviceBind(client, settings);
    const entry = await findUser(client, settings, username);
    // Read while still the service account: the user may not be allowed to read groups.
    const groups = await groupsOf(client, settings, entry);
    await client.bind(entry.dn, password).catch((error: unknown) => {
      if (error instanceof InvalidCredentialsError)
        throw ssoRefusal('SSO_CREDENTIALS', `the bind as ${entry.dn} was refused`);
      throw reasonOf(error, 'the bind as the user');
    });
    const [subject] = values(entry, settings.subject_attribute);
    const name = first(entry, settings.username_attribute, 256);
    if (!subject) throw ssoRefusal('SSO_PROVIDER_ERROR', `no ${settings.subject_attribute}`);
    if (!name) throw ssoRefusal('SSO_USERNAME_MISSING', `no ${settings.username_attribute}`);
    return {
      subject,
      fields: {
        username: name,
        firstName: first(entry, settings.first_name_attribute),
        lastName: first(entry, settings.last_name_attribute),
        phone: first(entry, settings.phone_attribute),
        organization: first(entry, settings.organization_attribute),
      },
      groups,
    };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
