import { createAgentsRepository } from './agents/agents.repository';
import type { Database } from './db';
import { createFileMappingsRepository } from './file-mappings/file-mappings.repository';
import { createGroupsRepository } from './groups/groups.repository';
import { createImagesRepository } from './images/images.repository';
import { createRegistryRepository } from './registry/registry.repository';
import { createUsersRepository } from './users/users.repository';
import { createZonesRepository } from './zones/zones.repository';

/**
 * The repositories of the resources that several features read (house style 11a: each table's
 * queries live in its resource's one repository), over one database.
 */
export function createRepositories(database: Database) {
  return {
    users: createUsersRepository(database),
    groups: createGroupsRepository(database),
    images: createImagesRepository(database),
    zones: createZonesRepository(database),
    agents: createAgentsRepository(database),
    fileMappings: createFileMappingsRepository(database),
    registries: createRegistryRepository(database),
  };
}
