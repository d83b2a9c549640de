// The types the transports share: what the HTTP server hands each execution, and the Yoga
// instance built with it (yoga.ts builds it; json-lane.ts and websocket.ts run on its envelope).
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { YogaServerInstance } from 'graphql-yoga';

/** What the HTTP server hands each execution: the Fastify request (the access layer bound its caller to it) and reply. */
export interface ServerContext {
  req?: FastifyRequest | IncomingMessage;
  reply?: FastifyReply;
  /** how many calls this run is charged as (default 1): an export charges its later pages at once, then runs them for 0 */
  listCalls?: number;
}

// biome-ignore lint/complexity/noBannedTypes: Yoga's own default for "no user context"
export type GraphqlYoga = YogaServerInstance<ServerContext, {}>;
