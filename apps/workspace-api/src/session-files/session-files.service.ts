import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { toWireId } from '@platform/schemas';
import { requestOrigin, type AuditTrail } from '../audit';
import { FileTooLargeError, FileTransferRefusedError, KasmNotFoundError } from '../errors';
import type { TransferPolicy } from '../images';
import type { RunningSession, RunningSessions } from '../session-proxy';
import { listDownloads, openDownload } from './downloads';
import { createResumableUploads, isUploadId } from './resumable-uploads';

export interface SessionFilesDeps {
  running: RunningSessions;
  policyOf: (imageId: string) => Promise<TransferPolicy | null>;
  audit: Pick<AuditTrail, 'record'>;
}

/** An admitted request's running session and its workspace's policy. */
interface OpenSession extends RunningSession {
  policy: TransferPolicy;
}

const NO_POLICY: TransferPolicy = { allowUploads: false, allowDownloads: false, maxUploadBytes: 0 };

/**
 * Files in and out of a running session's desktop, for the holder of its grant (its owner's
 * browser): uploads into ~/Uploads (resumable), downloads from ~/Downloads. The workspace's
 * policy is read at each request; every finished transfer is audited with name, size and digest.
 */
export function createSessionFilesService({ running, policyOf, audit }: SessionFilesDeps) {
  const uploads = createResumableUploads();

  async function open(request: FastifyRequest, rawId: string): Promise<OpenSession> {
    const session = await running(request, rawId);
    return { ...session, policy: (await policyOf(session.imageId)) ?? NO_POLICY };
  }

  const record = (request: FastifyRequest, session: OpenSession, operation: string, file: object) =>
    audit.record(
      {
        actor: { kind: 'user', id: toWireId(session.userId), username: session.username },
        channel: 'session',
        ...requestOrigin(request),
      },
      { operation, target: { type: 'kasm', id: session.kasmId }, before: null, after: file },
    );

  async function uploading(request: FastifyRequest, rawId: string, uploadId?: string) {
    const session = await open(request, rawId);
    if (!session.policy.allowUploads)
      throw new FileTransferRefusedError('This workspace does not allow uploads');
    if (uploadId !== undefined && !isUploadId(uploadId))
      throw new KasmNotFoundError(`upload ${uploadId.slice(0, 64)}`);
    return session;
  }

  const checkSize = (policy: TransferPolicy, size: number) => {
    const max = policy.maxUploadBytes;
    if (max !== null && size > max)
      throw new FileTooLargeError(`The workspace allows uploads of up to ${max} bytes`);
  };

  return {
    async policy(request: FastifyRequest, rawId: string): Promise<TransferPolicy> {
      return (await open(request, rawId)).policy;
    },

    async startUpload(request: FastifyRequest, rawId: string, name: string, size: number) {
      const session = await uploading(request, rawId);
      checkSize(session.policy, size);
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
        checkSize(session.policy, size),
      );
      if (done.finished) await record(request, session, 'upload_file', done.finished);
      return done;
    },

    async cancelUpload(request: FastifyRequest, rawId: string, uploadId: string) {
      await uploads.cancel(await uploading(request, rawId, uploadId), uploadId);
    },

    async listDownloads(request: FastifyRequest, rawId: string) {
      const session = await open(request, rawId);
      if (!session.policy.allowDownloads)
        throw new FileTransferRefusedError('This workspace does not allow downloads');
      return listDownloads(session);
    },

    async openDownload(request: FastifyRequest, rawId: string, name: string) {
      const session = await open(request, rawId);
      if (!session.policy.allowDownloads)
        throw new FileTransferRefusedError('This workspace does not allow downloads');
      const file = await openDownload(session, name);
      // The event names the digest of what was sent, once all of it was; a failure mid-way
      // destroys the body, so the answer ends short of its length, never a file cut silently.
      const hash = createHash('sha256');
      const digesting = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      digesting.once('end', () => {
        const sha256 = hash.digest('hex');
        void record(request, session, 'download_file', {
          name: file.name,
          size: file.size,
          sha256,
        });
      });
      return {
        name: file.name,
        size: file.size,
        body: pipeline(file.body, digesting, () => undefined),
      };
    },
  };
}
export type SessionFilesService = ReturnType<typeof createSessionFilesService>;
