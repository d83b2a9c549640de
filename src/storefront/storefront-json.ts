// The storefront's public JSON: /meta.json and the products.json pages (store-wide and per
// collection). Parsed leniently with zod: fields a storefront leaves out become null, a document
// that is not the expected shape at all is reported as such.
import { z } from 'zod';

const text = z.string().nullish().catch(null);

export const StorefrontMeta = z.object({
  name: text,
  description: text,
  country: text,
  currency: text,
  published_products_count: z.number().int().nonnegative().nullish().catch(null),
});
export type StorefrontMeta = z.infer<typeof StorefrontMeta>;

const Variant = z.object({
  price: z.union([z.string(), z.number()]).transform(Number),
  compare_at_price: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v))),
  available: z.boolean().nullish().catch(null),
});

export const StorefrontProduct = z.object({
  handle: z.string().min(1).max(255),
  title: z.string().max(1000),
  vendor: text,
  product_type: text,
  published_at: text,
  variants: z.array(Variant).min(1),
  images: z
    .array(z.object({ src: z.string() }))
    .nullish()
    .catch(null),
});
export type StorefrontProduct = z.infer<typeof StorefrontProduct>;

export const ProductsPage = z.object({ products: z.array(z.unknown()) });

/** The products of a page that have the shape of a product; malformed entries are skipped, not fatal. */
export function productsOf(page: z.infer<typeof ProductsPage>): StorefrontProduct[] {
  return page.products.flatMap((entry) => {
    const parsed = StorefrontProduct.safeParse(entry);
    return parsed.success && parsed.data.variants.every((v) => Number.isFinite(v.price))
      ? [parsed.data]
      : [];
  });
}
