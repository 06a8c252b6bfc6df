import { createHarness, type Harness } from '../harness';
import { seedFleet } from '../kasm-factories';
import { signedInWith } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedFleet(h);
});
afterAll(() => h?.close());

/** The page's text, tags dropped and spaces folded, to read as a person does. */
const textOf = (body: string) =>
  body
    .replace(/<title[^>]*>[^<]*<\/title>/g, ' ')
    .replace(/<\/?(strong|small|span)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
/** The bar list items whose name starts with `name`: their text, as one reads the row. */
const rowOf = (text: string, name: string) => {
  const at = text.indexOf(` ${name} `);
  if (at < 0) throw new Error(`no row ${name} in ${text}`);
  return text.slice(at, at + 80);
};

describe('the console overview', () => {
  it('is where /admin leads a person who may view sessions, with live sessions by workspace and agent, the oldest by name, and the last day', async () => {
    const { client } = await signedInWith(h, ['global_admin'], 'root');
    const home = await client.get('/admin');
    expect(home.headers.location).toBe('/admin/overview');
    const page = await client.get('/admin/overview');
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);

    expect(text).toContain(
      '5 live: 1 active, 1 idle, 1 starting, 1 paused or stopped, 1 staged, no user yet.',
    );
    const byWorkspace = text.slice(text.indexOf('By workspace'), text.indexOf('By agent'));
    expect(rowOf(byWorkspace, 'Desk')).toMatch(
      /^ Desk 3 1 active, 1 starting, 1 paused or stopped /,
    );
    expect(rowOf(byWorkspace, 'Code')).toMatch(/^ Code 2 1 idle, 1 staged, no user yet /);
    const byAgent = text.slice(text.indexOf('By agent'), text.indexOf('Who, and for how long'));
    expect(rowOf(byAgent, 'north-1')).toMatch(/^ north-1 2 1 active, 1 idle /);
    expect(rowOf(byAgent, 'south-1')).toMatch(
      /^ south-1 3 1 starting, 1 paused or stopped, 1 staged/,
    );

    const oldest = text.slice(text.indexOf('Who, and for how long'), text.indexOf('Every session'));
    expect([...oldest.matchAll(/ (\w+) · (\w+) on ([\w-]+) /g)].map((m) => m.slice(1))).toEqual([
      ['dan', 'Desk', 'south-1'],
      ['ann', 'Desk', 'north-1'],
      ['bob', 'Code', 'north-1'],
      ['cat', 'Desk', 'south-1'],
    ]);
    // Seeded 5 h and 40 min ago; a slow run may add a minute.
    expect(oldest).toMatch(/dan · Desk on south-1 5 h( 1 min)?, paused or stopped/);
    expect(oldest).toMatch(/bob · Code on north-1 4[01] min, idle/);

    // Used against capacity: live sessions' reservations (a paused one keeps its memory).
    expect(text).toContain('north-1 cores 3 of 8 (38%)');
    expect(text).toContain('north-1 memory 2.0 GiB of 16.0 GiB (13%)');
    expect(text).toContain('south-1 cores 3 of 4 (75%)');
    expect(text).toContain('south-1 memory 4.0 GiB of 8.0 GiB (50%)');

    expect(text).toContain('8 launches, 2 failed (25%).');
    expect(page.body).toMatch(/<desc id="launches-desc">8 launches, 2 failed; the busiest hour/);
    // The hours as a table: 24 rows, adding up to the same launches and failures.
    const rows = [
      ...page.body.matchAll(/<tr>\s*<td>(\d\d:00)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>/g),
    ];
    expect(rows).toHaveLength(24);
    expect(rows.reduce((sum, r) => sum + Number(r[2]), 0)).toBe(8);
    expect(rows.reduce((sum, r) => sum + Number(r[3]), 0)).toBe(2);
    expect(page.body).not.toMatch(/style=/);
  });

  it('says beside a session how many joiners and watchers it has', async () => {
    const ann = await h.db.kasm.findFirstOrThrow({ where: { user: { username: 'ann' } } });
    const grant = (role: string, joinerName: string) => ({
      kasmId: ann.id,
      secretHash: role.padEnd(64, '0'),
      expiresAt: new Date(Date.now() + 3_600_000),
      role,
      joinerName,
    });
    await h.db.kasmGrant.createMany({ data: [grant('view', 'eve'), grant('watch', 'sam')] });
    const { client } = await signedInWith(h, ['sessions.view'], 'support-viewers');
    const text = textOf((await client.get('/admin/overview')).body);
    expect(text).toMatch(/ann · Desk on north-1 [^·]*, active · 2 viewers/);
    expect(text).not.toMatch(/bob · Code on north-1 [^·]*, idle · \d+ viewer/);
    await h.db.kasmGrant.deleteMany({ where: { kasmId: ann.id, role: { not: 'owner' } } });
  });

  it("leaves agents' capacity out for a person without Infrastructure's settings.view", async () => {
    const { client } = await signedInWith(h, ['sessions.view'], 'support');
    const page = await client.get('/admin/overview');
    expect(page.statusCode).toBe(200);
    expect(textOf(page.body)).toContain('5 live');
    expect(page.body).not.toContain('Agents: cores and memory in use');
  });

  it('is hidden from, and refused to, a person who may not view sessions', async () => {
    const { client } = await signedInWith(h, ['users.view'], 'clerk');
    expect((await client.get('/admin')).headers.location).toBe('/admin/users');
    const users = await client.get('/admin/users');
    expect(users.body).not.toContain('href="/admin/overview"');
    expect((await client.get('/admin/overview')).statusCode).toBe(403);
  });
});
