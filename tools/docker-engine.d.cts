// The types of docker-engine.cjs for the TypeScript tests (which do not compile JavaScript).
export interface TestEngine {
  host: string;
  kind: string;
  stop: () => Promise<void>;
}
export declare function engineAvailable(): boolean;
export declare function startTestEngine(options?: {
  privateOnly?: boolean;
}): Promise<TestEngine | null>;
