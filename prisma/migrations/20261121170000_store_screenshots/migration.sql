-- The storefront homepage as a headless Chromium rendered it on the latest scrape (one per store),
-- served by GET /v1/stores/{domain}/screenshot.
CREATE TABLE "store_screenshots" (
    "store_id" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "image" BYTEA NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "store_screenshots_pkey" PRIMARY KEY ("store_id")
);

ALTER TABLE "store_screenshots" ADD CONSTRAINT "store_screenshots_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
