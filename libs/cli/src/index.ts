export { cliProgram, runCli } from './cli-program';
export type { Command } from 'commander';
