-- Secrets the service makes for itself when configuration gives none (the webhook signing secret),
-- kept in the shared database so every replica and worker signs with the same one.
CREATE TABLE "service_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "service_secrets_pkey" PRIMARY KEY ("name")
);
