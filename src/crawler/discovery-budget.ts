// Discovery's budgets, so a site that links to fresh names without end (a spider trap) cannot grow
// the catalog without bound. They hold for candidates found as links on observed homepages (an
// import is the operator's own list, a moved store's new host its continuation): a linked
// candidate is validated only while, over the last 24 hours, fewer than `perSourceStore` candidates
// linked from the same store, fewer than `perRegistrableDomain` under the same registrable domain
// (example.co.uk for shop.example.co.uk) and fewer than `daily` in all were validated, and only
// when it was found at most `maxDepth` links away from a store the catalog got by an import or a
// scrape. A candidate over budget is not dropped: it stays pending (its reason says it waits), is
// looked at again every OVER_BUDGET_WAIT_MINUTES and validated when the budget allows (the window
// moved on), or, past the depth limit, once a nearer store links to it.
export interface DiscoveryBudget {
  maxDepth: number;
  daily: number;
  perSourceStore: number;
  perRegistrableDomain: number;
}

export const DEFAULT_DISCOVERY_BUDGET: DiscoveryBudget = {
  maxDepth: 3,
  daily: 5_000,
  perSourceStore: 10,
  perRegistrableDomain: 10,
};

/** The window the per-day budgets count in. */
export const BUDGET_WINDOW_HOURS = 24;

/** how long a candidate over budget waits before it is looked at again */
export const OVER_BUDGET_WAIT_MINUTES = 60;

export const describeBudget = (b: DiscoveryBudget): string =>
  `depth ${b.maxDepth}, per ${BUDGET_WINDOW_HOURS} h: ${b.daily} in all, ${b.perSourceStore} per linking store, ${b.perRegistrableDomain} per registrable domain`;
