import type { createFileMappingsService } from '../../file-mappings';
import type { ImagesService } from '../../images';
import type { createRegistryService, createRegistryWorkspacesService } from '../../registry';

/** What the Workspaces section uses: its routes, and its views for the rows' shapes. */
export interface WorkspacesSectionDeps {
  images: ImagesService;
  registries: ReturnType<typeof createRegistryService>;
  registryWorkspaces: ReturnType<typeof createRegistryWorkspacesService>;
  fileMappings: ReturnType<typeof createFileMappingsService>;
}
