import type { Readable } from 'node:stream';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { problemResponses } from '@platform/schemas';
import { attachment } from './file-names';
import type { SessionFilesService } from './session-files.service';
import {
  DownloadListSchema,
  DownloadParamsSchema,
  PolicySchema,
  SessionParamsSchema,
  StartUploadBodySchema,
  UploadHeadersSchema,
  UploadParamsSchema,
  UploadProgressSchema,
  UploadStateSchema,
} from './session-files.schemas';

/** Where the feature answers on the sessions origin: under the session's path, so its grant cookie comes. */
export const FILES_PREFIX = '/kasm/:kasmId/_files';
const tags = ['session files'];
const FileBytesSchema = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });
const problems = problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 502);
// The body of a PATCH is the file's bytes: tus's type, or plain octets. Left unread here.
const BYTES = ['application/offset+octet-stream', 'application/octet-stream'];

export const sessionFilesRoutes: FastifyPluginAsyncTypebox<{ files: SessionFilesService }> = async (
  app,
  { files },
) => {
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  app.addContentTypeParser(BYTES, (_request, _payload, done) => done(null));

  app.get(
    `${FILES_PREFIX}/policy`,
    {
      schema: {
        tags,
        summary: "What the session's user may move in and out: files and clipboard",
        params: SessionParamsSchema,
        response: { 200: PolicySchema, ...problems },
      },
    },
    async (request) => {
      const policy = await files.policy(request, request.params.kasmId);
      return {
        allow_uploads: policy.allowUploads,
        allow_downloads: policy.allowDownloads,
        max_upload_bytes: policy.maxUploadBytes,
        allow_clipboard_up: policy.allowClipboardUp,
        allow_clipboard_down: policy.allowClipboardDown,
        max_clipboard_bytes: policy.maxClipboardBytes,
      };
    },
  );

  app.post(
    `${FILES_PREFIX}/uploads`,
    {
      schema: {
        tags,
        summary: 'Start an upload into ~/Uploads; PATCH its bytes next',
        params: SessionParamsSchema,
        body: StartUploadBodySchema,
        response: { 201: UploadStateSchema, ...problems },
      },
    },
    async (request, reply) => {
      const { name, size } = request.body;
      const id = await files.startUpload(request, request.params.kasmId, name, size);
      return reply.code(201).send({ upload_id: id, name, size, offset: 0 });
    },
  );

  app.get(
    `${FILES_PREFIX}/uploads/:uploadId`,
    {
      schema: {
        tags,
        summary: 'Where an upload stands: send from offset',
        params: UploadParamsSchema,
        response: { 200: UploadStateSchema, ...problems },
      },
    },
    async (request) => {
      const { kasmId, uploadId } = request.params;
      return { upload_id: uploadId, ...(await files.uploadStatus(request, kasmId, uploadId)) };
    },
  );

  app.patch(
    `${FILES_PREFIX}/uploads/:uploadId`,
    {
      schema: {
        tags,
        summary: 'Append bytes at Upload-Offset; the last ones put the file in place',
        params: UploadParamsSchema,
        headers: UploadHeadersSchema,
        response: { 200: UploadProgressSchema, ...problems },
      },
    },
    async (request) => {
      const { kasmId, uploadId } = request.params;
      const offset = request.headers['upload-offset'];
      const { state, finished } = await files.appendUpload(
        request,
        kasmId,
        uploadId,
        offset,
        request.raw,
      );
      return {
        offset: state.offset,
        size: state.size,
        done: finished !== null,
        file: finished ?? undefined,
      };
    },
  );

  app.delete(
    `${FILES_PREFIX}/uploads/:uploadId`,
    {
      schema: {
        tags,
        summary: 'Abandon an upload: its part goes',
        params: UploadParamsSchema,
        response: { 204: Type.Null(), ...problems },
      },
    },
    async (request, reply) => {
      await files.cancelUpload(request, request.params.kasmId, request.params.uploadId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${FILES_PREFIX}/downloads`,
    {
      schema: {
        tags,
        summary: 'The regular files in ~/Downloads',
        params: SessionParamsSchema,
        response: { 200: DownloadListSchema, ...problems },
      },
    },
    async (request) => ({ files: await files.listDownloads(request, request.params.kasmId) }),
  );

  app.get(
    `${FILES_PREFIX}/downloads/:name`,
    {
      schema: {
        tags,
        summary: 'One file of ~/Downloads, streamed',
        params: DownloadParamsSchema,
        response: { 200: FileBytesSchema, ...problems },
      },
    },
    async (request, reply) => {
      const file = await files.openDownload(request, request.params.kasmId, request.params.name);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.size)
        .header('content-disposition', attachment(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
