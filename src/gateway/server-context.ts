// The types the transports share: what each face hands an execution, and the Yoga instance built
// with it (pipeline.ts builds it; yoga.ts, json-lane.ts and websocket.ts run on its envelope).
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Principal } from '../access/principal.ts';

/** What a face hands each execution: who is calling (the identify stage's answer), its request and reply. */
export interface ServerContext {
  /** absent: anonymous */
  principal?: Principal | null;
  req?: FastifyRequest | IncomingMessage;
  reply?: FastifyReply;
  /** how many calls this run is charged as (default 1): an export charges its later pages at once, then runs them for 0 */
  listCalls?: number;
}

// biome-ignore lint/complexity/noBannedTypes: Yoga's own default for "no user context"
export type GraphqlYoga = YogaServerInstance<ServerContext, {}>;
