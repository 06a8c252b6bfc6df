/** The lines of the CLI's usage for these commands: apart, so that printing them loads nothing else. */
export const SETTINGS_USAGE = `  settings apply <file> [--prune] [--dry-run]
                                   reconcile the database to a settings file, in one transaction
                                   (--prune: also remove what the file does not name;
                                    --dry-run: print the changes, write nothing)
  settings export [file]           the current settings as a file apply accepts (stdout without file)
  settings schema [file]           the settings file's JSON Schema (stdout without file)`;
