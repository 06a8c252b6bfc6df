import { isUniqueViolation, type Database } from '../db';
import type { Recording } from '../generated/prisma/client';

export type RecordingRow = Recording;

export interface NewRecording {
  id: string;
  kasmId: string;
  userId: string | null;
  username: string;
  imageId: string | null;
  imageName: string;
  path: string;
  keystrokes: boolean;
  startedAt: Date;
  expiresAt: Date | null;
}

export interface RecordingFilter {
  userId?: string;
  username?: string;
  imageName?: string;
  imageId?: string;
  kasmId?: string;
  from?: Date;
  to?: Date;
}

/** Every query of recordings (one row per recording file, docs/recording.md). */
export function createRecordingsRepository(database: Database) {
  const { prisma } = database;
  const where = (filter: RecordingFilter) => ({
    userId: filter.userId,
    username: filter.username,
    imageName: filter.imageName,
    imageId: filter.imageId,
    kasmId: filter.kasmId,
    startedAt: { gte: filter.from, lt: filter.to },
  });
  return {
    /**
     * Starts a recording's row; null when the session is being recorded already (by another
     * replica: the partial unique index on kasm_id allows one recording under way per session).
     */
    async claim(row: NewRecording): Promise<RecordingRow | null> {
      try {
        return await prisma.recording.create({ data: { ...row, status: 'recording' } });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** The recordings under way here are alive (their rows' updated_at). */
    touch: (ids: readonly string[]) =>
      prisma.recording.updateMany({
        where: { id: { in: [...ids] }, status: 'recording' },
        data: { updatedAt: new Date() },
      }),

    /** What reached the disk so far: its size, chunks and the chain's last link. */
    progress: (id: string, at: { bytes: number; chunks: number; digest: string }) =>
      prisma.recording.updateMany({
        where: { id, status: 'recording' },
        data: { bytes: BigInt(at.bytes), chunks: at.chunks, digest: at.digest },
      }),

    finish: (
      id: string,
      end: {
        status: 'complete' | 'failed';
        bytes: number;
        chunks: number;
        digest: string;
        error?: string;
      },
    ) =>
      prisma.recording.update({
        where: { id },
        data: {
          status: end.status,
          bytes: BigInt(end.bytes),
          chunks: end.chunks,
          digest: end.digest,
          error: end.error?.slice(0, 2000) ?? null,
          endedAt: new Date(),
        },
      }),

    /**
     * Recordings whose process stopped without ending them (no touch for `staleMs`): their
     * files hold what reached the disk, verified up to the last flush; the session, if it still
     * runs, is recorded anew.
     */
    interruptStale: (staleMs: number) =>
      prisma.recording.updateMany({
        where: { status: 'recording', updatedAt: { lt: new Date(Date.now() - staleMs) } },
        data: { status: 'interrupted', endedAt: new Date() },
      }),

    find: (id: string) => prisma.recording.findUnique({ where: { id } }),

    /** The workspaces recordings were made of, by name (the console's filter). */
    async imageNames(): Promise<string[]> {
      const rows = await prisma.recording.findMany({
        distinct: ['imageName'],
        select: { imageName: true },
        orderBy: { imageName: 'asc' },
      });
      return rows.map((row) => row.imageName);
    },

    async page(filter: RecordingFilter, page: number, pageSize: number) {
      const [rows, total] = await Promise.all([
        prisma.recording.findMany({
          where: where(filter),
          orderBy: [{ startedAt: 'desc' }, { id: 'asc' }],
          skip: (page - 1) * pageSize,
          take: pageSize,
        }),
        prisma.recording.count({ where: where(filter) }),
      ]);
      return { rows, total };
    },

    /** Recordings past their retention, oldest first. */
    expired: (now: Date, limit: number) =>
      prisma.recording.findMany({
        where: { expiresAt: { lte: now }, status: { not: 'recording' } },
        orderBy: { expiresAt: 'asc' },
        take: limit,
      }),

    remove: (id: string) => prisma.recording.deleteMany({ where: { id } }),

    /** Ended recordings still in RECORDINGS_DIR whose next upload is due, oldest first. */
    awaitingUpload: (now: Date, limit: number) =>
      prisma.recording.findMany({
        where: {
          uploadedAt: null,
          status: { not: 'recording' },
          OR: [{ uploadAfter: null }, { uploadAfter: { lte: now } }],
        },
        orderBy: { startedAt: 'asc' },
        take: limit,
      }),

    /** Ended recordings still in RECORDINGS_DIR, due or not (the operator's gauge). */
    countAwaitingUpload: () =>
      prisma.recording.count({ where: { uploadedAt: null, status: { not: 'recording' } } }),

    /** The recording is in the store, verified; false when its row was removed meanwhile. */
    async stored(id: string, at: { bucket: string; key: string; sha256: string }) {
      const { count } = await prisma.recording.updateMany({
        where: { id, uploadedAt: null },
        data: {
          storeBucket: at.bucket,
          storeKey: at.key,
          sha256: at.sha256,
          uploadedAt: new Date(),
          uploadError: null,
          uploadAfter: null,
        },
      });
      return count === 1;
    },

    /** An upload failed (counted, with why) or could not be tried here: not before `after`. */
    uploadDeferred: (id: string, after: Date, failure?: string) =>
      prisma.recording.updateMany({
        where: { id, uploadedAt: null },
        data: failure
          ? {
              uploadAfter: after,
              uploadError: failure.slice(0, 2000),
              uploadAttempts: { increment: 1 },
            }
          : { uploadAfter: after },
      }),
  };
}
export type RecordingsRepository = ReturnType<typeof createRecordingsRepository>;
