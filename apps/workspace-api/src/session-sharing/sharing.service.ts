import { toUuid, toWireId } from '@platform/schemas';
import { hashSecret, randomSecret } from '@platform/secrets';
import type { Config } from '../config';
import { recordedChange, type AuditRecorder } from '../db';
import {
  KasmNotFoundError,
  KasmNotRunningError,
  ParticipantNotFoundError,
  ShareNotFoundError,
  ShareRefusedError,
  UserNotFoundError,
} from '../errors';
import type { LaunchPlan } from '../launch-plan';
import type { KasmReads, KasmsRepository } from '../sessions';
import type { ShareRow, SharesRepository } from './shares.repository';
import type { NewShare, ShareResponse } from './sharing.schemas';

const DEFAULT_EXPIRY_S = 3600;
/** A join_kasm link is for one browser, opened now: as short-lived as a connect link is used. */
const JOIN_LINK_S = 600;
const ENDED = new Set(['destroyed', 'error']);

export interface SharingDeps {
  config: Pick<Config, 'SESSION_GRANT_TTL_SECONDS'>;
  shares: SharesRepository;
  kasms: Pick<
    KasmsRepository,
    | 'insertJoinerGrant'
    | 'participants'
    | 'participantsOf'
    | 'setParticipantRole'
    | 'deleteParticipant'
    | 'grantsOfShare'
    | 'findByShareId'
  >;
  reads: Pick<KasmReads, 'find'>;
  groups: {
    sharedFullControlOf(userId: string): Promise<boolean>;
    inAnyGroup(userId: string, groupIds: string[]): Promise<boolean>;
  };
  anonymousJoinOf(imageId: string): Promise<boolean>;
  /** Whether the workspace's owners are told while an administrator watches (watch_notice). */
  watchNoticeOf(imageId: string): Promise<boolean>;
  usernameOf(userId: string): Promise<string | null>;
  /** The proxy's open streams of joiners: their role changed live, or closed. */
  streams: { setRole(grantId: string, role: 'view' | 'control'): void; close(ids: string[]): void };
}

export const toShareResponse = (row: ShareRow): ShareResponse => ({
  share_id: toWireId(row.id),
  kasm_id: toWireId(row.kasmId),
  role: row.role,
  expiration_date: row.expiresAt.toISOString(),
  one_use: row.maxUses === 1,
  uses: row.uses,
  user_ids: row.allowedUserIds.map(toWireId),
  group_ids: row.allowedGroupIds.map(toWireId),
  created_by: row.createdBy,
  created_date: row.createdAt.toISOString(),
});

const linkOf = (plan: unknown, token: string) =>
  `${(plan as LaunchPlan).sessionUrl}?kasm_share=${encodeURIComponent(token)}`;

/**
 * Sharing a session (docs/sharing.md): links per role with an expiry, one use or named users
 * and groups, Kasm's share_id and join_kasm, and the joiners (participants) the owner sees,
 * whose role the owner changes live and whom the owner removes. A link's secret (256 random
 * bits) is stored hashed and shown once; the proxy spends it (`spend`) for a joiner's grant.
 */
