import { html, type Html } from '@platform/http';
import { agentCapacity, agentResources, type AgentWithZone } from '../../agents';
import {
  ACTIVITIES,
  type Activity,
  IDLE_AFTER_SECONDS,
  type LaunchHour,
  type LiveOverview,
  type LiveSessionLine,
  type PlaceTally,
} from '../../sessions';
import type { AdminPerson } from '../admin-context';
import { adminPage } from '../admin-layout';
import { barList, type BarRow, legend, type Segment } from './charts';
import { lastDaySection, plural } from './overview-day.views';
import { span } from './sessions.views';

const WORDS: Record<Activity, string> = {
  active: 'active',
  idle: 'idle',
  starting: 'starting',
  asleep: 'paused or stopped',
  ending: 'ending',
  staged: 'staged, no user yet',
};
const GIB = 1024 ** 3;
const gib = (bytes: number) => `${(bytes / GIB).toFixed(1)} GiB`;
const num = (n: number) => `${Math.round(n * 100) / 100}`;

/** "3 active, 1 idle": a tally's counts in words, in the legend's order. */
const countsInWords = (counts: PlaceTally['counts']) =>
  ACTIVITIES.filter((a) => counts[a])
    .map((a) => `${counts[a]} ${WORDS[a]}`)
    .join(', ');

const segmentsOf = (counts: PlaceTally['counts']): Segment[] =>
  ACTIVITIES.filter((a) => counts[a]).map((a) => ({
    value: counts[a] as number,
    className: `a-${a}`,
    label: `${counts[a]} ${WORDS[a]}`,
  }));

function tallies(caption: string, places: PlaceTally[], max: number): Html {
  const rows: BarRow[] = places.map((place) => ({
    name: place.name,
    segments: segmentsOf(place.counts),
    value: html`<strong>${place.total}</strong> <small>${countsInWords(place.counts)}</small>`,
  }));
  return html`<figure class="chart">
    <figcaption>${caption}</figcaption>
    ${barList(rows, max)}
  </figure>`;
}

function oldestSessions(lines: LiveSessionLine[], now: Date): Html {
  const oldest = lines.length > 0 ? now.getTime() - lines[0].since.getTime() : 0;
  const rows: BarRow[] = lines.map((line) => ({
    name: html`<strong>${line.username}</strong> · ${line.workspace} on ${line.agent}`,
    segments: [
      {
        value: now.getTime() - line.since.getTime(),
        className: `a-${line.activity}`,
        label: WORDS[line.activity],
      },
    ],
    value: html`${span(line.since, now.getTime())},
    ${WORDS[line.activity]}${line.viewers ? html` · ${plural(line.viewers, 'viewer')}` : null}`,
  }));
  return html`<figure class="chart">
    <figcaption>Who, and for how long (the ${lines.length} oldest)</figcaption>
    ${barList(rows, oldest)}
  </figure>`;
}

function liveSection(live: LiveOverview, now: Date): Html {
  const present = ACTIVITIES.filter((a) => live.byWorkspace.some((p) => p.counts[a]));
  const max = Math.max(
    1,
    ...live.byWorkspace.map((p) => p.total),
    ...live.byAgent.map((p) => p.total),
  );
  const totals = Object.fromEntries(
    present.map((a) => [a, live.byWorkspace.reduce((sum, p) => sum + (p.counts[a] ?? 0), 0)]),
  );
  return html`<section aria-labelledby="live-heading" class="overview-part">
    <h2 id="live-heading">Live sessions</h2>
    ${
      live.total === 0
        ? html`<p>No live sessions.</p>`
        : html`<p class="lead">
              <strong>${live.total}</strong> live: ${countsInWords(totals)}.
              <small class="muted"
                >Idle: running with no input for ${IDLE_AFTER_SECONDS / 60} min.</small
              >
            </p>
            ${legend(present.map((a) => ({ className: `a-${a}`, label: WORDS[a] })))}
            <div class="chart-grid">
              ${tallies('By workspace', live.byWorkspace, max)}
              ${tallies('By agent', live.byAgent, max)}
            </div>
            ${live.oldest.length > 0 ? oldestSessions(live.oldest, now) : null}
            <p><a href="/admin/sessions">Every session, with its actions</a></p>`
    }
  </section>`;
}

function agentRows(agent: AgentWithZone): BarRow[] {
  const own = agentResources(agent);
  const capacity = agentCapacity(own);
  const row = (
    what: 'cores' | 'memory',
    held: number,
    reserved: number,
    show: (n: number) => string,
  ) => {
    const used = held + reserved;
    const share = capacity[what] > 0 ? Math.round((used / capacity[what]) * 100) : 0;
    return {
      name: html`<strong>${agent.hostname}</strong> ${what}${
          agent.status === 'offline' ? html` <small class="tag">offline</small>` : null
        }`,
      segments: [
        { value: reserved, className: 'u-sessions', label: `${show(reserved)} for sessions` },
        { value: held, className: 'u-held', label: `${show(held)} held back` },
      ],
      value: html`${show(used)} of ${show(capacity[what])} <small>(${share}%)</small>`,
      max: capacity[what],
    };
  };
  return [
    row('cores', own.allocatedCores, agent.reserved.cores, num),
    row('memory', own.allocatedMemory, agent.reserved.memory, gib),
  ];
}

function agentsSection(agents: AgentWithZone[]): Html {
  return html`<section aria-labelledby="agents-heading" class="overview-part">
    <h2 id="agents-heading">Agents: cores and memory in use</h2>
    ${
      agents.length === 0
        ? html`<p>No agents yet.</p>`
        : html`${legend([
              { className: 'u-sessions', label: 'reserved by live sessions' },
              { className: 'u-held', label: 'held back for work outside the platform' },
            ])}
            <figure class="chart">
              <figcaption>Each agent's use against its capacity</figcaption>
              ${barList(agents.flatMap(agentRows))}
            </figure>`
    }
  </section>`;
}

export interface OverviewData {
  live: LiveOverview;
  lastDay: LaunchHour[];
  /** Null when the person may not see Infrastructure (settings.view). */
  agents: AgentWithZone[] | null;
  now: Date;
}

/** The console's first page: the fleet as pictures, each with its numbers in words. */
export function overviewPage(person: AdminPerson, data: OverviewData): Html {
  return adminPage(person, {
    title: 'Overview',
    section: 'overview',
    body: html`<p class="muted">As of ${data.now.toISOString().slice(11, 16)} UTC.</p>
      ${liveSection(data.live, data.now)} ${data.agents ? agentsSection(data.agents) : null}
      ${lastDaySection(data.lastDay)}`,
  });
}
