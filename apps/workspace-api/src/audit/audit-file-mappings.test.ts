import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const SCRIPT = 'export DB_PASS=swordfish\n';
const DIGEST = /^\[\d+ characters, sha256 [0-9a-f]{64}\]$/;

describe('file mappings in the audit trail', () => {
  it("keeps a mapping's content as a digest on create, update and delete, never its text", async () => {
    const user = (await h.call('create_user', { target_user: userInput() })).json().user;
    const created = await h.call('create_file_mapping', {
      target_file_mapping: {
        user_id: user.user_id,
        name: 'Env',
        destination: '/e',
        content: SCRIPT,
      },
    });
    const id = created.json().file_mapping.file_mapping_id;
    const target_file_mapping = { file_mapping_id: id };
    await h.call('update_file_mapping', {
      target_file_mapping: { ...target_file_mapping, content: `${SCRIPT}# again\n` },
    });
    await h.call('delete_file_mapping', { target_file_mapping });

    const res = await h.call('get_audit_log', { target_type: 'file_mapping' });
    const events = res.json().events as { operation: string; before: object; after: object }[];
    expect(events.map((e) => e.operation).sort()).toEqual([
      'create_file_mapping',
      'delete_file_mapping',
      'update_file_mapping',
    ]);
    for (const event of events) {
      for (const side of [event.before, event.after].filter(Boolean)) {
        expect(side).toMatchObject({ content: expect.stringMatching(DIGEST) });
      }
    }
    expect(res.body).not.toContain('swordfish');
    expect(JSON.stringify(await h.db.auditEvent.findMany())).not.toContain('swordfish');
  });
});
