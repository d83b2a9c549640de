// The store's vertical and category, read from its products' types against the taxonomy
// (data/taxonomy.json): the category (or vertical) most products name wins. Null when no product
// type names one; a known store then keeps what the catalog already says.
import type { VerticalReference } from '../seed/reference-data.ts';

export interface Classification {
  vertical: string;
  industry: string;
  category: string | null;
}

export function classifyByProductTypes(
  productTypes: readonly (string | null)[],
  verticals: readonly VerticalReference[],
): Classification | null {
  const votes = new Map<string, { classification: Classification; count: number }>();
  const vote = (key: string, classification: Classification) => {
    const entry = votes.get(key) ?? { classification, count: 0 };
    entry.count += 1;
    votes.set(key, entry);
  };
  for (const raw of productTypes) {
    const type = raw?.trim().toLowerCase();
    if (!type) continue;
    for (const vertical of verticals) {
      const category = vertical.categories.find((c) => c.name.toLowerCase() === type);
      if (category)
        vote(`${vertical.slug}/${category.slug}`, {
          vertical: vertical.name,
          industry: vertical.industry,
          category: category.name,
        });
      else if (vertical.name.toLowerCase() === type)
        vote(vertical.slug, {
          vertical: vertical.name,
          industry: vertical.industry,
          category: null,
        });
    }
  }
  let best: { classification: Classification; count: number } | undefined;
  for (const entry of votes.values()) if (!best || entry.count > best.count) best = entry;
  return best?.classification ?? null;
}
