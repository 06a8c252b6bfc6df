import type { Harness } from '../harness';
import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { VALID_PASSWORD } from '../factories';
import { signIn, webClient, type WebClient } from '../web/web-client';

/** A person in a group granting `permissions` (Administrators for global_admin), signed in. */
export async function signedInWith(
  h: Harness,
  permissions: string[],
  username = `admin-${permissions.join('-').replace(/[^a-z]/g, '')}`.slice(0, 60),
): Promise<{ client: WebClient; user: { user_id: string; username: string } }> {
  const groupId =
    permissions.length === 1 && permissions[0] === 'global_admin'
      ? ADMINISTRATORS
      : (await createGroup(h, { name: `Group of ${username}`, permissions })).group_id;
  const user = await createMember(h, groupId, username);
  const client = webClient(h);
  const res = await signIn(client, username, VALID_PASSWORD);
  expect(res.statusCode).toBe(303);
  return { client, user };
}

/** Posts a console form with the CSRF token of the client's last page. */
export async function submit(client: WebClient, page: string, url: string, form = {}) {
  await client.get(page);
  return client.post(url, { ...form, _csrf: client.csrf() });
}
