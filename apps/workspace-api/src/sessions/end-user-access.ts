import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid } from '@platform/schemas';
import type { KasmsRepository } from './kasms.repository';

/**
 * Ends a user's way into all of their sessions in the database (grants, unspent connect links),
 * so that every replica refuses them at its next lookup; answers the sessions' ids, whose
 * admissions and WebSockets the caller ends in its own process.
 */
export const endUserAccess = (kasms: KasmsRepository, userId: string): Promise<string[]> =>
  kasms.endAccessOf(toUuid(userId), hashSecret(randomSecret(32)));
