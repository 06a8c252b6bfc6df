import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { REQUEST_HOST } from '../domain';

const HOST_NAME = '[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?';

/** A DNS name or IPv4 address: it goes into session URLs and, through $KASM_URL, into shell commands. */
export const HostnameSchema = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: `^${HOST_NAME}$`,
  description: 'a host name: letters, digits, dots and hyphens',
});

/** The rules of each zone setting, shared by the operations and the settings file. */
export const ZoneFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '\\S',
    description: 'Unique; trimmed when stored',
  }),
  // One pattern, not a union: a wrong value gets one problem, not one per alternative.
  proxy_hostname: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: `^(${REQUEST_HOST.replace(/\$/g, '\\$')}|${HOST_NAME})$`,
    // Problems read "must be <description>": $request_host$ is explained in docs/settings.md.
    description: 'a host name (letters, digits, dots and hyphens) or $request_host$',
  }),
  proxy_path: Type.String({
    maxLength: 1024,
    // Segments of letters, digits and . _ ~ -; never empty, "." or "..", which would let a
    // session URL climb out of the zone's path once a browser or proxy normalises it.
    pattern: '^(/|(/(?!\\.\\.?(/|$))[A-Za-z0-9._~-]+)+/?)$',
    description:
      'an absolute URL path such as /desk/: letters, digits and . _ ~ - between single slashes, no "." or ".." segment (default "/")',
  }),
  proxy_port: Type.Integer({
    minimum: 0,
    maximum: 65535,
    description:
      'Port in session URLs; 0 = none (the browser keeps its own port, behind a reverse proxy). Default 443',
  }),
};
export const ZONE_DEFAULTS = { proxy_path: '/', proxy_port: 443 } as const;

export const ZoneSchema = Type.Object({
  zone_id: Type.String(),
  name: Type.String(),
  proxy_hostname: Type.String(),
  proxy_path: Type.String(),
  proxy_port: Type.Integer(),
  agent_count: Type.Integer(),
  created: TimestampSchema,
  updated: TimestampSchema,
});
export type ZoneResponse = Static<typeof ZoneSchema>;
export const ZoneEnvelopeSchema = Type.Object({ zone: ZoneSchema });
export const ZonesSchema = Type.Object({ zones: Type.Array(ZoneSchema) });

export const CreateZoneBodySchema = Type.Object({
  target_zone: Type.Object({
    name: ZoneFields.name,
    proxy_hostname: ZoneFields.proxy_hostname,
    proxy_path: Type.Optional(ZoneFields.proxy_path),
    proxy_port: Type.Optional(ZoneFields.proxy_port),
  }),
});
export type CreateZoneInput = Static<typeof CreateZoneBodySchema>['target_zone'];

export const UpdateZoneBodySchema = Type.Object({
  target_zone: Type.Object({
    zone_id: IdSchema,
    name: Type.Optional(ZoneFields.name),
    proxy_hostname: Type.Optional(ZoneFields.proxy_hostname),
    proxy_path: Type.Optional(ZoneFields.proxy_path),
    proxy_port: Type.Optional(ZoneFields.proxy_port),
  }),
});
export type UpdateZoneInput = Static<typeof UpdateZoneBodySchema>['target_zone'];

export const TargetZoneBodySchema = Type.Object({
  target_zone: Type.Object({ zone_id: IdSchema }),
});
