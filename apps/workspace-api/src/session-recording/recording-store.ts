import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { RecordingStoreOptions } from '../config-recording-store';

/** Where a recording is in the store. */
export interface StoredObject {
  bucket: string;
  key: string;
}

/** The object named is not in the store (removed outside the service). */
export class StoredObjectMissing extends Error {}

/**
 * The S3-compatible store (docs/recording.md#storage; decision 0024): uploads a file streamed,
 * in parts past `partBytes` with one part in memory at a time, and reads objects streamed.
 */
export function createRecordingStore(options: RecordingStoreOptions) {
  // Loaded with the store, not at start: the SDK holds about 20 MiB that a service keeping its
  // recordings on its own disk never needs (idle RSS, bench/README.md).
  const { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } =
    require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { Upload } = require('@aws-sdk/lib-storage') as typeof import('@aws-sdk/lib-storage');
  const client = new S3Client({
    endpoint: options.endpoint ?? undefined,
    region: options.region,
    forcePathStyle: options.pathStyle,
    credentials: {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
    },
    // Checksums only where S3 requires them: the SDK's default trailing CRC32 (aws-chunked
    // bodies) is not understood by every S3-compatible store; the uploader reads the object back
    // and compares its SHA-256 instead, which any store supports.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that accepts the connection and then says nothing must not hold an upload for ever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    maxAttempts: 3,
  });

  return {
    bucket: options.bucket,
    keyOf: (relativePath: string) => `${options.prefix}${relativePath}`,

    /** Uploads the first `bytes` of `file` (what the digests were taken of), streamed. */
    async put(
      target: StoredObject,
      file: string,
      upload: { bytes: number; metadata: Record<string, string>; signal: AbortSignal },
    ): Promise<void> {
      const body = createReadStream(file, { start: 0, end: Math.max(0, upload.bytes - 1) });
      const uploading = new Upload({
        client,
        params: {
          Bucket: target.bucket,
          Key: target.key,
          Body: upload.bytes === 0 ? Buffer.alloc(0) : body,
          ContentType: 'application/octet-stream',
          Metadata: upload.metadata,
        },
        partSize: options.partBytes,
        queueSize: 1,
        leavePartsOnError: false,
      });
      const abort = () => void uploading.abort();
      upload.signal.addEventListener('abort', abort, { once: true });
      try {
        await uploading.done();
      } finally {
        upload.signal.removeEventListener('abort', abort);
        body.destroy();
      }
    },

    /** The object's bytes as a stream, and how many there are. */
    async get(
      target: StoredObject,
      signal?: AbortSignal,
    ): Promise<{ body: Readable; bytes: number }> {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: target.bucket, Key: target.key }),
          { abortSignal: signal },
        );
        return { body: answer.Body as Readable, bytes: answer.ContentLength ?? 0 };
      } catch (error) {
        if (error instanceof NoSuchKey)
          throw new StoredObjectMissing(`${target.key} is not in the store`);
        throw error;
      }
    },

    /** Removes the object; one already gone is no error (S3's DELETE answers the same). */
    async remove(target: StoredObject): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: target.key }));
    },

    close: () => client.destroy(),
  };
}
export type RecordingStore = ReturnType<typeof createRecordingStore>;
