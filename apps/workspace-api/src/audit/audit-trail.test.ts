import { enginePolicy } from '../engines';
import {
  createSettingsRepository,
  createSettingsService,
  auditedSettingsChanges,
} from '../settings';
import { useSettingsFixture, type SettingsFixture } from '../../test/settings-files';
import { UserNotFoundError } from '../errors';
import { createAuditRepository } from './audit.repository';
import type { AuditChannel, AuditContext } from './audit-event';
import { createAuditTrail } from './audit-trail';

const fixture = useSettingsFixture();
let { h, full } = {} as SettingsFixture;
beforeAll(() => ({ h, full } = fixture));
// The fixture's seeding went through the API, which recorded it.
beforeEach(() => h.db.auditEvent.deleteMany());

const silent = { warn: () => undefined, error: () => undefined };

/** A trail whose only target type reads a user row straight from the table. */
function trail() {
  return createAuditTrail({
    events: createAuditRepository(h.data),
    log: silent,
    kinds: {
      user: {
        idField: 'user_id',
        alsoNamedBy: ['username'],
        load: async (ref) => {
          const row = await h.db.user.findUnique({ where: { username: String(ref.username) } });
          if (!row) throw new UserNotFoundError(String(ref.username));
          return {
            user_id: row.id,
            username: row.username,
            notes: row.notes,
            passwordHash: row.passwordHash,
          };
        },
      },
    },
  });
}

const host: AuditContext = {
  actor: { kind: 'system', name: 'root@host' },
  channel: 'settings-file',
};

function settingsRecordedBy(context: AuditContext) {
  const audit = trail();
  return createSettingsService({
    settings: createSettingsRepository(h.data),
    enginePolicy: enginePolicy(h.config),
    recordChanges: (tx, changes) => audit.recordIn(tx, context, auditedSettingsChanges(changes)),
  });
}
const applyFull = (context: AuditContext) =>
  settingsRecordedBy(context).apply(full, { prune: false, dryRun: false });

describe('settings apply records each change in its own transaction', () => {
  it('records every change of an apply from the settings file, and nothing when none', async () => {
    const result = await applyFull(host);
    expect(result.status).toBe('applied');
    const events = await h.db.auditEvent.findMany({ orderBy: { createdAt: 'asc' } });
    expect(events).toHaveLength(result.written);
    const zone = events.find((e) => e.targetType === 'zone' && e.targetId === 'eu');
    expect(zone).toMatchObject({
      actorKind: 'system',
      actorName: 'root@host',
      channel: 'settings-file',
      operation: 'settings_apply',
      result: 'success',
      before: null,
      after: expect.objectContaining({ key: 'eu', proxyPort: 8443 }),
    });
    expect(events.map((e) => e.targetType).sort()).toEqual(
      expect.arrayContaining(['agent', 'file_mapping', 'image', 'zone']),
    );
    // A mapping's content is kept as its digest, never its text.
    const env = events.find((e) => e.targetType === 'file_mapping' && e.targetId?.includes('env'));
    expect(env?.after).toMatchObject({ content: expect.stringMatching(/ sha256 [0-9a-f]{64}\]$/) });
    expect(JSON.stringify(events)).not.toContain('export A=1');

    expect((await applyFull(host)).status).toBe('unchanged');
    expect(await h.db.auditEvent.count()).toBe(events.length);
  });

  it('writes nothing when its audit events cannot be written', async () => {
    const unrecordable = { ...host, channel: 'a-channel-too-long-for-its-column' as AuditChannel };
    await expect(applyFull(unrecordable)).rejects.toThrow();
    expect(await h.db.zone.count()).toBe(0);
    expect(await h.db.auditEvent.count()).toBe(0);
  });
});

describe('around (what the console calls)', () => {
  const console: AuditContext = {
    actor: { kind: 'user', id: 'f00d', username: 'root-admin' },
    channel: 'console',
    clientIp: '203.0.113.9',
    userAgent: 'Chromium',
  };

  it('records a change with the signed-in user, the target before and after, hashes redacted', async () => {
    const changed = await trail().around(
      console,
      'update_user',
      { type: 'user', ref: { username: 'ada' } },
      () => h.db.user.update({ where: { username: 'ada' }, data: { notes: 'seen' } }),
    );
    expect(changed.notes).toBe('seen');
    const [event] = await h.db.auditEvent.findMany();
    expect(event).toMatchObject({
      actorKind: 'user',
      actorId: 'f00d',
      actorName: 'root-admin',
      channel: 'console',
      clientIp: '203.0.113.9',
      userAgent: 'Chromium',
      targetType: 'user',
      result: 'success',
      before: { username: 'ada', notes: '', passwordHash: '[redacted]' },
      after: { username: 'ada', notes: 'seen', passwordHash: '[redacted]' },
    });
    expect(event.targetId).toBe(
      (await h.db.user.findUniqueOrThrow({ where: { username: 'ada' } })).id,
    );
  });

  it('records a failed change with its status and code, and rethrows it', async () => {
    const failing = trail().around(
      console,
      'update_user',
      { type: 'user', ref: { username: 'nobody' } },
      () => Promise.reject(new UserNotFoundError('username nobody')),
    );
    await expect(failing).rejects.toBeInstanceOf(UserNotFoundError);
    expect(await h.db.auditEvent.findMany()).toEqual([
      expect.objectContaining({
        result: 'failed',
        status: 404,
        errorCode: 'USER_NOT_FOUND',
        targetId: 'nobody',
        before: null,
        after: null,
      }),
    ]);
  });
});
