import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { applyMigrations } from '@/server/db/migrate';
import { backfillManageLinks } from '@/server/domain/bookings/manage-link';

/**
 * The database every entry point (server, CLI, db:migrate) uses: DATABASE_URL when set, else the
 * embedded cluster under DATA_DIR, with pending migrations applied.
 * Sets process.env.DATABASE_URL.
 */
export async function prepareDatabase(options: { log: (line: string) => void; migrate?: boolean }) {
  const env = process.env;
  let stop = async () => {};
  if (!env.DATABASE_URL) {
    const embedded = await ensureEmbeddedDatabase(env.DATA_DIR || '.data', options.log);
    env.DATABASE_URL = embedded.url;
    stop = embedded.stop;
  }
  try {
    const { applied } =
      options.migrate === false ? { applied: [] } : await applyMigrations(env.DIRECT_URL || env.DATABASE_URL);
    for (const name of applied) options.log(`Applied migration ${name}`);
    // Data the migrations could not write themselves (it needs the service's key).
    if (options.migrate !== false) {
      const links = await backfillManageLinks();
      if (links > 0) options.log(`Wrote the manage links of ${links} earlier bookings`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: env.DATABASE_URL, stop };
}
