// Requests Node would answer on its own, without the contract's envelope: an HTTP/1.1 request
// without a Host header (Node's bare 400, turned off with requireHostHeader: false so this hook
// answers it) and CONNECT (Node closes the socket without a word when nobody listens for it).
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../platform/errors.ts';
import { writeErrorOnSocket } from './error-envelope.ts';

const missingHost = () =>
  new ApiError('bad_request', 'An HTTP/1.1 request needs a Host header.', {
    parameter: 'Host',
    rule: 'required in HTTP/1.1',
  });

const notAProxy = () =>
  new ApiError('bad_request', 'CONNECT is not served: this service is not a proxy.', {
    parameter: 'method',
    rule: 'GET, POST, PATCH, DELETE or OPTIONS',
  });

export function registerRawRequestAnswers(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
      return done(missingHost());
    done();
  });
  app.server.on('connect', (_request, socket) => writeErrorOnSocket(socket, notAProxy()));
}
