// Modeled monthly visits. A store's own traffic is never observed; what is observed is its audience
// (social followers), its catalog and its app stack, and for some stores a third-party traffic panel.

export interface VisitsInputs {
  /** followers summed over the store's social profiles */
  socialFollowers: number;
  productCount: number;
  appCount: number;
  /** latest monthly visits from a third-party traffic source; null or absent when not covered */
  thirdPartyVisits?: number | null;
}

export interface VisitsEstimate {
  monthlyVisits: number;
  /** which input dominated: the third-party figure when present, otherwise the observed signals */
  basis: 'third_party' | 'observed_signals';
  /** the estimate from observed signals alone (also computed when third-party data exists) */
  signalEstimate: number;
}

/** visits a store with one product, no apps and no audience still gets (direct, search, marketplaces) */
export const BASE_VISITS = 40;
/** each extra app is a sign of an operated store: +15% per app */
export const APP_UPLIFT = 0.15;
/** monthly visits per social follower */
export const VISITS_PER_FOLLOWER = 3;
/** share of the third-party figure in the blend when it exists */
export const THIRD_PARTY_WEIGHT = 0.9;

export const VISITS_METHOD =
  `Modeled monthly visits. From observed signals: ${BASE_VISITS} x sqrt(1 + productCount) x ` +
  `(1 + ${APP_UPLIFT} x appCount) + ${VISITS_PER_FOLLOWER} x socialFollowers. When a third-party ` +
  `traffic source covers the store its figure dominates: ${THIRD_PARTY_WEIGHT} x thirdPartyVisits + ` +
  `${Math.round((1 - THIRD_PARTY_WEIGHT) * 100) / 100} x signal estimate. Rounded to whole visits; ` +
  'negative inputs count as 0. An estimate, not a measurement.';

const nonNegative = (n: number | null | undefined): number =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;

export function estimateVisits(inputs: VisitsInputs): VisitsEstimate {
  const products = nonNegative(inputs.productCount);
  const apps = nonNegative(inputs.appCount);
  const followers = nonNegative(inputs.socialFollowers);
  const signal =
    BASE_VISITS * Math.sqrt(1 + products) * (1 + APP_UPLIFT * apps) +
    VISITS_PER_FOLLOWER * followers;
  const signalEstimate = Math.round(signal);
  const thirdParty = inputs.thirdPartyVisits;
  if (typeof thirdParty === 'number' && Number.isFinite(thirdParty)) {
    const blended =
      THIRD_PARTY_WEIGHT * nonNegative(thirdParty) + (1 - THIRD_PARTY_WEIGHT) * signal;
    return { monthlyVisits: Math.round(blended), basis: 'third_party', signalEstimate };
  }
  return { monthlyVisits: signalEstimate, basis: 'observed_signals', signalEstimate };
}
