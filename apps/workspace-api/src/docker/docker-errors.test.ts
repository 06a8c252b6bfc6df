import { connectionFailure, describeDockerError } from './docker-errors';

const withCode = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

describe('connectionFailure', () => {
  it.each([
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
    'EPROTO',
    'ECONNRESET',
  ])('calls %s over TLS a TLS failure', (code) => {
    expect(connectionFailure(withCode(code), true)).toBe('ENGINE_TLS_FAILED');
  });

  it.each(['ECONNREFUSED', 'ENOENT', 'EHOSTUNREACH', 'ETIMEDOUT'])(
    'calls %s over TLS an engine that does not answer',
    (code) => {
      expect(connectionFailure(withCode(code), true)).toBe('ENGINE_UNREACHABLE');
    },
  );

  it('never calls a failure without TLS a TLS failure', () => {
    expect(connectionFailure(withCode('ECONNRESET'), false)).toBe('ENGINE_UNREACHABLE');
    expect(connectionFailure(withCode('EPROTO'), false)).toBe('ENGINE_UNREACHABLE');
  });

  it('treats errors without a code as an engine that does not answer', () => {
    expect(connectionFailure(new Error('x'), true)).toBe('ENGINE_UNREACHABLE');
    expect(connectionFailure('x', true)).toBe('ENGINE_UNREACHABLE');
  });
});

describe('describeDockerError', () => {
  it("keeps the engine's status and JSON message, for the log", () => {
    const error = Object.assign(new Error('(HTTP code 400) unexpected'), {
      statusCode: 400,
      json: { message: 'Minimum memory limit allowed is 6MB' },
    });
    expect(describeDockerError(error)).toBe('400 Minimum memory limit allowed is 6MB');
  });

  it("keeps a connection error's code and text", () => {
    expect(describeDockerError(withCode('ECONNREFUSED'))).toBe('ECONNREFUSED failed: ECONNREFUSED');
    expect(describeDockerError('plain')).toBe('plain');
  });
});
