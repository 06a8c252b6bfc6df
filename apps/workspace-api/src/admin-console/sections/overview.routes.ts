import type { AgentWithZone } from '../../agents';
import type { SessionsOverview } from '../../sessions';
import type { SharingService } from '../../session-sharing';
import { sendPage } from '../../web';
import { type AdminSection, may, personOf } from '../admin-context';
import { overviewPage } from './overview.views';

export interface OverviewSectionDeps {
  sessionsOverview: SessionsOverview;
  agents: { list(): Promise<AgentWithZone[]> };
  /** Who watches or joined each session, beside it in the list. */
  sharing: Pick<SharingService, 'viewersOf'>;
}

/**
 * The console's first page: live sessions by workspace and agent, the oldest by name, each
 * agent's use against its capacity (with Infrastructure's settings.view), and the last day's
 * launches, failures and launch times, drawn on the server.
 */
export function overviewSection({
  sessionsOverview,
  agents,
  sharing,
}: OverviewSectionDeps): AdminSection {
  return {
    id: 'overview',
    title: 'Overview',
    viewPermission: 'sessions.view',
    routes: async (app) => {
      app.get('/', { schema: { hide: true } }, async (request, reply) => {
        const person = personOf(request);
        const now = new Date();
        const [live, lastDay, agentRows] = await Promise.all([
          sessionsOverview.live(now),
          sessionsOverview.lastDay(now),
          may(person, 'settings.view') ? agents.list() : null,
        ]);
        const viewers = await sharing.viewersOf(live.oldest.map((line) => line.id));
        for (const line of live.oldest) line.viewers = viewers.get(line.id)?.length;
        return sendPage(reply, overviewPage(person, { live, lastDay, agents: agentRows, now }));
      });
    },
  };
}
