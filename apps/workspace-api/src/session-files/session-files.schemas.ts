import { Type, type Static } from '@sinclair/typebox';

// A kasm id is 32 hex digits or a UUID's 36 characters; longer input is refused before any lookup.
const KasmIdSchema = Type.String({
  maxLength: 36,
  description: 'The session, as its kasm_url names it',
});
export const SessionParamsSchema = Type.Object({ kasmId: KasmIdSchema });
export const UploadParamsSchema = Type.Object({
  kasmId: KasmIdSchema,
  uploadId: Type.String({ maxLength: 64, description: 'As POST …/uploads answered it' }),
});
export const DownloadParamsSchema = Type.Object({
  kasmId: KasmIdSchema,
  name: Type.String({ maxLength: 1024, description: 'A file name in ~/Downloads, URL-encoded' }),
});

export const PolicySchema = Type.Object({
  allow_uploads: Type.Boolean(),
  allow_downloads: Type.Boolean(),
  max_upload_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Null: no limit' }),
  allow_clipboard_up: Type.Boolean({ description: 'Clipboard text may go into the desktop' }),
  allow_clipboard_down: Type.Boolean({ description: 'Clipboard text may come out of it' }),
  max_clipboard_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The largest clipboard text (UTF-8 bytes), either way; null: no limit',
  }),
});

export const StartUploadBodySchema = Type.Object(
  {
    name: Type.String({ maxLength: 1024, description: 'The file name in ~/Uploads (no path)' }),
    size: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes' }),
  },
  { additionalProperties: false },
);
export type StartUploadBody = Static<typeof StartUploadBodySchema>;

export const UploadStateSchema = Type.Object({
  upload_id: Type.String(),
  name: Type.String(),
  size: Type.Integer(),
  offset: Type.Integer({ description: 'Bytes received: the next PATCH sends from here' }),
});

export const UploadHeadersSchema = Type.Object({
  'upload-offset': Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Where this body starts in the file',
  }),
});

export const UploadProgressSchema = Type.Object({
  offset: Type.Integer(),
  size: Type.Integer(),
  done: Type.Boolean(),
  file: Type.Optional(
    Type.Object({
      name: Type.String({ description: 'Its name in ~/Uploads (" (1)" added when taken)' }),
      size: Type.Integer(),
      sha256: Type.String(),
    }),
  ),
});

export const DownloadListSchema = Type.Object({
  files: Type.Array(
    Type.Object({
      name: Type.String(),
      size: Type.Integer(),
      mtime: Type.Integer({ description: 'Seconds since the epoch' }),
    }),
  ),
});
