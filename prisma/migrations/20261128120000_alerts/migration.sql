-- Saved searches that alert (issue 30 item 4): an account's alert holds a store filter (the parameters of
-- GET /v1/stores); the observation writer records a match when an observation makes a store newly match it,
-- once per alert and store; alert.matched webhooks go through the scrape webhooks' outbox.
CREATE TABLE "alerts" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "callback_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_batch_at" TIMESTAMPTZ(3),
    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alerts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "alerts_account_id_created_at_idx" ON "alerts" ("account_id", "created_at" DESC);

CREATE TABLE "alert_matches" (
    "id" BIGSERIAL NOT NULL,
    "alert_id" INTEGER NOT NULL,
    "store_id" INTEGER NOT NULL,
    "matched_at" TIMESTAMPTZ(3) NOT NULL,
    "delivery_id" UUID,
    CONSTRAINT "alert_matches_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_matches_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_matches_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- once per alert and store, whatever observations race
CREATE UNIQUE INDEX "alert_matches_alert_id_store_id_key" ON "alert_matches" ("alert_id", "store_id");
CREATE INDEX "alert_matches_alert_id_matched_at_idx" ON "alert_matches" ("alert_id", "matched_at" DESC, "id" DESC);
-- the matches a webhook batch has not carried yet
CREATE INDEX "alert_matches_unsent_idx" ON "alert_matches" ("alert_id") WHERE "delivery_id" IS NULL;

-- the outbox carries alert.matched batches beside scrape events: a delivery belongs to a scrape request or an alert
ALTER TABLE "webhook_deliveries" ALTER COLUMN "scrape_request_id" DROP NOT NULL;
ALTER TABLE "webhook_deliveries" ADD COLUMN "alert_id" INTEGER;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "webhook_deliveries_alert_id_idx" ON "webhook_deliveries" ("alert_id");
