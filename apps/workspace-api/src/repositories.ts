import { createAgentsRepository } from './agents';
import { eventInsertIn } from './audit';
import type { Database } from './db';
import { createFileMappingsRepository } from './file-mappings';
import { createGroupsRepository } from './groups';
import { createImagesRepository } from './images';
import { createRegistryRepository } from './registry';
import { createStagingRepository } from './staging';
import { createUsersRepository } from './users';
import { createZonesRepository } from './zones';

/**
 * The repositories of the resources that several features read (house style 11a: each table's
 * queries live in its resource's one repository), over one database.
 */
export function createRepositories(database: Database) {
  return {
    users: createUsersRepository(database, eventInsertIn(database.schema)),
    groups: createGroupsRepository(database),
    images: createImagesRepository(database),
    zones: createZonesRepository(database),
    agents: createAgentsRepository(database),
    fileMappings: createFileMappingsRepository(database),
    registries: createRegistryRepository(database),
    staging: createStagingRepository(database),
  };
}
