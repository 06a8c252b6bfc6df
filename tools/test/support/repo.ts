import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(__dirname, '../../..');

/** Runs `node <script> …args` from the repository root; resolves with its output, whatever its exit code. */
export async function runNode(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}
