-- Marks timer plans handed to Inngest, each only for the generation sent: a plan moved meanwhile
-- (generation + 1) stays unrelayed for the next pass.
-- @cross-tenant the relay hands every tenant's plans to Inngest
-- @param ids
-- @param generations
update timers t set dispatched_generation = s.generation
from unnest($1::text[], $2::int[]) as s(id, generation)
where t.id = s.id and t.generation = s.generation
