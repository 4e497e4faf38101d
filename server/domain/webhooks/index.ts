// Webhook domain operations, shared by REST (server/api/v1/webhooks.ts, deliveries.ts) and the
// dashboard's tRPC procedures. Each takes `(ctx, input)` with `db = forTenant(tenantId)` and
// returns the REST shape; failures are `AppError`s (not_found for another tenant's ids).
export { createEndpoint } from './create-endpoint';
export { deleteEndpoint } from './delete-endpoint';
export { getDelivery } from './get-delivery';
export { getEndpoint } from './get-endpoint';
export { listDeliveries } from './list-deliveries';
export { listEndpoints } from './list-endpoints';
export { recoverDeliveries } from './recover-deliveries';
export { resendDelivery } from './resend-delivery';
export { rotateSecret } from './rotate-secret';
export { sendTestEvent } from './send-test-event';
export { updateEndpoint } from './update-endpoint';
export { verifyReceiver } from './verify-receiver';
