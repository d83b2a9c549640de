// The job that delivers one row of the webhook outbox (webhook_deliveries): queued by scrapes and
// alerts in the transaction that writes the row, run by the scrapes feature's deliverWebhookTask.
export const DELIVER_WEBHOOK_TASK = 'deliver-webhook';
