// One product as a Signals probe reads it: Shopify's per-product JSON, GET https://<domain>/products/<handle>.js, one
// request per tracked product. From each variant: id, sku, title, price, available and
// inventory_quantity. Shopify's .js gives prices in cents (integers); a decimal string (the .json
// form) is read as currency units. Stores that hide stock omit inventory_quantity: the snapshot then
// has stock null (price and availability are still recorded) and no sales are estimated from it.
import { z } from 'zod';
import {
  answerFailure,
  getStorefrontPath,
  jsonOf,
  type StorefrontClient,
} from './storefront-client.ts';
import { StorefrontFailure } from './storefront-failure.ts';

const price = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)])
  .transform((v) => (typeof v === 'number' ? v / 100 : Number(v)));

const Variant = z.object({
  id: z.union([z.number().int(), z.string().min(1).max(64)]).transform(String),
  sku: z
    .string()
    .max(255)
    .nullish()
    .catch(null)
    .transform((v) => (v ? v : null)),
  title: z.string().max(1000).nullish().catch(null),
  price,
  available: z.boolean().nullish().catch(null),
  inventory_quantity: z.number().int().nullish().catch(null),
});

const ProductJson = z.object({
  title: z.string().max(1000).nullish().catch(null),
  variants: z.array(Variant).min(1),
});

export interface VariantReading {
  variantId: string;
  sku: string | null;
  /** "<product title> / <variant title>", or the product title for a single default variant */
  title: string;
  price: number;
  available: boolean;
  /** null when the storefront does not expose inventory */
  stock: number | null;
}

/** The product's variants as the storefront shows them now, or null when the product is gone (404). */
export async function readProductVariants(
  client: StorefrontClient,
  domain: string,
  handle: string,
): Promise<VariantReading[] | null> {
  const path = `/products/${encodeURIComponent(handle)}.js`;
  let response;
  try {
    response = await getStorefrontPath(client, domain, path, { maxRedirects: 3 });
  } catch (error) {
    if (error instanceof StorefrontFailure && error.kind === 'moved') {
      throw new StorefrontFailure(
        'moved',
        `${domain} moved: /products/${handle}.js redirects to ${error.details.movedTo}, another host; nothing of it is recorded`,
        error.details,
      );
    }
    throw error;
  }
  if (response.status === 404) return null;
  if (response.status !== 200)
    throw answerFailure(
      response,
      `${domain}/products/${handle}.js answered HTTP ${response.status}`,
    );
  const parsed = ProductJson.safeParse(jsonOf(response, `${domain}/products/${handle}.js`));
  if (!parsed.success)
    throw new StorefrontFailure(
      'malformed',
      `${domain}/products/${handle}.js is not a product (no variants)`,
    );
  const productTitle = parsed.data.title ?? handle;
  return parsed.data.variants.map((v) => ({
    variantId: v.id,
    sku: v.sku,
    title: !v.title || v.title === 'Default Title' ? productTitle : `${productTitle} / ${v.title}`,
    price: Math.round(v.price * 100) / 100,
    available:
      v.available ??
      (v.inventory_quantity === null || v.inventory_quantity === undefined
        ? true
        : v.inventory_quantity > 0),
    stock: v.inventory_quantity ?? null,
  }));
}
