/** The lines of the CLI's usage for these commands: apart, so that printing them loads nothing else. */
export const REGISTRY_USAGE = `  registry add <url | directory>   fetch, validate and store a registry (progress on stderr)
  registry list                    list registries
  registry workspaces <registry> [--all]
                                   a registry's workspaces (--all: the incompatible ones too)
  registry refresh <registry>      fetch a registry again and show what changed
  registry install <registry> <name> [--force]
                                   install a workspace (--force: even an incompatible one)
  <registry> is an id, a URL, a directory or a name; install adds a URL or directory not added yet.`;
