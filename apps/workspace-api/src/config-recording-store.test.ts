import { loadConfig } from './config';
import { recordingStoreOptions } from './config-recording-store';

const load = (env: Record<string, string>) =>
  loadConfig({ DATABASE_URL: 'postgres://u@localhost/db', ...env });
const STORE = {
  RECORDINGS_S3_BUCKET: 'recordings',
  RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000',
  RECORDINGS_S3_ACCESS_KEY_ID: 'key-id',
  RECORDINGS_S3_SECRET_ACCESS_KEY: 'the-secret-value',
};

describe('the recordings store settings', () => {
  it('leaves recordings on disk without a bucket', () => {
    expect(recordingStoreOptions(load({}))).toBeNull();
  });

  it('reads a store with its defaults: path style, 16 MiB parts, a minute before a retry', () => {
    expect(recordingStoreOptions(load({ ...STORE, RECORDINGS_S3_PREFIX: 'rec/' }))).toEqual({
      bucket: 'recordings',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'key-id',
      secretAccessKey: 'the-secret-value',
      prefix: 'rec/',
      pathStyle: true,
      partBytes: 16 * 1024 * 1024,
      retryMs: 60_000,
    });
  });

  it.each([
    [
      { RECORDINGS_S3_SECRET_ACCESS_KEY: '' },
      /ACCESS_KEY_ID and RECORDINGS_S3_SECRET_ACCESS_KEY are required/,
    ],
    [{ RECORDINGS_S3_BUCKET: '' }, /RECORDINGS_S3_BUCKET is required/],
    [{ RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000/path' }, /RECORDINGS_S3_ENDPOINT/],
    [{ RECORDINGS_S3_ENDPOINT: 'http://user:pw@host' }, /RECORDINGS_S3_ENDPOINT/],
    [{ RECORDINGS_S3_PREFIX: '/rec/' }, /RECORDINGS_S3_PREFIX/],
    [{ RECORDINGS_S3_PART_MB: '4' }, /RECORDINGS_S3_PART_MB/],
    [{ RECORDINGS_S3_BUCKET: 'Not_A_Bucket' }, /RECORDINGS_S3_BUCKET/],
  ])('refuses %p at start, never saying the secret', (change, message) => {
    let error: unknown;
    try {
      load({ ...STORE, ...change });
    } catch (thrown) {
      error = thrown;
    }
    expect(String(error)).toMatch(message);
    expect(String(error)).not.toContain('the-secret-value');
  });
});
