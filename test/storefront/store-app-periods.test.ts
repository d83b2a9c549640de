// Every observation keeps the store's app install periods (store_app_periods): an app seen for the
// first time on a store already observed opens a period "seen installing", an app gone closes it at
// the observation that first saw the store without it, and a reinstall opens a second period. The
// apps a store already runs when first observed open periods that were not seen installing.
import { storefrontObservation } from '../support/storefront-observation.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';
import { suiteDatabase } from '../support/database.ts';

const suite = suiteDatabase();
let apps: { id: number; slug: string; name: string }[];

beforeAll(async () => {
  ({ rows: apps } = await suite.pool.query(
    `INSERT INTO apps (slug, name) VALUES ('periods-one', 'Periods One'), ('periods-two', 'Periods Two')
     RETURNING id, slug, name`,
  ));
});

const observation = (appIndexes: number[]): StorefrontObservation =>
  storefrontObservation({
    domain: 'periods.test',
    name: 'Periods',
    apps: appIndexes.map((i) => ({ ...apps[i]!, category: null, patterns: [] })),
  });

// the history tables hold partitions around today only: five observations a day apart, ending yesterday
const day = (n: number) => new Date((Math.floor(Date.now() / 86_400_000) - 6 + n) * 86_400_000);

async function observe(appIndexes: number[], at: Date) {
  const reference = loadReferenceData();
  const client = await suite.pool.connect();
  try {
    await client.query('BEGIN');
    await writeObservation(client, observation(appIndexes), {
      now: at,
      reference,
      legacyId: 'a'.repeat(24),
    });
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('store_app_periods', () => {
  it('opens, closes and reopens periods at the observations that saw them', async () => {
    await observe([0], day(1)); // first observation: app 0 already running
    await observe([0, 1], day(2)); // app 1 installed
    await observe([1], day(3)); // app 0 dropped
    await observe([0, 1], day(4)); // app 0 back
    await observe([0, 1], day(5)); // nothing changes
    const { rows } = await suite.pool.query(
      `SELECT p.app_id, p.installed_at, p.uninstalled_at, p.seen_installing
         FROM store_app_periods p JOIN stores s ON s.id = p.store_id
        WHERE s.domain = 'periods.test' ORDER BY p.app_id, p.installed_at`,
    );
    expect(rows).toEqual([
      {
        app_id: apps[0]!.id,
        installed_at: day(1),
        uninstalled_at: day(3),
        seen_installing: false,
      },
      {
        app_id: apps[0]!.id,
        installed_at: day(4),
        uninstalled_at: null,
        seen_installing: true,
      },
      {
        app_id: apps[1]!.id,
        installed_at: day(2),
        uninstalled_at: null,
        seen_installing: true,
      },
    ]);
  });
});
