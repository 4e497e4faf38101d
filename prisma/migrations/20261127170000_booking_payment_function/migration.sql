-- The payment a booking shows: its latest (a paid service's booking has the one of its Checkout
-- Session; a booking may also have manual payments recorded against it through POST /payments). One
-- definition for every statement that shows a booking: the booking list's page and a booking read
-- or changed (server/domain/bookings/serialize.ts). A STABLE SQL function of one SELECT, which
-- PostgreSQL inlines into the calling query, so its index is used as if the SELECT were written there.
create function booking_payment(p_tenant_id uuid, p_booking_id text)
returns table (id text, checkout_url text)
language sql stable
as $$
  select p.id, p.checkout_url from payments p
  where p.tenant_id = p_tenant_id and p.booking_id = p_booking_id
  order by p.created_at desc, p.id desc
  limit 1
$$;
