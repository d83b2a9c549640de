// Modeled monthly ad spend: the paid share of the visits times what such a click costs.

export interface AdSpendInputs {
  monthlyVisits: number;
  /** paid share of traffic from the third-party mix, percent; null when the store is not covered */
  paidTrafficPct: number | null;
  isDropshipper: boolean;
  averageOrderValueUsd: number | null;
}

/** paid share assumed without third-party data: dropshippers live on paid social, brands less so */
export const DEFAULT_PAID_SHARE = { dropshipper: 0.3, other: 0.1 } as const;
export const CPC_MIN_USD = 0.35;
export const CPC_MAX_USD = 3;
/** cost per click assumed without an AOV */
export const CPC_DEFAULT_USD = 0.8;

export const AD_SPEND_METHOD =
  'Modeled monthly ad spend in USD = visits x paid share x cost per click, rounded. Paid share is ' +
  'the paid percentage of the third-party traffic mix when the store is covered, otherwise ' +
  `${DEFAULT_PAID_SHARE.dropshipper * 100}% for stores classified as dropshippers and ` +
  `${DEFAULT_PAID_SHARE.other * 100}% for others. Cost per click = ${CPC_MIN_USD} + 0.012 x AOV, ` +
  `kept within ${CPC_MIN_USD}..${CPC_MAX_USD} USD (${CPC_DEFAULT_USD} without an AOV).`;

export function costPerClick(averageOrderValueUsd: number | null): number {
  if (averageOrderValueUsd === null || !Number.isFinite(averageOrderValueUsd))
    return CPC_DEFAULT_USD;
  return Math.min(CPC_MAX_USD, Math.max(CPC_MIN_USD, CPC_MIN_USD + 0.012 * averageOrderValueUsd));
}

export function estimateAdSpend(inputs: AdSpendInputs): number {
  if (!(inputs.monthlyVisits > 0)) return 0;
  const paidShare =
    inputs.paidTrafficPct !== null && Number.isFinite(inputs.paidTrafficPct)
      ? Math.min(100, Math.max(0, inputs.paidTrafficPct)) / 100
      : inputs.isDropshipper
        ? DEFAULT_PAID_SHARE.dropshipper
        : DEFAULT_PAID_SHARE.other;
  return Math.round(inputs.monthlyVisits * paidShare * costPerClick(inputs.averageOrderValueUsd));
}
