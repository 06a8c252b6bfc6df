import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db';
import type { Prisma } from '../src/generated/prisma/client';

/** An installed workspace written straight to the database, as if installed from a registry. */
export async function createImage(
  db: Db,
  overrides: Partial<Prisma.ImageUncheckedCreateInput> = {},
): Promise<string> {
  const suffix = randomBytes(3).toString('hex');
  const name = overrides.name ?? `kasmweb/tool-${suffix}:1.16.0`;
  const image = await db.image.create({
    data: {
      name,
      settingsName: name,
      friendlyName: `Tool ${suffix}`,
      architecture: ['amd64'],
      categories: ['Development'],
      ...overrides,
    },
  });
  return image.id.replace(/-/g, '');
}
