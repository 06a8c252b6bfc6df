import type { FastifyInstance } from 'fastify';
import busboy from 'busboy';
import { ValidationFailedError } from '@platform/errors';

/**
 * Parses `multipart/form-data` (a form with a file, or a field too large for the web plugin's
 * 16 KiB url-encoded forms) into fields, each file read as its UTF-8 text under its field's name.
 * A content-type parser, so the body is there for the shell's CSRF check before the handler.
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
    const tooLarge = () =>
      fail(new ValidationFailedError(`A field of the form is over ${limitBytes} bytes`));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return tooLarge();
      fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', tooLarge);
      stream.on('close', () => {
        if (!failed) fields[name] = Buffer.concat(chunks).toString('utf8');
      });
    });
    parser.on('error', (error: Error) => fail(new ValidationFailedError(error.message)));
    parser.on('close', () => {
      if (!failed) done(null, fields);
    });
    payload.pipe(parser);
  });
}
