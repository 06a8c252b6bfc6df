// The types of docker-engine.cjs for the TypeScript tests (which do not compile JavaScript).
export interface TestEngine {
  host: string;
  kind: string;
  /** A private daemon's last log lines ('' for DOCKER_HOST's). */
  logTail: () => string;
  stop: () => Promise<void>;
}
export declare function engineAvailable(): boolean;
export declare function startTestEngine(options?: {
  privateOnly?: boolean;
}): Promise<TestEngine | null>;
export declare function engineRequest(
  host: string,
  method: string,
  urlPath: string,
  options?: {
    body?: string | import('node:stream').Readable;
    headers?: Record<string, string>;
    timeoutMs?: number;
  },
): Promise<{ status: number | undefined; body: string }>;
