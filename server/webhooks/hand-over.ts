// The one hand-over from the outbox to whichever engine runs deliveries: the delivery rows
// themselves, plus a NOTIFY on DELIVERIES_CHANNEL in the same transaction (PostgreSQL delivers it
// on commit, and never for a transaction that rolled back). The statements that write rows hand
// them over this way (sql/insert-event.sql, sql/insert-deliveries.sql,
// deliveries/sql/requeue-failed-deliveries.sql); nothing here knows which engine runs: the worker
// claims due rows (server/runtime/deliveries/claims.ts), the Inngest relay reads the rows it has not
// yet handed to Inngest (server/runtime/deliveries/relay.ts). Both LISTEN on the channel and also
// look at the rows on their own schedule, so a lost NOTIFY (no listener at that moment, a crash)
// delays a delivery but never strands it.
export const DELIVERIES_CHANNEL = 'switchboard_deliveries';
