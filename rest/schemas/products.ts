import { z } from 'zod';
import { DateTime, listOf } from './common.ts';

export const Product = z
  .strictObject({
    domain: z
      .string()
      .meta({ description: 'Domain of the store selling the product; with handle, its identity.' }),
    handle: z.string(),
    title: z.string(),
    vendor: z.string().nullable(),
    productType: z.string().nullable(),
    price: z.number().meta({ description: 'Price in `currency`.' }),
    compareAtPrice: z.number().nullable(),
    currency: z
      .string()
      .meta({ description: "The product's currency; USD when the store did not state one." }),
    isBestSeller: z.boolean(),
    bestSellerRank: z.number().int().nullable(),
    available: z.boolean(),
    variantCount: z.number().int(),
    imageUrl: z.string().nullable(),
    publishedAt: DateTime.nullable(),
    updatedAt: DateTime,
  })
  .meta({ id: 'Product' });

export const ProductList = listOf(Product, 'ProductList', 'A page of products.');
