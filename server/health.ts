import { db } from './db/client';
import { ping } from './db/sql/ping';

/** True when the database answers within two seconds. */
export async function checkHealth(): Promise<boolean> {
  try {
    await Promise.race([
      ping.rows(db()),
      new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}
