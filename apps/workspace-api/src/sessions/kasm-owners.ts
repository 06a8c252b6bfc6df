import type { AgentEngine, AgentsRepository } from '../agents';
import type { ImagesRepository } from '../images';
import type { ZonesRepository } from '../zones';
import type { KasmRow, KasmsRepository } from './kasms.repository';

/** Who a session belongs to, as the users feature answers it: a name, and whether they may sign in. */
export interface OwnerState {
  username: string;
  active: boolean;
}

/** The users feature's answer for many sessions' owners at once (its repository's ownersOf). */
export interface SessionOwners {
  ownersOf(ids: readonly string[]): Promise<Map<string, OwnerState>>;
}

/** A session's agent: its engine, and its zone's name. */
export type KasmAgent = AgentEngine & { zone: { name: string } };

/** A session with what its answers and its engine calls need of its user, workspace and agent. */
export type KasmWithOwners = KasmRow & {
  user: { username: string };
  image: { id: string; name: string; friendlyName: string };
  agent: KasmAgent;
};

/** A session as read, with whether its owner may enter it (neither locked nor disabled). */
export type KasmRead = KasmWithOwners & { user: OwnerState };

/** The repositories that own a session's user, workspace, agent and zone. */
export interface KasmOwners {
  users: SessionOwners;
  images: Pick<ImagesRepository, 'namesOf'>;
  agents: Pick<AgentsRepository, 'enginesOf'>;
  zones: Pick<ZonesRepository, 'namesOf'>;
}

/** Only the engine's fields of an agent row: nothing else of it travels with a session. */
export const kasmAgent = (agent: AgentEngine, zoneName: string): KasmAgent => ({
  id: agent.id,
  hostname: agent.hostname,
  dockerUrl: agent.dockerUrl,
  tlsCaPath: agent.tlsCaPath,
  tlsCertPath: agent.tlsCertPath,
  tlsKeyPath: agent.tlsKeyPath,
  zone: { name: zoneName },
});

/**
 * Sessions read with their owners: the session rows from the kasms repository, then each owner
 * from its own repository, a batch per table for any number of sessions.
 */
export function createKasmReads(kasms: KasmsRepository, owners: KasmOwners) {
  const distinct = (values: string[]) => [...new Set(values)];

  /** A session whose owner went meanwhile (the foreign keys cascade) went with it: left out. */
  async function withOwners(rows: KasmRow[]): Promise<KasmRead[]> {
    if (rows.length === 0) return [];
    const [users, images, agents] = await Promise.all([
      owners.users.ownersOf(distinct(rows.flatMap((row) => (row.userId ? [row.userId] : [])))),
      owners.images.namesOf(distinct(rows.map((row) => row.imageId))),
      owners.agents.enginesOf(distinct(rows.map((row) => row.agentId))),
    ]);
    const zones = await owners.zones.namesOf(distinct([...agents.values()].map((a) => a.zoneId)));
    return rows.flatMap((row) => {
      // A staged session has no user yet: its username is empty, and nobody may enter it.
      const user = row.userId === null ? { username: '', active: false } : users.get(row.userId);
      const image = images.get(row.imageId);
      const agent = agents.get(row.agentId);
      const zone = agent && zones.get(agent.zoneId);
      if (!user || !image || !agent || zone === undefined) return [];
      return [{ ...row, user, image, agent: kasmAgent(agent, zone) }];
    });
  }

  return {
    withOwners,

    async find(id: string): Promise<KasmRead | null> {
      const row = await kasms.find(id);
      return row && ((await withOwners([row]))[0] ?? null);
    },

    listLive: async (userId?: string) => withOwners(await kasms.listLive(userId)),

    /** Whether the user may enter their sessions (exists, neither locked nor disabled). */
    ownerActive: async (userId: string) =>
      (await owners.users.ownersOf([userId])).get(userId)?.active === true,
  };
}
export type KasmReads = ReturnType<typeof createKasmReads>;
