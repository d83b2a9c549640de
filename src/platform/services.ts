// What the running service is made of, built once at start (app/main.ts) and handed to the HTTP
// layer, GraphQL context and jobs. Tests build the same object against their own databases.
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Database } from './database/database.ts';
import type { LegacyStore } from './legacy/port.ts';
import type { PubSub } from './pubsub/pubsub.ts';

export interface Services {
  config: Config;
  logger: Logger;
  db: Database;
  legacy: LegacyStore;
  pubsub: PubSub;
  /** the time features read (scrape TTLs and cooldowns); tests inject one, absent = the system clock */
  clock?: () => Date;
}
