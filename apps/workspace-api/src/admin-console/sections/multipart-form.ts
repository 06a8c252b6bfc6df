import type { FastifyInstance } from 'fastify';
import busboy from 'busboy';
import { ValidationFailedError } from '@platform/errors';

const FRAMING_BYTES = 64 * 1024;

/**
 * Parses `multipart/form-data` (a form with a file, or a field too large for the web plugin's
 * 16 KiB url-encoded forms) into fields, each file read as its UTF-8 text under its field's name.
 * A content-type parser, so the body is there for the shell's CSRF check before the handler.
 * Not @fastify/multipart: docs/decisions/0012-own-multipart-parser.md says why.
 */
export function acceptMultipartForms(app: FastifyInstance, limitBytes: number): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const fields: Record<string, string> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { fieldSize: limitBytes, fileSize: limitBytes, files: 4, fields: 40 },
      });
    } catch (error) {
      return done(new ValidationFailedError((error as Error).message), undefined);
    }
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      payload.unpipe(parser);
      payload.resume();
      done(error, undefined);
    };
    const tooLarge = () => fail(new ValidationFailedError(`The form is over ${limitBytes} bytes`));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return tooLarge();
      fields[name] = value;
    });
    const files = new Map<string, Buffer[]>();
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      files.set(name, chunks);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', tooLarge);
    });
    parser.on('error', (error: Error) => fail(new ValidationFailedError(error.message)));
    // Every file's data has been handed on by the time the parser closes.
    parser.on('close', () => {
      if (failed) return;
      for (const [name, chunks] of files) fields[name] = Buffer.concat(chunks).toString('utf8');
      done(null, fields);
    });
    // The whole body too: fields and files together stay within the limit (and a little framing).
    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes + FRAMING_BYTES) tooLarge();
    });
    payload.pipe(parser);
  });
}
