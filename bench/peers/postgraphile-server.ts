// The PostGraphile peer (bench only, never shipped): PostGraphile 5 with its recommended Amber preset
// on the same database, as its own docs run it in library mode (grafserv on Node's http server).
// Smart tags declare the unique key stores.domain (a unique index, which PostGraphile does not turn
// into a lookup by itself) and the relation stores.domain -> legacy_store_summaries.domain (the table has
// no foreign key: it stands in for a separate backend), so a card can ask whether a legacy summary
// exists in the same request, as the service's `sources` does. Products' best-seller columns are
// declared orderable (PostGraphile orders by indexed columns only), so a store's products can be asked
// in the service's order. Same pool size as the service.
// PEER_DATABASE_URL, PORT, HOST.
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { jsonPgSmartTags } from 'postgraphile/utils';

const connectionString = process.env.PEER_DATABASE_URL!;
const port = Number(process.env.PORT ?? 5678);
const host = process.env.HOST ?? '127.0.0.1';

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  plugins: [
    jsonPgSmartTags({
      version: 1,
      config: {
        class: {
          stores: {
            tags: {
              // Prisma writes the unique key as a unique index, which PostGraphile does not turn into a lookup field
              unique: 'domain',
              foreignKey:
                '(domain) references legacy_store_summaries (domain)|@fieldName legacySummary|@foreignFieldName store',
            },
          },
        },
        attribute: {
          'products.is_best_seller': { tags: { behavior: '+orderBy' } },
          'products.best_seller_rank': { tags: { behavior: '+orderBy' } },
        },
      },
    }),
  ],
  pgServices: [
    makePgService({
      connectionString,
      schemas: ['public'],
      poolConfig: { max: 10, application_name: 'bench-postgraphile' },
    }),
  ],
  grafserv: {
    port,
    host,
    graphqlPath: '/graphql',
    graphiql: false,
    watch: false,
  },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.once('listening', () =>
  process.stderr.write(`[postgraphile] listening on ${host}:${port}\n`),
);
serv.addTo(server).catch((error: unknown) => {
  process.stderr.write(`[postgraphile] ${String(error)}\n`);
  process.exit(1);
});
server.listen(port, host);
const stop = () => {
  server.close();
  void Promise.resolve(pgl.release()).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
