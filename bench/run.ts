// `npm run bench` runs every benchmark; `npm run bench -- <name>` runs bench/<name>.ts.
// Each prints its figures next to a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length ? wanted : available) {
  console.log(`\n=== bench: ${name} ===`);
  const mod = (await import(path.join(dir, `${name}.ts`))) as { run: () => Promise<void> };
  await mod.run();
}
process.exit(0);
