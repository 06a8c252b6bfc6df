export { createWorkerLoop, type WorkerLoop } from './worker-loop';
