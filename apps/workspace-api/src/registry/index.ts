// The registry feature's public face: what other features may use of it.
export { platformSeries } from './compatibility';
export { toRegistryResponse } from './registry-response';
export { createRegistryWorkspacesService } from './registry-workspaces.service';
export { runRegistryCommand } from './registry.cli';
export { createRegistryRepository, type RegistryRepository } from './registry.repository';
export { registryRoutes } from './registry.routes';
export { createRegistryService } from './registry.service';
