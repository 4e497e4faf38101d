import { db } from './db/client';

/** True when the database answers within two seconds. */
export async function checkHealth(): Promise<boolean> {
  try {
    await Promise.race([
      db().$queryRaw`select 1`,
      new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}
