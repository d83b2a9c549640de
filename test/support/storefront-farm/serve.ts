// The storefront farm as its own process, for benches and for trying the service by hand:
//   npx tsx test/support/storefront-farm/serve.ts [--port 18500] [--stores 10000] [--domain farm.test] [--seed 1]
// prints one JSON line when it listens ({"port", "overrides", "stores", "domain"}), then serves
// until SIGINT/SIGTERM. Start the service with EGRESS_OVERRIDES set to the printed overrides.
import { parseArgs } from 'node:util';
import { startStorefrontFarm } from './farm-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    stores: { type: 'string', default: '10000' },
    domain: { type: 'string', default: 'farm.test' },
    seed: { type: 'string', default: '1' },
  },
});

const farm = await startStorefrontFarm({
  port: Number(values.port),
  stores: Number(values.stores),
  domain: values.domain,
  seed: Number(values.seed),
});
process.stdout.write(
  `${JSON.stringify({ port: farm.port, overrides: farm.overrides, stores: farm.options.stores, domain: farm.options.domain })}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void farm.close().then(() => process.exit(0));
  });
}
