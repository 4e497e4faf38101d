-- Timer plans whose current generation was not yet handed to Inngest, earliest first (every
-- tenant's: the relay is a cross-tenant pass).
-- @cross-tenant the relay hands every tenant's plans to Inngest
-- @param limit
select id, tenant_id as "tenantId", generation, due_at as "dueAt"
from timers
where fired_at is null and (dispatched_generation is null or dispatched_generation <> generation)
order by due_at
limit $1::int
