import { randomUUID } from 'node:crypto';
import { toUuid } from '@platform/schemas';
import type { Db } from '../src/db';
import type { Prisma } from '../src/generated/prisma/client';
import { userInput } from './factories';
import { createImage } from './image-factories';
import type { Harness } from './harness';

/** A session written straight to the database as `status` (no engine runs it); wire or uuid ids. */
export async function createKasm(
  db: Db,
  fields: { userId: string | null; imageId: string; agentId: string; status: string } & Partial<
    Omit<Prisma.KasmUncheckedCreateInput, 'userId' | 'imageId' | 'agentId' | 'status'>
  >,
): Promise<string> {
  const now = Date.now();
  const { id } = await db.kasm.create({
    data: {
      id: randomUUID(),
      cores: 1,
      memory: BigInt(2 ** 30),
      plan: {},
      tokenHash: '0'.repeat(64),
      containerSecret: 'secret',
      expiresAt: new Date(now + 3_600_000),
      hardExpiresAt: new Date(now + 86_400_000),
      ...fields,
      userId: fields.userId && toUuid(fields.userId),
      imageId: toUuid(fields.imageId),
      agentId: toUuid(fields.agentId),
    },
  });
  return id;
}

const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE);

/** What `seedFleet` made: wire ids of its agents and workspaces. */
export interface SeededFleet {
  agents: { north: string; south: string };
  images: { desk: string; code: string };
}

/**
 * A small fleet for the overview: two planning agents (8 cores, 16 GiB; 4 cores, 8 GiB), two
 * workspaces, five live sessions (ann active, bob idle, cat starting, dan paused, one staged)
 * and, over the last day, launches of which two failed before running.
 */
export async function seedFleet(h: Harness): Promise<SeededFleet> {
  const zone = (
    await h.call('create_zone', { target_zone: { name: 'fleet', proxy_hostname: 'x.example' } })
  ).json().zone;
  const agent = async (hostname: string, cores: number, gib: number) =>
    (
      await h.call('create_agent', {
        target_agent: { hostname, zone_id: zone.zone_id, cores, memory: gib * 2 ** 30 },
      })
    ).json().agent.agent_id as string;
  const agents = { north: await agent('north-1', 8, 16), south: await agent('south-1', 4, 8) };
  const images = {
    desk: await createImage(h.db, { name: 'fleet/desk:1', friendlyName: 'Desk' }),
    code: await createImage(h.db, { name: 'fleet/code:1', friendlyName: 'Code' }),
  };
  const user = async (username: string) =>
    (await h.call('create_user', { target_user: userInput({ username }) })).json().user
      .user_id as string;
  const session = async (
    username: string | null,
    status: string,
    where: { agentId: string; imageId: string },
    more: Partial<Prisma.KasmUncheckedCreateInput> = {},
  ) => createKasm(h.db, { userId: username && (await user(username)), status, ...where, ...more });
  const northDesk = { agentId: agents.north, imageId: images.desk };
  const northCode = { agentId: agents.north, imageId: images.code };
  const southDesk = { agentId: agents.south, imageId: images.desk };
  const ran = (minutes: number, launchSeconds: number) => ({
    createdAt: ago(minutes),
    startedAt: new Date(ago(minutes).getTime() + launchSeconds * 1000),
  });
  await session('ann', 'running', northDesk, { ...ran(125, 4), lastInputAt: ago(1), cores: 2 });
  await session('bob', 'running', northCode, { ...ran(40, 8), lastInputAt: ago(20) });
  await session('cat', 'starting', southDesk, { createdAt: ago(1) });
  await session('dan', 'paused', southDesk, { ...ran(300, 6), memory: BigInt(2 * 2 ** 30) });
  await session(null, 'running', { agentId: agents.south, imageId: images.code }, ran(90, 5));
  await session('eve', 'destroyed', northDesk, ran(200, 10));
  await session('fay', 'error', northDesk, { createdAt: ago(150), statusMessage: 'no answer' });
  await session('gus', 'error', southDesk, { createdAt: ago(600), statusMessage: 'pull failed' });
  // Two days ago: outside the last day.
  await session('hal', 'error', southDesk, { createdAt: ago(48 * 60) });
  return { agents, images };
}
