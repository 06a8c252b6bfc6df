import type { EngineFailure } from '../engines';

/** What dockerode's or the connection's error said: the engine's JSON message, else the error's code or text. */
export function describeDockerError(error: unknown): string {
  const e = error as {
    json?: { message?: string };
    reason?: string;
    code?: string;
    message?: string;
    statusCode?: number;
  };
  const said = e.json?.message ?? e.reason ?? e.message ?? String(error);
  return [e.statusCode, e.code, said].filter((part) => part !== undefined).join(' ');
}

export const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode;

// Node's and OpenSSL's codes for a certificate or handshake the other side would not accept.
const TLS_CODE = /CERT|SSL|TLS|EPROTO|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ALTNAME/;

/** Why an engine could not be reached: the TLS handshake failed, or nothing answered. */
export function connectionFailure(error: unknown, overTls: boolean): EngineFailure {
  const code = (error as { code?: unknown }).code;
  if (overTls && typeof code === 'string' && TLS_CODE.test(code)) return 'ENGINE_TLS_FAILED';
  // A peer that drops the handshake (our certificate refused) resets the connection.
  if (overTls && code === 'ECONNRESET') return 'ENGINE_TLS_FAILED';
  return 'ENGINE_UNREACHABLE';
}
