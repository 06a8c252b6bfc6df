// The lines of the CLI's usage for the admin, registry and settings commands, apart from the commands
// themselves: printing them loads nothing else (each command loads its feature when it runs).

export const REGISTRY_USAGE = `  registry add <url | directory>   fetch, validate and store a registry (progress on stderr)
  registry list                    list registries
  registry workspaces <registry> [--all]
                                   a registry's workspaces (--all: the incompatible ones too)
  registry refresh <registry>      fetch a registry again and show what changed
  registry install <registry> <name> [--force]
                                   install a workspace (--force: even an incompatible one)
  <registry> is an id, a URL, a directory or a name; install adds a URL or directory not added yet.`;

export const SETTINGS_USAGE = `  settings apply <file> [--prune] [--dry-run]
                                   reconcile the database to a settings file, in one transaction
                                   (--prune: also remove what the file does not name;
                                    --dry-run: print the changes, write nothing)
  settings export [file]           the current settings as a file apply accepts (stdout without file)
  settings schema [file]           the settings file's JSON Schema (stdout without file)`;

export const ADMIN_USAGE = `  admin create <username> [--password P]
                                   make <username> an administrator (group Administrators), who
                                   signs in at /admin; creates the user with the password (asked
                                   when not given), or adds an existing user`;
