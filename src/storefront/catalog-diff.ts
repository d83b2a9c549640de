// Change records of one scrape: the differences between the previous observation of a store and
// this one (price changes, new and removed SKUs, app installs and removals, a theme change). The
// first observation of a store has nothing to differ from and records none.
import { money } from '../seed/store-catalog.ts';
import { percentChange } from '../stores/model/growth.ts';
import type { AppFingerprint } from './app-fingerprints.ts';
import type { ObservedProduct } from './read-storefront.ts';
import type { ChangeFacts } from '../change-feed/change.sql.ts';

export interface PreviousObservation {
  themeName: string | null;
  products: ReadonlyMap<string, { title: string; price: number }>;
  apps: ReadonlyMap<string, { id: number; name: string }>;
}

export function diffObservations(
  previous: PreviousObservation,
  current: {
    themeName: string | null;
    currency: string;
    products: readonly ObservedProduct[];
    apps: readonly AppFingerprint[];
  },
): ChangeFacts[] {
  const changes: ChangeFacts[] = [];
  const { currency } = current;
  const seen = new Set<string>();
  for (const product of current.products) {
    seen.add(product.handle);
    const before = previous.products.get(product.handle);
    if (!before) {
      changes.push({
        entity: 'product',
        changeType: 'new_sku',
        subject: product.handle,
        summary: `New product "${product.title}" at ${money(product.price, currency)}`,
        oldValue: null,
        newValue: product.price.toFixed(2),
        changePct: null,
      });
    } else if (before.price !== product.price) {
      const pct = percentChange(before.price, product.price);
      const up = product.price > before.price;
      changes.push({
        entity: 'product',
        changeType: up ? 'price_increase' : 'price_decrease',
        subject: product.handle,
        summary: `Price of "${product.title}" ${up ? 'rose' : 'dropped'}${pct === null ? '' : ` ${Math.abs(pct).toFixed(1)}%`} from ${money(before.price, currency)} to ${money(product.price, currency)}`,
        oldValue: before.price.toFixed(2),
        newValue: product.price.toFixed(2),
        changePct: pct,
      });
    }
  }
  for (const [handle, before] of previous.products) {
    if (seen.has(handle)) continue;
    changes.push({
      entity: 'product',
      changeType: 'removed_sku',
      subject: handle,
      summary: `Product "${before.title}" removed (was ${money(before.price, currency)})`,
      oldValue: before.price.toFixed(2),
      newValue: null,
      changePct: null,
    });
  }
  const installed = new Set(current.apps.map((a) => a.slug));
  for (const app of current.apps) {
    if (previous.apps.has(app.slug)) continue;
    changes.push({
      entity: 'app',
      changeType: 'app_installed',
      subject: app.slug,
      summary: `Installed ${app.name}`,
      oldValue: null,
      newValue: app.slug,
      changePct: null,
    });
  }
  for (const [slug, app] of previous.apps) {
    if (installed.has(slug)) continue;
    changes.push({
      entity: 'app',
      changeType: 'app_uninstalled',
      subject: slug,
      summary: `Uninstalled ${app.name}`,
      oldValue: slug,
      newValue: null,
      changePct: null,
    });
  }
  if (previous.themeName && current.themeName && previous.themeName !== current.themeName) {
    changes.push({
      entity: 'store',
      changeType: 'theme_changed',
      subject: null,
      summary: `Theme changed from ${previous.themeName} to ${current.themeName}`,
      oldValue: previous.themeName,
      newValue: current.themeName,
      changePct: null,
    });
  }
  return changes;
}