export function createSharingService(deps: SharingDeps) {
  const { shares, kasms, reads } = deps;

  async function liveSession(rawKasmId: string) {
    const row = await reads.find(toUuid(rawKasmId));
    if (!row || ENDED.has(row.status)) throw new KasmNotFoundError(`kasm_id ${rawKasmId}`);
    return row;
  }

  async function insertLink(
    kasmId: string,
    share: Omit<NewShare, 'role'> & { role: NewShare['role'] | 'watch'; joinerId?: string | null },
    createdBy: string,
    audit?: AuditRecorder | null,
  ) {
    const row = await liveSession(kasmId);
    const token = randomSecret(32);
    const seconds = share.expires_in_seconds ?? DEFAULT_EXPIRY_S;
    const expiresAt = new Date(Math.min(Date.now() + seconds * 1000, row.hardExpiresAt.getTime()));
    const created = await recordedChange(shares.transaction, audit, {
      change: (tx) =>
        shares.insert(
          {
            kasmId: row.id,
            role: share.role,
            tokenHash: hashSecret(token),
            allowedUserIds: (share.user_ids ?? []).map(toUuid),
            allowedGroupIds: (share.group_ids ?? []).map(toUuid),
            joinerId: share.joinerId ?? null,
            maxUses: share.one_use ? 1 : null,
            expiresAt,
            createdBy,
          },
          tx,
        ),
      after: (_tx, link) => toShareResponse(link),
    });
    return { share: toShareResponse(created), url: linkOf(row.plan, token) };
  }

  /** Who may join through `link`: its named joiner, a named user or group's member, or anyone. */
  async function joinerOf(link: ShareRow, imageId: string, signedInAs: string | null) {
    if (link.joinerId) return link.joinerId;
    const named = link.allowedUserIds.length > 0 || link.allowedGroupIds.length > 0;
    if (named) {
      if (!signedInAs)
        throw new ShareRefusedError('Sign in first: the link is for named users or groups');
      const allowed =
        link.allowedUserIds.includes(signedInAs) ||
        (await deps.groups.inAnyGroup(signedInAs, link.allowedGroupIds));
      if (!allowed) throw new ShareRefusedError('The link is not for this user');
      return signedInAs;
    }
    if (!signedInAs && !(await deps.anonymousJoinOf(imageId)))
      throw new ShareRefusedError('Sign in first: the workspace admits no anonymous joiners');
    return signedInAs;
  }

  return {
    create: (kasmId: string, share: NewShare, createdBy: string, audit?: AuditRecorder | null) =>
      insertLink(kasmId, share, createdBy, audit),

    async list(kasmId: string) {
      const row = await liveSession(kasmId);
      return (await shares.listOpen(row.id)).map(toShareResponse);
    },

    /** Revokes the link and ends its joiners' grants; their streams close at once here. */
    async revoke(kasmId: string, shareId: string, audit?: AuditRecorder | null) {
      const row = await liveSession(kasmId);
      const id = toUuid(shareId);
      const before = await shares.find(row.id, id);
      if (!before || before.revokedAt) throw new ShareNotFoundError(`share_id ${shareId}`);
      const ended = await recordedChange(shares.transaction, audit, {
        before: async () => toShareResponse(before),
        change: async (tx) => {
          if (!(await shares.revoke(tx, row.id, id)))
            throw new ShareNotFoundError(`share_id ${shareId}`);
          return kasms.grantsOfShare(id, tx);
        },
        after: () => ({ ...toShareResponse(before), revoked: true }),
      });
      deps.streams.close(ended.map((grant) => grant.id));
    },

    /** The proxy's spending of a link for a joiner's grant (session-access.ts's ShareSpender). */
    async spend(
      kasmId: string,
      token: string,
      joiner: { signedInAs: string | null; secretHash: string },
    ) {
      const link = await shares.findByToken(kasmId, hashSecret(token));
      if (!link) throw new ShareNotFoundError('the link (wrong, or another session’s)');
      if (link.revokedAt) throw new ShareRefusedError('The share link was revoked');
      if (link.expiresAt.getTime() <= Date.now())
        throw new ShareRefusedError('The share link has expired');
      if (link.maxUses !== null && link.uses >= link.maxUses)
        throw new ShareRefusedError('The share link was used already');
      const row = await liveSession(kasmId);
      if (row.status !== 'running') throw new KasmNotRunningError(`The session is ${row.status}`);
      const joinerId = await joinerOf(link, row.imageId, joiner.signedInAs);
      const joinerName = joinerId ? ((await deps.usernameOf(joinerId)) ?? '') : '';
      const limit = Math.min(
        Date.now() + deps.config.SESSION_GRANT_TTL_SECONDS * 1000,
        row.hardExpiresAt.getTime(),
        // A link's joiners leave when it expires; join_kasm's link only admits its one joiner.
        link.joinerId ? Infinity : link.expiresAt.getTime(),
      );
      const expiresAt = new Date(limit);
      const grant = await shares.transaction(async (tx) => {
        if (!(await shares.spendUse(tx, link.id)))
          throw new ShareRefusedError('The share link was used already');
        return kasms.insertJoinerGrant(tx, {
          kasmId: row.id,
          secretHash: joiner.secretHash,
          expiresAt,
          role: link.role,
          shareId: link.id,
          joinerId,
          joinerName,
        });
      });
      return { grantId: grant.id, expiresAt };
    },

    /**
     * Kasm's join_kasm: a one-use link for the joiner (`userId`, or anonymous where the
     * workspace allows), in the role the owner's groups give joiners.
     */
    async join(shareId: string, userId: string | null, audit?: AuditRecorder | null) {
      const found = await kasms.findByShareId(shareId);
      if (!found?.userId) throw new ShareNotFoundError(`share_id ${shareId.slice(0, 64)}`);
      const row = await liveSession(found.id);
      if (userId !== null && !(await deps.usernameOf(toUuid(userId))))
        throw new UserNotFoundError(`user_id ${userId}`);
      if (userId === null && !(await deps.anonymousJoinOf(row.imageId)))
        throw new ShareRefusedError('The workspace admits no anonymous joiners: name a user_id');
      const role = (await deps.groups.sharedFullControlOf(found.userId)) ? 'control' : 'view';
      const joinerId = userId === null ? null : toUuid(userId);
      const { url } = await insertLink(
        found.id,
        { role, expires_in_seconds: JOIN_LINK_S, one_use: true, joinerId },
        'join_kasm',
        audit,
      );
      return { kasm_id: toWireId(found.id), kasm_url: url, role };
    },

    /**
     * An administrator's watch (sessions.watch): a one-use link, opened at once, that admits
     * `watcher`'s browser view-only. The proxy records the watch from its first stream to its
     * last, and then ends the grant (watch-audit.ts).
     */
    async watch(
      kasmId: string,
      watcher: { id: string; username: string },
      audit?: AuditRecorder | null,
    ) {
      const { url } = await insertLink(
        kasmId,
        {
          role: 'watch',
          expires_in_seconds: JOIN_LINK_S,
          one_use: true,
          joinerId: toUuid(watcher.id),
        },
        watcher.username,
        audit,
      );
      return url;
    },

    /** The joiners and watchers of each live session, by session id (the console's list). */
    async viewersOf(kasmIds: string[]) {
      const viewers = new Map<string, { role: string; username: string }[]>();
      for (const p of await kasms.participantsOf(kasmIds)) {
        const list = viewers.get(p.kasmId) ?? [];
        list.push({ role: p.role, username: p.joinerName || 'anonymous' });
        viewers.set(p.kasmId, list);
      }
      return viewers;
    },

    /**
     * The administrators watching, as the owner's page tells them: none where the workspace
     * turned the notice off.
     */
    async watchersShown(kasmId: string) {
      const row = await liveSession(kasmId);
      if (!(await deps.watchNoticeOf(row.imageId))) return [];
      return (await kasms.participants(row.id))
        .filter((p) => p.role === 'watch')
        .map((p) => ({ username: p.joinerName, since: p.createdAt.toISOString() }));
    },

    /**
     * Who holds a grant to the session besides its owner: joiners and watchers; `forOwner` (the
     * owner's panel) leaves watchers out where the workspace turned the notice off.
     */
    async participants(kasmId: string, forOwner = false) {
      const row = await liveSession(kasmId);
      const shown = !forOwner || (await deps.watchNoticeOf(row.imageId));
      const all = await kasms.participants(row.id);
      return all
        .filter((p) => shown || p.role !== 'watch')
        .map((p) => ({
          participant_id: toWireId(p.id),
          role: p.role,
          user_id: p.joinerId && toWireId(p.joinerId),
          username: p.joinerName || 'anonymous',
          share_id: p.shareId && toWireId(p.shareId),
          joined_date: p.createdAt.toISOString(),
        }));
    },

    /** The owner gives a joiner control or takes it back: their open streams follow at once. */
    async setRole(kasmId: string, participantId: string, role: 'view' | 'control') {
      const row = await liveSession(kasmId);
      const id = toUuid(participantId);
      if (!(await kasms.setParticipantRole(row.id, id, role)))
        throw new ParticipantNotFoundError(`participant_id ${participantId}`);
      deps.streams.setRole(id, role);
    },

    /** The owner removes a joiner or watcher: their grant ends, their streams close at once. */
    async remove(kasmId: string, participantId: string) {
      const row = await liveSession(kasmId);
      const id = toUuid(participantId);
      if (!(await kasms.deleteParticipant(row.id, id)))
        throw new ParticipantNotFoundError(`participant_id ${participantId}`);
      deps.streams.close([id]);
    },
  };
}
export type SharingService = ReturnType<typeof createSharingService>;
