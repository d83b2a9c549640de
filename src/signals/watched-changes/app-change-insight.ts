// The app_change insight card of one app installed on or removed from a watched store: pulled from
// the watch's insights and the account's inbox, never pushed.
import type { ChangeFacts } from '../../change-feed/change.sql.ts';

export interface AppChangeInsight {
  title: string;
  body: string;
  data: {
    domain: string;
    changeType: 'app_installed' | 'app_uninstalled';
    appSlug: string;
    appName: string;
    detectedAt: string;
  };
  createdAt: string;
}

/** The insights of an observation's app changes; its other changes have none here. */
export function appChangeInsights(
  domain: string,
  changes: readonly ChangeFacts[],
  appNames: ReadonlyMap<string, string>,
  detectedAt: Date,
): AppChangeInsight[] {
  return changes.flatMap((change) => {
    if (change.entity !== 'app' || change.subject === null) return [];
    if (change.changeType !== 'app_installed' && change.changeType !== 'app_uninstalled') return [];
    const appName = appNames.get(change.subject) ?? change.subject;
    const installed = change.changeType === 'app_installed';
    return [
      {
        title: installed ? `${domain} installed ${appName}` : `${domain} removed ${appName}`,
        body: installed
          ? `${appName} appeared on ${domain}'s storefront since the previous observation.`
          : `${appName} is no longer on ${domain}'s storefront; it was there at the previous observation.`,
        data: {
          domain,
          changeType: change.changeType,
          appSlug: change.subject,
          appName,
          detectedAt: detectedAt.toISOString(),
        },
        createdAt: detectedAt.toISOString(),
      },
    ];
  });
}
