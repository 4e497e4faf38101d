// `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded database).
import { prepareDatabase } from '@/server/launcher/database';

try {
  const { stop } = await prepareDatabase({ log: (line) => console.log(line) });
  console.log('Database is up to date.');
  await stop();
  process.exit(0);
} catch (error) {
  console.error(`db:migrate failed: ${(error as Error).message}`);
  process.exit(1);
}
