import { Worker } from 'node:worker_threads';

/**
 * bcrypt off the request path: one worker thread, at the lowest CPU priority, hashes and
 * compares passwords one at a time. At cost 12 a hash is ~160 ms of CPU; on libuv's threadpool,
 * a few concurrent password changes took every core from the requests around them (get_user's
 * p99 tripled: docs/decisions/0005-bcrypt-worker.md). At nice 19 the hashing gets whatever CPU
 * the requests leave, and one at a time it never takes more than a core. Linux keeps nice values
 * per thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const os = require('node:os');
const bcrypt = require(workerData.bcrypt);
try { os.setPriority(19); } catch {}
parentPort.on('message', ({ id, op, password, cost, hash }) => {
  try {
    const result = op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});`;

type Job = { resolve: (value: unknown) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Job>();

function hasher(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bcrypt: require.resolve('bcrypt') },
  });
  started.on(
    'message',
    ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
      const job = pending.get(id);
      pending.delete(id);
      // Idle, the worker does not keep the process alive.
      if (pending.size === 0) started.unref();
      if (error === undefined) job?.resolve(result);
      else job?.reject(new Error(error));
    },
  );
  started.on('error', (error) => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    worker = null;
  });
  started.on('exit', () => {
    if (worker === started) worker = null;
  });
  worker = started;
  return started;
}

function run<T>(message: {
  op: 'hash' | 'compare';
  password: string;
  cost?: number;
  hash?: string;
}): Promise<T> {
  const id = nextId++;
  const target = hasher();
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    target.ref();
    target.postMessage({ id, ...message });
  });
}

export const hashPassword = (password: string, cost: number) =>
  run<string>({ op: 'hash', password, cost });

export const comparePassword = (password: string, hash: string) =>
  run<boolean>({ op: 'compare', password, hash });
