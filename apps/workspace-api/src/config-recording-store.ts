import { Type, type Static } from '@sinclair/typebox';

/**
 * The S3-compatible store session recordings move to once they end (docs/recording.md#storage).
 * Spread into config.ts's schema; unset (no bucket), recordings stay in RECORDINGS_DIR.
 */
export const recordingStoreEnv = () => ({
  RECORDINGS_S3_BUCKET: Type.String({
    pattern: '^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
    default: '',
    description:
      'The bucket ended recordings are moved to (uploaded, verified, then removed from RECORDINGS_DIR); empty: recordings stay in RECORDINGS_DIR',
  }),
  RECORDINGS_S3_ENDPOINT: Type.String({
    pattern: '^$|^https?://[^/?#@\\s]+/?$',
    default: '',
    description:
      "The store's address (scheme, host, port: no path, no credentials), for a store other than AWS S3; empty: AWS S3 in RECORDINGS_S3_REGION",
  }),
  RECORDINGS_S3_REGION: Type.String({
    pattern: '^[a-z0-9-]{1,64}$',
    default: 'us-east-1',
    description: "The store's region (most S3-compatible stores accept any)",
  }),
  RECORDINGS_S3_ACCESS_KEY_ID: Type.String({
    maxLength: 256,
    default: '',
    description: "The store's access key ID; required with RECORDINGS_S3_BUCKET",
  }),
  RECORDINGS_S3_SECRET_ACCESS_KEY: Type.String({
    maxLength: 1024,
    default: '',
    description:
      "The store's secret access key; required with RECORDINGS_S3_BUCKET; never logged or returned",
  }),
  RECORDINGS_S3_PREFIX: Type.String({
    pattern: '^$|^[A-Za-z0-9!_.*()-]+(/[A-Za-z0-9!_.*()-]+)*/$',
    default: '',
    description:
      'Put before each recording\'s path to make its key (e.g. "recordings/": recordings/<yyyy>/<mm>/<dd>/<kasm_id>-<recording_id>.rec); ends with /',
  }),
  RECORDINGS_S3_PATH_STYLE: Type.Boolean({
    default: true,
    description:
      'Address the bucket in the path (<endpoint>/<bucket>/<key>), as most S3-compatible stores need; false: as a host name (<bucket>.<host>)',
  }),
  RECORDINGS_S3_PART_MB: Type.Integer({
    minimum: 5,
    maximum: 5120,
    default: 16,
    description:
      'A recording larger than this is uploaded in parts of this many MiB (multipart), one part in memory at a time',
  }),
  RECORDINGS_S3_RETRY_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 60,
    description:
      'After a failed upload the recording stays in RECORDINGS_DIR and is tried again after this long, doubling with each failure up to an hour',
  }),
});

type RecordingStoreEnv = {
  [K in keyof ReturnType<typeof recordingStoreEnv>]: Static<
    ReturnType<typeof recordingStoreEnv>[K]
  >;
};

/** A store needs its bucket and both keys; keys without a bucket are a mistake, said at start. */
export function recordingStoreEnvProblems(config: RecordingStoreEnv): string[] {
  const keys = [config.RECORDINGS_S3_ACCESS_KEY_ID, config.RECORDINGS_S3_SECRET_ACCESS_KEY];
  if (config.RECORDINGS_S3_BUCKET && keys.some((key) => !key))
    return [
      'RECORDINGS_S3_ACCESS_KEY_ID and RECORDINGS_S3_SECRET_ACCESS_KEY are required with RECORDINGS_S3_BUCKET',
    ];
  if (!config.RECORDINGS_S3_BUCKET && (keys.some(Boolean) || config.RECORDINGS_S3_ENDPOINT))
    return ['RECORDINGS_S3_BUCKET is required when the store is given keys or an endpoint'];
  return [];
}

export interface RecordingStoreOptions {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
  pathStyle: boolean;
  partBytes: number;
  retryMs: number;
}

/** The store's options, or null when recordings stay on disk. */
export const recordingStoreOptions = (config: RecordingStoreEnv): RecordingStoreOptions | null =>
  config.RECORDINGS_S3_BUCKET
    ? {
        bucket: config.RECORDINGS_S3_BUCKET,
        endpoint: config.RECORDINGS_S3_ENDPOINT || null,
        region: config.RECORDINGS_S3_REGION,
        accessKeyId: config.RECORDINGS_S3_ACCESS_KEY_ID,
        secretAccessKey: config.RECORDINGS_S3_SECRET_ACCESS_KEY,
        prefix: config.RECORDINGS_S3_PREFIX,
        pathStyle: config.RECORDINGS_S3_PATH_STYLE,
        partBytes: config.RECORDINGS_S3_PART_MB * 1024 * 1024,
        retryMs: config.RECORDINGS_S3_RETRY_SECONDS * 1000,
      }
    : null;
