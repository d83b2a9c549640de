// The three ad library adapters and their configuration (ADS_<NETWORK>_BASE_URL and _TOKEN). A
// network is used only when both are set; otherwise it is reported as not_configured, never
// answered with invented data. One egress client per running service, so the per-host politeness
// interval holds across every probe this process makes.
import type { Egress } from '../../platform/egress/egress.ts';
import { egressFromConfig } from '../../platform/egress/egress-from-config.ts';
import type { Config } from '../../platform/config.ts';
import type { Services } from '../../platform/services.ts';
import { AD_NETWORKS, type AdLibraryAdapter, type AdNetwork } from './ad-library.ts';
import { googleAdsTransparency } from './google-ads-transparency.ts';
import { metaAdLibrary } from './meta-ad-library.ts';
import { tiktokAdLibrary } from './tiktok-ad-library.ts';
import packageJson from '../../../package.json' with { type: 'json' };

export const AD_LIBRARIES: Record<AdNetwork, AdLibraryAdapter> = {
  meta: metaAdLibrary,
  tiktok: tiktokAdLibrary,
  google: googleAdsTransparency,
};

const SETTINGS = {
  meta: ['ADS_META_BASE_URL', 'ADS_META_TOKEN'],
  tiktok: ['ADS_TIKTOK_BASE_URL', 'ADS_TIKTOK_TOKEN'],
  google: ['ADS_GOOGLE_BASE_URL', 'ADS_GOOGLE_TOKEN'],
} as const satisfies Record<AdNetwork, readonly [keyof Config, keyof Config]>;

export type LibrarySetup =
  | { network: AdNetwork; configured: true; baseUrl: string; token: string }
  | { network: AdNetwork; configured: false; missing: string[] };

export function librarySetups(config: Config): LibrarySetup[] {
  return AD_NETWORKS.map((network) => {
    const [urlName, tokenName] = SETTINGS[network];
    const baseUrl = config[urlName] as string | undefined;
    const token = config[tokenName] as string | undefined;
    if (baseUrl && token) return { network, configured: true, baseUrl, token };
    const missing: string[] = [];
    if (!baseUrl) missing.push(urlName);
    if (!token) missing.push(tokenName);
    return { network, configured: false, missing };
  });
}

const egressByServices = new WeakMap<Services, Egress>();

export function adsEgress(services: Services): Egress {
  let egress = egressByServices.get(services);
  if (!egress) {
    egress = egressFromConfig(services.config, `store-intelligence-ads/${packageJson.version}`);
    egressByServices.set(services, egress);
  }
  return egress;
}
