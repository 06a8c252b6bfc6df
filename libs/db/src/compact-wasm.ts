import { setFlagsFromString } from 'node:v8';

/**
 * Prisma 7's query compiler is a WebAssembly module that V8 compiles on the first query. With its
 * baseline compiler only (no optimizing tier-up), a service stays about 16 MB smaller; the module
 * runs about once per query shape, since Prisma caches query plans, so the bench shows no
 * difference in speed. It applies to every Wasm module of the process (Node's fetch parser too).
 * Call it before the first query.
 */
export function compileWasmCompactly(): void {
  setFlagsFromString('--liftoff-only');
}
