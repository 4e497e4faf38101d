-- The payment each of the tenant's bookings shows (booking_payment(): its latest), for the bookings
-- read or changed by an operation; a booking without one has no row.
-- @param tenantId
-- @param bookingIds
-- @not-null bookingId, id
select b.id as "bookingId", p.id, p.checkout_url as "checkoutUrl"
from unnest($2::text[]) as b(id)
cross join lateral booking_payment($1::uuid, b.id) p
