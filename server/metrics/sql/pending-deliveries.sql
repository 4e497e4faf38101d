-- Deliveries waiting for an attempt, all tenants together (registry.ts's gauge, an operator's
-- figure never labelled by tenant), read along the worker's claim index.
-- @cross-tenant an operator's figure over every tenant
-- @not-null n
select count(*)::int as n from deliveries where status = 'pending'
