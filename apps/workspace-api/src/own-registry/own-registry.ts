import { OWN_IMAGE_TAG, OWN_WORKSPACES } from './own-workspaces';

export const OWN_REGISTRY_NAME = 'Workspace Platform';
export const OWN_SCHEMA_VERSION = '1.1';

/**
 * workspace-api's own registry list (schema 1.1) for a platform series (`1.16.x`): each image is
 * listed for that series, so a platform always finds its own images compatible. `registryUrl`
 * is where the list is served: the images are built on the agent, not pulled
 * (docs/workspace-images.md).
 */
export function ownRegistryList({ series, registryUrl }: { series: string; registryUrl: string }) {
  return {
    name: OWN_REGISTRY_NAME,
    description:
      'Desktop and development workspaces built from Debian 12 packages by this repository (npm run workspaces:build).',
    list_url: registryUrl,
    workspacecount: OWN_WORKSPACES.length,
    workspaces: OWN_WORKSPACES.map((w) => ({
      friendly_name: w.friendlyName,
      description: w.description,
      image_src: w.icon,
      docker_registry: registryUrl,
      categories: w.categories,
      architecture: ['amd64'],
      cores: w.cores,
      memory: w.memory,
      compatibility: [
        {
          version: series,
          image: w.image,
          ...(w.sizeMb > 0 ? { uncompressed_size_mb: w.sizeMb } : {}),
          available_tags: [OWN_IMAGE_TAG],
        },
      ],
    })),
  };
}
