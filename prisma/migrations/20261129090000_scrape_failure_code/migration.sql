-- Why a scrape request failed, as a code from a closed set (ScrapeRequest.failureCode) beside its text.
ALTER TABLE "scrape_requests" ADD COLUMN "failure_code" TEXT;
