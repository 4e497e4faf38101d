-- The payment a manage page shows: the booking's own (booking_payment(): its latest), with what a
-- customer sees of it.
-- @param tenantId
-- @param bookingId
-- @not-null id, status, amount, currency
select p.id, p.status::text as status, p.amount, p.currency, p.checkout_url as "checkoutUrl"
from booking_payment($1::uuid, $2::text) bp
join payments p on p.tenant_id = $1::uuid and p.id = bp.id
