// The test web workspace (platform-test/web:1, plain HTTP on 8080, which an administrator allows)
// installed straight into a bench database (no registry is needed), and the engine socket policy a private engine needs.

/**
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<any[]> }} db
 * @param {{ image: string, cores: number, memory: number }} workspace
 * @returns {Promise<string>} the workspace's wire id
 */
export async function installTestWorkspace(db, { image, cores, memory }) {
  const [row] = await db.query(
    `INSERT INTO workspace.image (id, name, settings_name, friendly_name, cores, memory, run_config, allow_plain_http, architecture, categories, updated_at)
     VALUES (gen_random_uuid(), $1, $1, 'Bench workspace', $2, $3, '{"port": 8080, "scheme": "http"}', true, '{amd64}', '{}', now())
     RETURNING replace(id::text, '-', '') AS id`,
    [image, cores, memory],
  );
  return row.id;
}

/**
 * ENGINE_SOCKET_PATHS allowing these engines' sockets: a private engine's socket is none of the
 * defaults, and it is no DOCKER_HOST either, so without this its agent is refused.
 * @param {string[]} hosts unix:///… engine addresses
 */
export const socketPolicy = (hosts) => ({
  ENGINE_SOCKET_PATHS: hosts
    .filter((h) => h.startsWith('unix://'))
    .map((h) => new URL(h).pathname)
    .join(','),
});
