import { Type, type Static } from '@sinclair/typebox';

export const AudioParamsSchema = Type.Object({
  kasmId: Type.String({ maxLength: 36, description: 'The session, as its kasm_url names it' }),
});
export const AudioQuerySchema = Type.Object({
  channels: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2)], {
      default: 2,
      description: '1: mono (half the bytes), 2: stereo',
    }),
  ),
});
export type AudioQuery = Static<typeof AudioQuerySchema>;
export const AudioFormatSchema = Type.Object({
  format: Type.Literal('s16le', { description: 'Signed 16-bit little-endian PCM, interleaved' }),
  rate: Type.Integer({ description: 'Frames per second' }),
  channels: Type.Integer(),
});
