/** Usernames compare case-insensitively and ignore surrounding space; they are stored so. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** Host names compare case-insensitively; they are stored lower-cased. */
export function normalizeHostname(hostname: string): string {
  return hostname.toLowerCase();
}
