import { hashSecret, randomSecret } from '@platform/secrets';
import type { Database } from '../db';
import { FeedNotFoundError } from '../errors';
import { createFeedAddressesRepository, type FeedAddress } from './feed-addresses.repository';
import type { FeedQuery } from './feed.service';

export type { FeedAddress };

export interface IssuedFeedAddress {
  feedAddress: FeedAddress;
  /** Shown once, inside the address; only its SHA-256 is stored. */
  secret: string;
}

export interface NewFeed extends FeedQuery {
  name: string;
}

// 256 random bits; the prefix tells a leaked address's secret from a bearer token (cal_).
const newSecret = () => `calfeed_${randomSecret(32)}`;
// Shorter than any secret this service issues, so an absurd one is not even hashed.
const MAX_SECRET_LENGTH = 100;

/** Secret addresses of the feed: issue, list, rotate, delete, and find the one a secret opens. */
export function createFeedAddressesService({ db }: { db: Database }) {
  const repository = createFeedAddressesRepository(db);
  return {
    async create({ name, type, period }: NewFeed): Promise<IssuedFeedAddress> {
      const secret = newSecret();
      const feedAddress = await repository.create({
        name: name.trim(),
        secretHash: hashSecret(secret),
        type: type ?? null,
        period: period ?? null,
      });
      return { feedAddress, secret };
    },

    list: (): Promise<FeedAddress[]> => repository.list(),

    /** A new secret; the old address answers 404 from the next request on. */
    async rotate(id: number): Promise<IssuedFeedAddress> {
      const secret = newSecret();
      const feedAddress = await repository.replaceSecret(id, hashSecret(secret));
      if (!feedAddress) throw new FeedNotFoundError(`has id ${id}`);
      return { feedAddress, secret };
    },

    async remove(id: number): Promise<FeedAddress> {
      const removed = await repository.remove(id);
      if (!removed) throw new FeedNotFoundError(`has id ${id}`);
      return removed;
    },

    /** The address a secret opens; a wrong, rotated or deleted one is simply not found. */
    async open(secret: string): Promise<FeedAddress> {
      const found =
        secret.length <= MAX_SECRET_LENGTH
          ? await repository.findBySecretHash(hashSecret(secret))
          : null;
      if (!found) throw new FeedNotFoundError('at this address');
      return found;
    },
  };
}
export type FeedAddressesService = ReturnType<typeof createFeedAddressesService>;

/** The filters of the feed an address serves, as the open feed's query would give them. */
export const feedQueryOf = (address: FeedAddress): FeedQuery => ({
  type: address.type ?? undefined,
  period: address.period ?? undefined,
});
