import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { toWireId } from '@platform/schemas';
import { requestOrigin, type AuditTrail } from '../audit';
import { FileTooLargeError, FileTransferRefusedError, KasmNotFoundError } from '../errors';
import type { SessionPolicy } from '../images';
import type { RunningSession, RunningSessions } from '../session-proxy';
import { listDownloads, openDownload } from './downloads';
import { createResumableUploads, isUploadId } from './resumable-uploads';

export interface SessionFilesDeps {
  running: RunningSessions;
  /** The session user's effective policy: the workspace's, less what their groups refuse. */
  policyOf: (imageId: string, userId: string) => Promise<SessionPolicy>;
  audit: Pick<AuditTrail, 'record'>;
}

/** An admitted request's running session and its user's effective policy. */
interface OpenSession extends RunningSession {
  policy: SessionPolicy;
}

/** A transfer the policy refused: FileTransferRefusedError (403) or FileTooLargeError (413). */
type Refusal = Error & { statusCode: number; code: string };

/**
 * Files in and out of a running session's desktop, for the holder of its grant (its owner's
 * browser): uploads into ~/Uploads (resumable), downloads from ~/Downloads. The workspace's
 * policy is read at each request; every finished transfer is audited with name, size and digest.
 */
export function createSessionFilesService({ running, policyOf, audit }: SessionFilesDeps) {
  const uploads = createResumableUploads();

  async function open(request: FastifyRequest, rawId: string): Promise<OpenSession> {
    const session = await running(request, rawId);
    return { ...session, policy: await policyOf(session.imageId, session.userId) };
  }

  const record = (
    request: FastifyRequest,
    session: OpenSession,
    operation: string,
    file: object,
    refused?: Refusal,
  ) =>
    audit.record(
      {
        actor: { kind: 'user', id: toWireId(session.userId), username: session.username },
        channel: 'session',
        ...requestOrigin(request),
      },
      { operation, target: { type: 'kasm', id: session.kasmId }, before: null, after: file },
      refused && { result: 'denied', status: refused.statusCode, errorCode: refused.code },
    );

  /** A refused transfer is audited (what was asked, never its bytes), then answered. */
  async function refuse(
    request: FastifyRequest,
    session: OpenSession,
    operation: string,
    asked: object,
    error: Refusal,
  ): Promise<never> {
    await record(request, session, operation, asked, error);
    throw error;
  }

  async function uploading(request: FastifyRequest, rawId: string, uploadId?: string) {
    const session = await open(request, rawId);
    if (!session.policy.allowUploads) {
      const error = new FileTransferRefusedError('Uploads are not allowed in this session');
      await refuse(request, session, 'upload_file', { upload_id: uploadId ?? null }, error);
    }
    if (uploadId !== undefined && !isUploadId(uploadId))
      throw new KasmNotFoundError(`upload ${uploadId.slice(0, 64)}`);
    return session;
  }

  const checkSize = async (request: FastifyRequest, session: OpenSession, size: number) => {
    const max = session.policy.maxUploadBytes;
    if (max === null || size <= max) return;
    const error = new FileTooLargeError(`Uploads of up to ${max} bytes are allowed`);
    await refuse(request, session, 'upload_file', { size }, error);
  };

  async function downloading(request: FastifyRequest, rawId: string, name: string | null) {
    const session = await open(request, rawId);
    if (!session.policy.allowDownloads) {
      const error = new FileTransferRefusedError('Downloads are not allowed in this session');
      await refuse(request, session, 'download_file', { name }, error);
    }
    return session;
  }

  return {
    async policy(request: FastifyRequest, rawId: string): Promise<SessionPolicy> {
      return (await open(request, rawId)).policy;
    },

    async startUpload(request: FastifyRequest, rawId: string, name: string, size: number) {
      const session = await uploading(request, rawId);
      await checkSize(request, session, size);
      return uploads.create(session, name, size);
    },

    async uploadStatus(request: FastifyRequest, rawId: string, uploadId: string) {
      const session = await uploading(request, rawId, uploadId);
      return uploads.status(session, uploadId);
    },

    async appendUpload(
      request: FastifyRequest,
      rawId: string,
      uploadId: string,
      offset: number,
      body: Readable,
    ) {
      const session = await uploading(request, rawId, uploadId);
      // The policy may have changed since the upload began: its size is checked again.
      const done = await uploads.append(session, uploadId, offset, body, (size) =>
        checkSize(request, session, size),
      );
      if (done.finished) await record(request, session, 'upload_file', done.finished);
      return done;
    },

    async cancelUpload(request: FastifyRequest, rawId: string, uploadId: string) {
      await uploads.cancel(await uploading(request, rawId, uploadId), uploadId);
    },

    async listDownloads(request: FastifyRequest, rawId: string) {
      return listDownloads(await downloading(request, rawId, null));
    },

    async openDownload(request: FastifyRequest, rawId: string, name: string) {
      const session = await downloading(request, rawId, name);
      const file = await openDownload(session, name);
      // The event names the digest of what was sent, once all of it was; a failure mid-way
      // destroys the body, so the answer ends short of its length, never a file cut silently.
      void file.sha256.then((sha256) =>
        record(request, session, 'download_file', { name: file.name, size: file.size, sha256 }),
      );
      return { name: file.name, size: file.size, body: file.body };
    },
  };
}
export type SessionFilesService = ReturnType<typeof createSessionFilesService>;
