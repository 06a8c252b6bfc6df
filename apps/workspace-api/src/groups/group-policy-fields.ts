import type { PolicySwitch, PolicyValues } from '../domain';
import { WORKSPACE_POLICY_SWITCHES } from '../images';
import type { GroupRow } from './groups.repository';
import { UpdateGroupBodySchema, type UpdateGroupInput } from './groups.schemas';

/** The workspace switches a group may refuse, by their names (Kasm's group settings). */
const REFUSABLE = [
  'allow_kasm_uploads',
  'allow_kasm_downloads',
  'allow_kasm_clipboard_up',
  'allow_kasm_clipboard_down',
  'record_sessions',
] as const;
type Refusable = Extract<
  (typeof WORKSPACE_POLICY_SWITCHES)[number],
  { field: (typeof REFUSABLE)[number] }
>;

/**
 * A group's transfer refusals (docs/sessions.md, "Files in and out" and "Clipboard"): false
 * refuses its members what a workspace allows, true leaves it to the workspace. The settings
 * file and the console's group form are built from this table: the workspace's rows, with a
 * group's columns (the type checks that each is one).
 */
export const GROUP_POLICY_SWITCHES = WORKSPACE_POLICY_SWITCHES.filter((s): s is Refusable =>
  (REFUSABLE as readonly string[]).includes(s.field),
) satisfies readonly PolicySwitch<UpdateGroupInput, GroupRow>[];

/** A group's refusals by column. */
export type GroupPolicy = PolicyValues<typeof GROUP_POLICY_SWITCHES>;

const updatable = UpdateGroupBodySchema.properties.target_group.properties;
/** The fields' rules as update_group takes them (each optional), by field name. */
export const groupPolicySchemas = () =>
  Object.fromEntries(GROUP_POLICY_SWITCHES.map(({ field }) => [field, updatable[field]]));
