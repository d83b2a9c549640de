// The latest homepage screenshot of each store (table store_screenshots), and the URL it is served at.
import type pg from 'pg';
import type { Config } from '../../platform/config.ts';
import type { Screenshot } from './take-screenshot.ts';

/** Replaces the store's screenshot; runs in the scrape's catalog transaction. */
export async function saveScreenshot(
  client: pg.PoolClient,
  storeId: number,
  shot: Screenshot,
  takenAt: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO store_screenshots (store_id, content_type, image, taken_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (store_id) DO UPDATE SET content_type = EXCLUDED.content_type, image = EXCLUDED.image, taken_at = EXCLUDED.taken_at`,
    [storeId, shot.contentType, shot.image, takenAt],
  );
}

export interface StoredScreenshot extends Screenshot {
  takenAt: Date;
}

export async function readScreenshot(
  pool: Pick<pg.Pool, 'query'>,
  domain: string,
): Promise<StoredScreenshot | null> {
  const {
    rows: [row],
  } = await pool.query<{ content_type: string; image: Buffer; taken_at: Date }>(
    `SELECT s.content_type, s.image, s.taken_at FROM store_screenshots s JOIN stores st ON st.id = s.store_id WHERE st.domain = $1`,
    [domain],
  );
  return row ? { contentType: row.content_type, image: row.image, takenAt: row.taken_at } : null;
}

/** The service's own URL of a store's screenshot (the legacy summary's screenshotUrl). */
export function screenshotUrl(
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'PORT'>,
  domain: string,
): string {
  const base = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return `${base}/v1/stores/${encodeURIComponent(domain)}/screenshot`;
}
