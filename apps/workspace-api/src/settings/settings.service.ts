import type { Tx } from '../db';
import type { EnginePolicy } from '../engines';
import type { SettingsChange } from './settings-changes';
import { type ConsoleOrigin, zoneOnConsoleOrigin } from '../zones';
import type { DesiredZone } from './settings-desired';
import { problemAt, sortProblems, type SettingsProblem } from './settings-problems';
import { loadSettingsFile } from './settings-load';
import { planSettings } from './settings-plan';
import type { SettingsRepository } from './settings.repository';

export interface ApplyOptions {
  prune: boolean;
  dryRun: boolean;
  /** Records this apply's changes in its transaction instead of the service's own recorder. */
  recordChanges?: (tx: Tx, changes: SettingsChange[]) => Promise<void>;
  /**
   * Refuses (throws) the changes about to be written, inside the apply's transaction: what the
   * caller may write is judged on exactly what is written, not on an earlier dry run.
   */
  checkChanges?: (changes: SettingsChange[]) => void;
}

export type ApplyResult =
  /** The file has problems; nothing was written. */
  | { status: 'invalid'; problems: SettingsProblem[]; changes: []; written: 0 }
  /** The database already matched the file; nothing was written. */
  | { status: 'unchanged'; problems: []; changes: []; written: 0 }
  /** `--dry-run`: what an apply would write; nothing was written. */
  | { status: 'dry_run'; problems: []; changes: SettingsChange[]; written: 0 }
  | { status: 'applied'; problems: []; changes: SettingsChange[]; written: number };

// An apply of a large file with big scripts, possibly queued behind another apply's lock.
const TRANSACTION = { maxWait: 10_000, timeout: 120_000 };

/** The file's zones that would serve sessions on the console's origin, as create_zone refuses them. */
const consoleOriginProblems = (zones: DesiredZone[], consoleOrigin?: ConsoleOrigin) =>
  zones.flatMap((zone) => {
    const reason = consoleOrigin && zoneOnConsoleOrigin(zone, consoleOrigin);
    return reason ? [problemAt(zone.at, reason)] : [];
  });

export function createSettingsService({
  settings,
  enginePolicy,
  consoleOrigin,
  recordChanges,
}: {
  settings: SettingsRepository;
  /** Which engine addresses agents may name (config), as create_agent checks them. */
  enginePolicy: EnginePolicy;
  /** Where the console is: no zone may put its sessions there (unchecked when absent). */
  consoleOrigin?: ConsoleOrigin;
  /** Records an apply's changes (the audit trail) in its transaction, before it commits. */
  recordChanges?: (tx: Tx, changes: SettingsChange[]) => Promise<void>;
  /**
   * Refuses (throws) the changes about to be written, inside the apply's transaction: what the
   * caller may write is judged on exactly what is written, not on an earlier dry run.
   */
  checkChanges?: (changes: SettingsChange[]) => void;
}) {
  return {
    /**
     * Reconciles the database to a settings file in one transaction. Applies are serialized by an
     * advisory lock held until commit; the state is read after taking it, so a queued apply sees
     * what the one before it wrote. (Hence READ COMMITTED: a snapshot taken before the lock was
     * granted would miss that.)
     */
    async apply(filePath: string, options: ApplyOptions): Promise<ApplyResult> {
      const loaded = await loadSettingsFile(filePath, enginePolicy);
      const usernames = loaded.desired.targets.filter((t) => t.type === 'user').map((t) => t.name);
      return settings.transaction(async (tx): Promise<ApplyResult> => {
        await settings.lockApplies(tx);
        const current = await settings.readCurrent(tx, usernames);
        const plan = planSettings(loaded.desired, current, { prune: options.prune });
        const problems = sortProblems([
          ...loaded.problems,
          ...consoleOriginProblems(loaded.desired.zones, consoleOrigin),
          ...plan.problems,
        ]);
        if (problems.length > 0) return { status: 'invalid', problems, changes: [], written: 0 };
        if (plan.changes.length === 0)
          return { status: 'unchanged', problems: [], changes: [], written: 0 };
        if (options.dryRun)
          return { status: 'dry_run', problems: [], changes: plan.changes, written: 0 };
        options.checkChanges?.(plan.changes);
        await settings.writeChanges(tx, plan.changes, current);
        await (options.recordChanges ?? recordChanges)?.(tx, plan.changes);
        return {
          status: 'applied',
          problems: [],
          changes: plan.changes,
          written: plan.changes.length,
        };
      }, TRANSACTION);
    },

    /** The stored settings as a file; read in one snapshot so that it is consistent. */
    async export(): Promise<string> {
      const current = await settings.transaction((tx) => settings.readCurrent(tx, []), {
        isolationLevel: 'RepeatableRead',
      });
      // The YAML library (~150 ms to load) comes with the commands that need it: `settings
      // schema` and `config reference` load this feature through its face without it.
      const { exportSettings } = await import('./settings-export');
      return exportSettings(current);
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
