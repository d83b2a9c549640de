// The storefront farm's epochs install, drop and reinstall apps, so observations of the farm open,
// close and reopen install periods (store_app_periods) and the crawl bench has app changes to
// record. Pure: the farm's stores are a function of (store, epoch), no server needed.
import { describe, expect, it } from 'vitest';
import { appChangesAt, farmStore } from '../support/storefront-farm/farm-store.ts';

const options = { domain: 'farm.test', stores: 2_000, seed: 1 };
const EPOCHS = 6;

describe('storefront farm: app changes across epochs', () => {
  it('installs, drops and reinstalls apps, and appChangesAt says exactly which', () => {
    let installs = 0;
    let uninstalls = 0;
    let reinstalls = 0;
    let storesChanging = 0;
    for (let index = 0; index < options.stores; index++) {
      const everDropped = new Set<string>();
      let previous = new Set(farmStore(options, index, 0).apps.map((a) => a.slug));
      expect(appChangesAt(options, index, 0)).toEqual({ installed: [], uninstalled: [] });
      let changed = false;
      for (let epoch = 1; epoch <= EPOCHS; epoch++) {
        const apps = new Set(farmStore(options, index, epoch).apps.map((a) => a.slug));
        const expected = {
          installed: [...apps].filter((slug) => !previous.has(slug)).sort(),
          uninstalled: [...previous].filter((slug) => !apps.has(slug)).sort(),
        };
        expect(appChangesAt(options, index, epoch)).toEqual(expected);
        installs += expected.installed.length;
        uninstalls += expected.uninstalled.length;
        reinstalls += expected.installed.filter((slug) => everDropped.has(slug)).length;
        for (const slug of expected.uninstalled) everDropped.add(slug);
        if (expected.installed.length + expected.uninstalled.length > 0) changed = true;
        previous = apps;
      }
      if (changed) storesChanging++;
    }
    // per epoch about CHANGE_RATE (0.3) x 0.15 of the stores install, x 0.1 drop; dropped apps come back
    expect(installs / (options.stores * EPOCHS)).toBeGreaterThan(0.02);
    expect(uninstalls / (options.stores * EPOCHS)).toBeGreaterThan(0.02);
    expect(reinstalls).toBeGreaterThan(20);
    expect(storesChanging / options.stores).toBeGreaterThan(0.15);
  });

  it('keeps a store the same at the same epoch', () => {
    const a = farmStore(options, 17, 4);
    const b = farmStore(options, 17, 4);
    expect(a.apps.map((app) => app.slug)).toEqual(b.apps.map((app) => app.slug));
    expect(a.dropped.map((app) => app.slug)).toEqual(b.dropped.map((app) => app.slug));
  });
});
