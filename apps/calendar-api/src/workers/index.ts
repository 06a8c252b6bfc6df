// The workers feature's public face: what other features may use of it.
export { type Workers, workersPlugin } from './workers.plugin';
