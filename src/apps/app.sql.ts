// How raw SQL reads an app row: the Prisma model's fields, so both paths yield the same AppRecord.
import type { App } from '../generated/prisma/client.ts';

export type AppRecord = App;

export const APP_COLUMNS = `a.id, a.slug, a.name, a.developer, a.category, a.pricing, a.rating,
  a.review_count AS "reviewCount", a.app_store_url AS "appStoreUrl",
  a.detection_patterns AS "detectionPatterns", a.install_count AS "installCount"`;
