// Which apps a store runs, drawn by each app's installRate (data/apps.json), its app install
// history over the store's observed life (store_app_periods: the current installs as open periods,
// apps dropped, now and then one installed again) and the app change records of the change window
// (CHANGE_WINDOW_DAYS before the last scrape): an app_installed for every period seen starting in
// it, an app_uninstalled for every period ending in it.
//
// The current installs and the change window's first records are drawn from the store's own
// generator as they always were (so the rest of the store is unchanged); the history around them
// from a second generator of the same store (`history`).
import type { Random } from './random.ts';
import { DAY_MS, type SeedApp, type SeedContext } from './seed-context.ts';
import type { SeededChange, SeededInstall, SeededPeriod } from './seeded-types.ts';
import type { StoreTimeline } from './store-timeline.ts';

/** ordinary stores run supplier and print-on-demand apps too, rarely (a merch line) */
const DROPSHIP_APP_SHARE_OF_OTHERS = 0.04;
const RECENT_INSTALL_CHANCE = 0.12;
const UNINSTALL_CHANCE = 0.08;
/** an app installed before the change window was, this often, already running when the store was first observed */
const RUNNING_AT_FIRST_SIGHT = 0.55;
/** an app installed after the store's first observation had been dropped once before, this often */
const REINSTALL_CHANCE = 0.06;
/** apps tried and dropped over a store's observed life: one more this often, again and again (at most MAX_DROPPED) */
const DROPPED_APP_CHANCE = 0.3;
/** the shortest period a dropped or reinstalled app ran, and the shortest gap before a reinstall */
const MIN_PERIOD_MS = DAY_MS;
const MAX_DROPPED = 4;

export interface StoreApps {
  apps: SeedApp[];
  installs: SeededInstall[];
  periods: SeededPeriod[];
  changes: SeededChange[];
  dropshippingAppCount: number;
}

/**
 * @param appetite how many apps this store runs compared with a typical store (size and care)
 * @param history the store's second generator, for the history around the current installs
 */
export function generateInstalls(
  rng: Random,
  history: Random,
  ctx: SeedContext,
  timeline: StoreTimeline,
  dropshipping: boolean,
  appetite: number,
): StoreApps {
  const apps: SeedApp[] = [];
  for (const app of ctx.ordinaryApps) {
    if (rng.chance(Math.min(0.95, app.installRate * appetite))) apps.push(app);
  }
  let dropshippingAppCount = 0;
  for (const app of ctx.dropshippingApps) {
    if (
      rng.chance(dropshipping ? app.installRate : app.installRate * DROPSHIP_APP_SHARE_OF_OTHERS)
    ) {
      apps.push(app);
      dropshippingAppCount++;
    }
  }
  if (dropshipping && dropshippingAppCount === 0 && rng.chance(0.85)) {
    apps.push(ctx.dropshippingAppPicker.pick(rng));
    dropshippingAppCount++;
  }

  const firstSeen = timeline.firstSeenMs;
  const installs: SeededInstall[] = [];
  const periods: SeededPeriod[] = [];
  const period = (app: SeedApp, installedMs: number, uninstalledMs: number | null) =>
    periods.push({
      app,
      installedMs,
      uninstalledMs,
      installedAt: timeline.iso(installedMs),
      uninstalledAt: uninstalledMs === null ? null : timeline.iso(uninstalledMs),
      seenInstalling: installedMs > firstSeen,
    });
  /** a closed period of `app` between two moments, starting at the first sighting half the time */
  const closedBetween = (app: SeedApp, fromMs: number, toMs: number) => {
    if (toMs - fromMs < 2 * MIN_PERIOD_MS) return;
    const installed =
      fromMs === firstSeen && history.chance(0.5)
        ? fromMs
        : fromMs + Math.floor(history.next() * (toMs - fromMs - MIN_PERIOD_MS));
    const uninstalled =
      installed + MIN_PERIOD_MS + Math.floor(history.next() * (toMs - installed - MIN_PERIOD_MS));
    period(app, installed, uninstalled);
  };

  for (const app of apps) {
    const recent = rng.chance(RECENT_INSTALL_CHANCE);
    let installedMs = recent ? timeline.recent() : timeline.older();
    if (!recent && history.chance(RUNNING_AT_FIRST_SIGHT)) installedMs = firstSeen;
    installs.push({ appId: app.id, firstSeenAt: timeline.iso(installedMs) });
    if (installedMs > firstSeen && history.chance(REINSTALL_CHANCE))
      closedBetween(app, firstSeen, installedMs - MIN_PERIOD_MS);
    period(app, installedMs, null);
  }
  const dropped = new Set<SeedApp>(apps);
  if (rng.chance(UNINSTALL_CHANCE)) {
    const gone = rng.pick(ctx.ordinaryApps);
    if (!dropped.has(gone)) {
      // dropped inside the change window, as the store's first generator always drew it
      const uninstalledMs = timeline.recent();
      const installedMs = history.chance(0.5)
        ? firstSeen
        : firstSeen + Math.floor(history.next() * (uninstalledMs - MIN_PERIOD_MS - firstSeen));
      period(gone, installedMs, uninstalledMs);
      dropped.add(gone);
    }
  }
  for (let n = 0; n < MAX_DROPPED && history.chance(DROPPED_APP_CHANCE); n++) {
    const app = ctx.ordinaryAppPicker.pick(history);
    if (dropped.has(app)) continue;
    dropped.add(app);
    closedBetween(app, firstSeen, timeline.lastScrapedMs);
  }

  const changes: SeededChange[] = [];
  const inWindow = (ms: number) => timeline.inChangeWindow(ms);
  for (const p of periods) {
    const { app } = p;
    if (p.seenInstalling && inWindow(p.installedMs)) {
      changes.push({
        entity: 'app',
        changeType: 'app_installed',
        subject: app.slug,
        summary: `Installed ${app.name}`,
        oldValue: null,
        newValue: app.slug,
        changePct: null,
        detectedAt: p.installedAt,
      });
    }
    if (p.uninstalledMs !== null && inWindow(p.uninstalledMs)) {
      changes.push({
        entity: 'app',
        changeType: 'app_uninstalled',
        subject: app.slug,
        summary: `Uninstalled ${app.name}`,
        oldValue: app.slug,
        newValue: null,
        changePct: null,
        detectedAt: p.uninstalledAt!,
      });
    }
  }
  return { apps, installs, periods, changes, dropshippingAppCount };
}
