import { Type, type Static } from '@sinclair/typebox';
import { API_PREFIX } from '../api';
import type { FeedAddress } from './feed-addresses.repository';

export const NewFeedAddressBodySchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '\\S',
      description: 'Who or what the address is for ("Google, CSA class"); trimmed',
    }),
    type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Only events of this type' }),
    ),
    period: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'Only events of this period' }),
    ),
  },
  { additionalProperties: false },
);
export type NewFeedAddressBody = Static<typeof NewFeedAddressBodySchema>;

export const FeedAddressIdParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

export const FeedAddressSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Union([Type.String(), Type.Null()]),
  period: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  rotated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type FeedAddressResponse = Static<typeof FeedAddressSchema>;

export const IssuedFeedAddressSchema = Type.Object({
  feed: FeedAddressSchema,
  url: Type.String({ description: 'The secret address; shown only in this answer' }),
  webcal_url: Type.String({ description: 'The same address as a webcal:// link (Apple Calendar)' }),
});
export type IssuedFeedAddressResponse = Static<typeof IssuedFeedAddressSchema>;

/** The wire form of an address: never its secret, nor the secret's hash. */
export function toFeedAddressResponse(address: FeedAddress): FeedAddressResponse {
  return {
    id: address.id,
    name: address.name,
    type: address.type,
    period: address.period,
    created_at: address.createdAt.toISOString(),
    updated_at: address.updatedAt.toISOString(),
    rotated_at: address.rotatedAt?.toISOString() ?? null,
  };
}

/** The address calendar apps subscribe to, under the service's public URL. */
export function privateFeedUrl(baseUrl: string, secret: string): string {
  return `${baseUrl}${API_PREFIX}/private.ics?token=${encodeURIComponent(secret)}`;
}

export function toIssuedFeedAddressResponse(
  baseUrl: string,
  { feedAddress, secret }: { feedAddress: FeedAddress; secret: string },
): IssuedFeedAddressResponse {
  const url = privateFeedUrl(baseUrl, secret);
  return {
    feed: toFeedAddressResponse(feedAddress),
    url,
    webcal_url: url.replace(/^https?:/, 'webcal:'),
  };
}
