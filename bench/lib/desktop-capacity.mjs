// @ts-check
// An idle desktop's memory (the container's cgroup, as `docker stats` reads it) against the same
// container started by the engine alone, and how many desktops one agent takes before request_kasm
// is refused.
import {
  createAndStart,
  removeContainer,
  sameContainer,
  sessionContainer,
  settledMemory,
  untilServing,
} from './desktop-engine.mjs';

/** @typedef {import('./desktop-launches.mjs').Started} Started */

/**
 * An idle desktop's memory, session against bare container, and how many desktop sessions the
 * agent takes before request_kasm is refused (every one of them idle, then destroyed).
 * @param {import('./desktop-platform.mjs').Platform} platform
 * @param {string} engineHost @param {Started} started
 * @param {number} limit a guard: no more sessions than this are launched
 */
export async function measureCapacity(platform, engineHost, started, limit) {
  /** @type {string[]} */
  const sessions = [];
  let refusal = null;
  while (sessions.length < limit) {
    const res = await platform.attempt('request_kasm', {
      user_id: platform.userId,
      image_id: platform.imageId,
    });
    if (!res.ok) {
      refusal = {
        status: res.status,
        code: res.json.code,
        detail: res.json.detail ?? res.json.title,
      };
      break;
    }
    started.sessions.add(res.json.kasm_id);
    sessions.push(res.json.kasm_id);
    await platform.untilRunning(res.json.kasm_id);
  }
  const containers = await Promise.all(sessions.map((id) => sessionContainer(engineHost, id)));
  const memories = await Promise.all(containers.map((c) => settledMemory(engineHost, c.Id)));
  for (const id of sessions) {
    await platform.destroy(id);
    started.sessions.delete(id);
  }

  const spec = sameContainer(containers[0]);
  const bare = await createAndStart(engineHost, spec);
  started.containers.add(bare.id);
  await untilServing(bare.port);
  const bareMemory = await settledMemory(engineHost, bare.id);
  await removeContainer(engineHost, bare.id);
  started.containers.delete(bare.id);
  return {
    reserved: { cores: spec.HostConfig.NanoCpus / 1e9, memory: Number(spec.HostConfig.Memory) },
    bareMemory,
    memories,
    sessions: sessions.length,
    refusal,
  };
}
