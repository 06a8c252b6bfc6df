import { Readable } from 'node:stream';
import { toUserResponse, type UserRow } from './user-row';

/**
 * get_users' answer for every user, written as the batches arrive: the list is never held whole
 * (100k users are ~40 MB of JSON). The first batch is read before anything is sent, so that a
 * failing database still gets its problem+json answer; `total` comes last, counted as written.
 */
export async function everyUserJson(batches: AsyncGenerator<UserRow[]>): Promise<Readable> {
  const first = await batches.next();
  async function* chunks() {
    let count = 0;
    yield '{"users":[';
    for (let next = first; !next.done; next = await batches.next()) {
      const users = next.value.map((user) => JSON.stringify(toUserResponse(user)));
      yield (count > 0 ? ',' : '') + users.join(',');
      count += next.value.length;
    }
    yield `],"total":${count},"page":0,"page_size":${count},"next_cursor":null}`;
  }
  return Readable.from(chunks());
}
