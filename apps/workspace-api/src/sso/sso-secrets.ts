import { readFile } from 'node:fs/promises';
import { Type, type Static } from '@sinclair/typebox';
import { referencedSecret } from '../config';

/**
 * A secret by reference: the name of an environment variable, or a file (a mounted secret).
 * Only the reference is stored and exported; the value is read when it is needed.
 */
export const SecretRefSchema = Type.Union(
  [
    Type.Object(
      { env: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 128 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { file: Type.String({ pattern: '^/', minLength: 2, maxLength: 1024 }) },
      { additionalProperties: false },
    ),
  ],
  { description: 'A secret by reference: {env: VARIABLE} or {file: /absolute/path}' },
);
export type SecretRef = Static<typeof SecretRefSchema>;

export type SecretValue = { value: string } | { problem: string };

/** Reads a referenced secret; a missing one is a problem to report, never an empty secret. */
export async function readSecret(ref: SecretRef): Promise<SecretValue> {
  if ('env' in ref) {
    const value = referencedSecret(ref.env);
    return value ? { value } : { problem: `the environment variable ${ref.env} is not set` };
  }
  try {
    const value = (await readFile(ref.file, 'utf8')).trim();
    return value ? { value } : { problem: `the file ${ref.file} is empty` };
  } catch (error) {
    return {
      problem: `the file ${ref.file} cannot be read (${(error as NodeJS.ErrnoException).code})`,
    };
  }
}
