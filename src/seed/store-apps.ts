// Which apps a store runs, drawn by each app's installRate (data/apps.json), with the app change
// records of the last 90 days (installs first seen then, and now and then an uninstall).
import type { Random } from './random.ts';
import type { SeedApp, SeedContext } from './seed-context.ts';
import type { SeededChange, SeededInstall } from './seeded-types.ts';
import type { StoreTimeline } from './store-timeline.ts';

/** ordinary stores run supplier and print-on-demand apps too, rarely (a merch line) */
const DROPSHIP_APP_SHARE_OF_OTHERS = 0.04;
const RECENT_INSTALL_CHANCE = 0.12;
const UNINSTALL_CHANCE = 0.08;

export interface StoreApps {
  apps: SeedApp[];
  installs: SeededInstall[];
  changes: SeededChange[];
  dropshippingAppCount: number;
}

/**
 * @param appetite how many apps this store runs compared with a typical store (size and care)
 */
export function generateInstalls(
  rng: Random,
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

  const installs: SeededInstall[] = [];
  const changes: SeededChange[] = [];
  for (const app of apps) {
    const recent = rng.chance(RECENT_INSTALL_CHANCE);
    const firstSeenMs = recent ? timeline.recent() : timeline.older();
    installs.push({ appId: app.id, firstSeenAt: timeline.iso(firstSeenMs) });
    if (recent) {
      changes.push({
        entity: 'app',
        changeType: 'app_installed',
        subject: app.slug,
        summary: `Installed ${app.name}`,
        oldValue: null,
        newValue: app.slug,
        changePct: null,
        detectedAt: timeline.iso(firstSeenMs),
      });
    }
  }
  if (rng.chance(UNINSTALL_CHANCE)) {
    const gone = rng.pick(ctx.ordinaryApps);
    if (!apps.includes(gone)) {
      changes.push({
        entity: 'app',
        changeType: 'app_uninstalled',
        subject: gone.slug,
        summary: `Uninstalled ${gone.name}`,
        oldValue: gone.slug,
        newValue: null,
        changePct: null,
        detectedAt: timeline.iso(timeline.recent()),
      });
    }
  }
  return { apps, installs, changes, dropshippingAppCount };
}
