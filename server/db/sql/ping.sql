-- The health check's question: does the database answer (server/health.ts).
select 1 as ok
