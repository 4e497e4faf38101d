// The webhook operations, shared by REST (server/api/v1/webhooks.ts, deliveries.ts), the dashboard's
// tRPC procedures and the overview. Each takes `(ctx, input)` (an OperationContext, so its `db` is
// the tenant's scope) and returns the REST shape; failures are `AppError`s (not_found for another
// tenant's ids). Events are recorded through ./outbox.ts; the layout is explained in ./README.md.

export { endpointDeliveryStats, tenantDeliveryStats } from './deliveries/delivery-stats';
export { getDelivery } from './deliveries/get-delivery';
export { listDeliveries } from './deliveries/list-deliveries';
export { recoverDeliveries } from './deliveries/recover-deliveries';
export { resendDelivery } from './deliveries/resend-delivery';
export { createEndpoint } from './endpoints/create-endpoint';
export { deleteEndpoint } from './endpoints/delete-endpoint';
export { getEndpoint } from './endpoints/get-endpoint';
export { listEndpoints } from './endpoints/list-endpoints';
export { rotateSecret } from './endpoints/rotate-secret';
export { sendTestEvent } from './endpoints/send-test-event';
export { updateEndpoint } from './endpoints/update-endpoint';
export { verifyReceiver } from './endpoints/verify-receiver';
