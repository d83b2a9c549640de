// Request bodies are parsed as Fastify does (secure-json-parse, refusing prototype-poisoning keys),
// but a body refused only for such a key is told so: it is valid JSON, and "not valid JSON" would
// send its author looking for a syntax error that is not there. A text/csv body is kept as its
// text (CsvBody) for the routes that declare they take one; the others refuse it.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../platform/errors.ts';

export const forbiddenKey = () =>
  new ApiError(
    'bad_request',
    'The request body has a "__proto__" key (or "constructor" with "prototype"), which the service refuses.',
    {
      parameter: 'body',
      rule: 'must not contain "__proto__" or "constructor.prototype" keys',
    },
  );

/** Replaces the application/json parser: the same parse, with a clear refusal of prototype-poisoning keys. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs: 'string' hands over a string
    const text = body as string;
    parse(request, text, (error, value) => {
      if (!error) return done(null, value);
      try {
        // it parses as plain JSON: only a forbidden key made the safe parse refuse it
        JSON.parse(text);
      } catch {
        return done(error, undefined);
      }
      done(forbiddenKey(), undefined);
    });
  });
}

/** A text/csv request body, as sent. */
export class CsvBody {
  constructor(readonly text: string) {}
}

/** Accepts text/csv bodies as text: a route declaring a CSV body reads it, any other refuses it. */
export function registerCsvBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => {
    done(null, new CsvBody(body as string));
  });
}
