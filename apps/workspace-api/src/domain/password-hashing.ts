import { Worker } from 'node:worker_threads';
import { withRetryAfter } from '@platform/errors';
import { ClientGoneError, TooManyRequestsError } from '@platform/rate-limit';
import { PasswordChecksBusyError } from '../errors';

/**
 * bcrypt off the request path: one worker thread, at the lowest CPU priority by default, hashes and
 * compares passwords one at a time. At cost 12 a hash is ~160 ms of CPU; on libuv's threadpool,
 * a few concurrent password changes took every core from the requests around them (get_user's
 * p99 tripled: docs/decisions/0005-bcrypt-worker.md). At nice 19 the hashing gets whatever CPU
 * the requests leave, and one at a time it never takes more than a core. Linux keeps nice values
 * per thread. Under sustained load nice 19 can starve sign-ins for minutes: `PASSWORD_WORKER_NICE`
 * (`setPasswordWorkerNice`) trades the requests' latency for the checks'.
 *
 * Jobs wait here, not in the worker's message queue, so that a sign-in's check can be refused
 * when too many wait (`CheckAdmission`) and dropped when its client has gone before it ran.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const os = require('node:os');
const bcrypt = require(workerData.bcrypt);
let nice = os.getPriority();
parentPort.on('message', ({ op, password, cost, hash, priority }) => {
  if (priority !== nice) {
    try { os.setPriority(priority); nice = priority; } catch {}
  }
  try {
    const result = op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});`;

/** Who may queue a password check (a sign-in's), and how many may wait. */
export interface CheckAdmission {
  /** Whose check it is: the client address. */
  key: string;
  /** At most this many of one key's checks waiting or running; past it 429. */
  perKey: number;
  /** At most this many checks waiting (the running one aside); past it 503. */
  maxWaiting: number;
  /** Aborted when the client has gone: its check leaves the queue unrun. */
  signal?: AbortSignal;
}

interface Message {
  op: 'hash' | 'compare';
  password: string;
  cost?: number;
  hash?: string;
}
interface Job {
  message: Message;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  key?: string;
  forget: () => void;
}

let worker: Worker | null = null;
let running: Job | null = null;
let startedAt = 0;
/** A running estimate of one job's time, for Retry-After. */
let averageMs = 200;
let priority = 19;
const waiting: Job[] = [];
const byKey = new Map<string, number>();
const counts = { dropped: 0 };

/**
 * The bcrypt thread's nice value from its next job on (0–19; below the process's own needs
 * CAP_SYS_NICE, and the thread starts at the process's own).
 */
export function setPasswordWorkerNice(nice: number) {
  priority = nice;
}

/** Checks waiting, running and dropped unrun since the process started (for tests and metrics). */
export const passwordQueue = () => ({
  waiting: waiting.length,
  running: running ? 1 : 0,
  dropped: counts.dropped,
});

function settle(job: Job) {
  job.forget();
  if (job.key === undefined) return;
  const left = (byKey.get(job.key) ?? 1) - 1;
  if (left > 0) byKey.set(job.key, left);
  else byKey.delete(job.key);
}

function hasher(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bcrypt: require.resolve('bcrypt') },
  });
  started.on('message', ({ result, error }: { result?: unknown; error?: string }) => {
    const job = running;
    running = null;
    averageMs = 0.8 * averageMs + 0.2 * (performance.now() - startedAt);
    next();
    if (!job) return;
    settle(job);
    if (error === undefined) job.resolve(result);
    else job.reject(new Error(error));
  });
  started.on('error', (error) => {
    for (const job of [running, ...waiting.splice(0)]) {
      if (job) settle(job);
      job?.reject(error);
    }
    running = null;
    worker = null;
  });
  started.on('exit', () => {
    if (worker === started) worker = null;
  });
  worker = started;
  return started;
}

/** Hands the next waiting job to the worker; idle, the worker does not keep the process alive. */
function next() {
  const target = hasher();
  const job = waiting.shift();
  if (!job) {
    target.unref();
    return;
  }
  running = job;
  startedAt = performance.now();
  target.ref();
  target.postMessage({ ...job.message, priority });
}

const retryAfter = (jobsAhead: number) =>
  Math.max(1, Math.ceil(((jobsAhead + 1) * averageMs) / 1000));

function admit({ key, perKey, maxWaiting }: CheckAdmission) {
  if ((byKey.get(key) ?? 0) >= perKey) {
    const seconds = retryAfter(waiting.length);
    throw withRetryAfter(
      new TooManyRequestsError(
        `Too many sign-ins from this address at once; try again in ${seconds} s`,
      ),
      seconds,
    );
  }
  if (waiting.length >= maxWaiting) {
    const seconds = retryAfter(waiting.length);
    throw withRetryAfter(new PasswordChecksBusyError(String(seconds)), seconds);
  }
}

function run<T>(message: Message, admission?: CheckAdmission): Promise<T> {
  const signal = admission?.signal;
  if (signal?.aborted) return Promise.reject(new ClientGoneError());
  try {
    if (admission) admit(admission);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const job: Job = {
      message,
      resolve: resolve as (value: unknown) => void,
      reject,
      key: admission?.key,
      forget: () => signal?.removeEventListener('abort', drop),
    };
    function drop() {
      const at = waiting.indexOf(job);
      if (at === -1) return;
      waiting.splice(at, 1);
      counts.dropped += 1;
      settle(job);
      reject(new ClientGoneError());
    }
    signal?.addEventListener('abort', drop, { once: true });
    if (job.key !== undefined) byKey.set(job.key, (byKey.get(job.key) ?? 0) + 1);
    waiting.push(job);
    if (!running) next();
  });
}

export const hashPassword = (password: string, cost: number) =>
  run<string>({ op: 'hash', password, cost });

/** A sign-in's check is admitted by `admission` (refused 429 or 503) and dropped once its client has gone. */
export const comparePassword = (password: string, hash: string, admission?: CheckAdmission) =>
  run<boolean>({ op: 'compare', password, hash }, admission);
