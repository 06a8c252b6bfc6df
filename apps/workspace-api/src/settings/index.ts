// The settings feature's public face: what other features may use of it.
export { emitText, runSettingsCommand, runSettingsSchemaCommand } from './settings.cli';
export { countChanges, formatChange } from './settings-format';
export { formatProblem } from './settings-problems';
export { createSettingsRepository } from './settings.repository';
export {
  type ApplyOptions,
  type ApplyResult,
  createSettingsService,
  type SettingsService,
} from './settings.service';
export { auditedSettingsChanges } from './settings-audit';
