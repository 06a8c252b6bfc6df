import type { MappingTargets } from './file-mappings.service';

/** Whether a mapping's workspace, group or user exists, asked of the repository that owns each. */
export function mappingTargets(owners: {
  images: { exists(id: string): Promise<boolean> };
  groups: { find(id: string): Promise<unknown> };
  users: { exists(id: string): Promise<boolean> };
}): MappingTargets {
  return {
    async exists({ type, id }) {
      if (type === 'image') return owners.images.exists(id);
      if (type === 'group') return (await owners.groups.find(id)) !== null;
      return owners.users.exists(id);
    },
  };
}
