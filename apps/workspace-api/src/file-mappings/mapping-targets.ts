import type { MappingTargets } from './file-mappings.service';

/** Whether a mapping's workspace, group or user exists, asked of the repository that owns each. */
export function mappingTargets(owners: {
  images: { exists(id: string): Promise<boolean> };
  groups: { find(id: string): Promise<unknown> };
  users: { findById(id: string): Promise<unknown> };
}): MappingTargets {
  return {
    async exists({ type, id }) {
      if (type === 'image') return owners.images.exists(id);
      if (type === 'group') return (await owners.groups.find(id)) !== null;
      return (await owners.users.findById(id)) !== null;
    },
  };
}
