// The types of cache-dir.cjs for the TypeScript tests (which do not compile JavaScript).
export declare function cacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function cacheDir(name: string): string;
