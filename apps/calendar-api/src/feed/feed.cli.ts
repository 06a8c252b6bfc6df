import { Value } from '@sinclair/typebox/value';
import {
  type NewFeedAddressBody,
  NewFeedAddressBodySchema,
  privateFeedUrl,
} from './feed-addresses.schemas';
import { type FeedAddressesService, type IssuedFeedAddress } from './feed-addresses.service';

export const FEED_USAGE = `  feed create --name NAME [--type TYPE] [--period PERIOD]
                            issue a secret address of the feed for calendar apps (printed once)
  feed list                 every secret address: id, filters, created, rotated, name
  feed rotate <id>          replace an address's secret; the old address stops working at once
  feed delete <id>          delete an address; it stops working at once`;

export interface FeedOptions {
  name?: string;
  type?: string;
  period?: string;
}

const print = (line = '') => process.stdout.write(`${line}\n`);

function printIssued({ feedAddress, secret }: IssuedFeedAddress, baseUrl: string, verb: string) {
  print(`Feed address ${feedAddress.id} "${feedAddress.name}" ${verb}. It is shown only now:`);
  print(`  ${privateFeedUrl(baseUrl, secret)}`);
  print(
    'Paste it into a calendar app ("From URL", "New Calendar Subscription", "Subscribe from web").',
  );
}

function feedId(target: string): number {
  if (!/^[1-9]\d{0,9}$/.test(target)) throw new Error(`Not a feed address id: ${target}`);
  return Number(target);
}

/** The same rules as POST /feeds, so the CLI cannot store what the API would refuse. */
function checkedFeed(options: FeedOptions): NewFeedAddressBody {
  const body = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const [problem] = Value.Errors(NewFeedAddressBodySchema, body);
  if (!body.name) throw new Error('Give the feed address a --name');
  if (problem) throw new Error(`--${problem.path.slice(1)}: ${problem.message}`);
  return body as NewFeedAddressBody;
}

export async function runFeedCommand(
  addresses: FeedAddressesService,
  [action, target]: string[],
  options: FeedOptions,
  baseUrl: string,
): Promise<boolean> {
  if (action === 'create') {
    printIssued(await addresses.create(checkedFeed(options)), baseUrl, 'issued');
  } else if (action === 'list') {
    for (const a of await addresses.list()) {
      const filters = [a.type && `type=${a.type}`, a.period && `period=${a.period}`];
      const rotated = a.rotatedAt ? `rotated ${a.rotatedAt.toISOString()}` : 'never rotated';
      print(
        `${String(a.id).padStart(4)}  ${(filters.filter(Boolean).join(' ') || 'every event').padEnd(24)}  ${a.createdAt.toISOString()}  ${rotated.padEnd(32)}  ${a.name}`,
      );
    }
  } else if (action === 'rotate' && target) {
    printIssued(await addresses.rotate(feedId(target)), baseUrl, 'has a new secret');
    print('The old address answers 404 from now on: give the new one to its subscribers.');
  } else if (action === 'delete' && target) {
    const removed = await addresses.remove(feedId(target));
    print(`Deleted feed address ${removed.id} "${removed.name}"`);
  } else {
    return false;
  }
  return true;
}
