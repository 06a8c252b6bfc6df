import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import { agentCapacity, agentResources, type AgentWithZone } from '../../agents';
import type { ZonesService } from '../../zones';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { adminPage, field } from '../admin-layout';
import { MIB } from './form-numbers';

type ZoneRow = Awaited<ReturnType<ZonesService['list']>>[number];

const GIB = 1024 * MIB;
const gib = (bytes: number) => `${(bytes / GIB).toFixed(1)} GiB`;
const cores = (n: number) => `${Math.round(n * 100) / 100}`;
const PORT_HINT =
  '0 = no port in session URLs: the browser keeps its own (behind a reverse proxy on 443 or 80)';

/** Detected, override and what the agent offers, and what live sessions and holds use of it. */
function usage(agent: AgentWithZone) {
  const own = agentResources(agent);
  const capacity = agentCapacity(own);
  return {
    own,
    capacity,
    used: {
      cores: own.allocatedCores + agent.reserved.cores,
      memory: own.allocatedMemory + agent.reserved.memory,
    },
  };
}

function agentsTable(agents: AgentWithZone[]): Html {
  if (agents.length === 0) return html`<p>No agents yet.</p>`;
  return html`<div class="table-wrap">
    <table>
      <caption class="visually-hidden">
        Agents
      </caption>
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Zone</th>
          <th scope="col">Engine</th>
          <th scope="col">Status</th>
          <th scope="col">Cores: detected / override / in use</th>
          <th scope="col">Memory: detected / override / in use</th>
        </tr>
      </thead>
      <tbody>
        ${agents.map((a) => {
          const { own, used } = usage(a);
          return html`<tr>
            <td><a href="/admin/infrastructure/agents/${toWireId(a.id)}">${a.hostname}</a></td>
            <td>${a.zone.name}</td>
            <td class="mono">${a.dockerUrl || 'none (plans only)'}</td>
            <td>
              ${a.status}${a.statusReason ? html`<br /><small>${a.statusReason}</small>` : null}
            </td>
            <td>${own.cores} / ${own.coresOverride || '—'} / ${cores(used.cores)}</td>
            <td>
              ${gib(own.memory)} / ${own.memoryOverride ? gib(own.memoryOverride) : '—'} /
              ${gib(used.memory)}
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function engineForm(person: AdminPerson, zones: ZoneRow[]): Html {
  return html`<details>
    <summary>Add an engine</summary>
    <form method="post" action="/admin/infrastructure/agents/create">
      ${csrfInput(person.csrf)}
      <div class="form-grid">
        ${field('hostname', 'Host name', '', { required: true, maxlength: 255 })}
        <div class="field">
          <label for="f-zone_id">Zone</label>
          <select id="f-zone_id" name="zone_id" required>
            ${zones.map((z) => html`<option value="${toWireId(z.id)}">${z.name}</option>`)}
          </select>
        </div>
        ${field('docker_url', 'Docker engine address', '', {
          required: true,
          maxlength: 2048,
          hint: 'unix:///var/run/docker.sock, or tcp://host:2376 with the three TLS files',
        })}
        ${field('tls_ca_path', 'TLS CA file', '', { maxlength: 1024 })}
        ${field('tls_cert_path', 'TLS certificate file', '', { maxlength: 1024 })}
        ${field('tls_key_path', 'TLS key file', '', { maxlength: 1024 })}
      </div>
      <p class="muted">Cores and memory are asked of the engine at once.</p>
      <button type="submit">Add engine</button>
    </form>
  </details>`;
}

function zoneFields(prefix: string, zone: Partial<ZoneRow>): Html {
  const id = (name: string) => `${prefix}-${name}`;
  return html`<div class="form-grid">
    ${field('name', 'Name', zone.name, { id: id('name'), required: true, maxlength: 255 })}
    ${field('proxy_hostname', 'Proxy host name', zone.proxyHostname, {
      id: id('host'),
      required: true,
      maxlength: 255,
      hint: 'or $request_host$: the host the browser used',
    })}
    ${field('proxy_port', 'Proxy port', zone.proxyPort ?? 443, {
      id: id('port'),
      type: 'number',
      required: true,
      hint: PORT_HINT,
      attrs: html`min="0" max="65535"`,
    })}
    ${field('proxy_path', 'Proxy path', zone.proxyPath ?? '/', {
      id: id('path'),
      required: true,
      maxlength: 1024,
    })}
  </div>`;
}

function zonesPart(person: AdminPerson, zones: ZoneRow[]): Html {
  const modify = may(person, 'settings.modify');
  return html`<h2 id="zones">Zones</h2>
    ${zones.map(
      (z) =>
        html`<section class="zone" aria-labelledby="zone-${toWireId(z.id)}">
          <h3 id="zone-${toWireId(z.id)}">${z.name}</h3>
          <p class="muted">
            ${z.agentCount} agent${z.agentCount === 1 ? '' : 's'} · sessions at
            <span class="mono"
              >${z.proxyHostname}${z.proxyPort ? `:${z.proxyPort}` : ''}${z.proxyPath}</span
            >
          </p>
          ${
            modify
              ? html`<form method="post" action="/admin/infrastructure/zones/${toWireId(z.id)}">
                  ${csrfInput(person.csrf)} ${zoneFields(`z-${toWireId(z.id)}`, z)}
                  <button type="submit">
                    Save zone<span class="visually-hidden"> ${z.name}</span>
                  </button>
                </form>`
              : null
          }
        </section>`,
    )}
    ${
      modify
        ? html`<details>
            <summary>Add a zone</summary>
            <form method="post" action="/admin/infrastructure/zones/create">
              ${csrfInput(person.csrf)} ${zoneFields('new-zone', {})}
              <button type="submit">Add zone</button>
            </form>
          </details>`
        : null
    }`;
}

export function infrastructurePage(
  person: AdminPerson,
  agents: AgentWithZone[],
  zones: ZoneRow[],
  notice?: string,
): Html {
  return adminPage(person, {
    title: 'Infrastructure',
    section: 'infrastructure',
    notice,
    body: html`<h2>Agents</h2>
      ${agentsTable(agents)} ${may(person, 'settings.modify') ? engineForm(person, zones) : null}
      ${zonesPart(person, zones)}`,
  });
}

export function agentPage(person: AdminPerson, agent: AgentWithZone, notice?: string): Html {
  const { own, capacity, used } = usage(agent);
  return adminPage(person, {
    title: agent.hostname,
    section: 'infrastructure',
    notice,
    body: html`<p><a href="/admin/infrastructure">Back to Infrastructure</a></p>
      <dl class="facts">
        <dt>Zone</dt>
        <dd>${agent.zone.name}</dd>
        <dt>Engine</dt>
        <dd class="mono">${agent.dockerUrl || 'none (plans only)'}</dd>
        <dt>Status</dt>
        <dd>${agent.status}${agent.statusReason ? `: ${agent.statusReason}` : ''}</dd>
        <dt>Detected</dt>
        <dd>${own.cores} cores, ${gib(own.memory)}</dd>
        <dt>Offered</dt>
        <dd>${cores(capacity.cores)} cores, ${gib(capacity.memory)}</dd>
        <dt>In use</dt>
        <dd>
          ${cores(used.cores)} cores, ${gib(used.memory)} (live sessions
          ${cores(agent.reserved.cores)} cores, ${gib(agent.reserved.memory)})
        </dd>
      </dl>
      ${
        may(person, 'settings.modify')
          ? html`<form method="post" action="/admin/infrastructure/agents/${toWireId(agent.id)}">
              ${csrfInput(person.csrf)}
              <div class="form-grid">
                ${field('cores_override', 'Cores override', own.coresOverride, {
                  type: 'number',
                  required: true,
                  hint: `0 = the ${own.cores} detected`,
                  attrs: html`min="0" step="1"`,
                })}
                ${field(
                  'memory_override_mib',
                  'Memory override (MiB)',
                  Math.round(own.memoryOverride / MIB),
                  {
                    type: 'number',
                    required: true,
                    hint: `0 = the ${gib(own.memory)} detected`,
                    attrs: html`min="0" step="1"`,
                  },
                )}
              </div>
              <button type="submit">Save overrides</button>
            </form>`
          : null
      }`,
  });
}
