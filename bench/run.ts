// `npm run bench` runs every benchmark; `npm run bench -- <name>` runs bench/<name>.ts.
// Each prints its figures next to a baseline measured in the same run and returns its ratios;
// bench/results.json gets every ratio key (null when its bench did not run), the raw figures, the
// date and the machine.
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchResult, RATIO_KEYS, type RatioKey } from './_results';

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
const started = Date.now();
const ratios = Object.fromEntries(RATIO_KEYS.map((k) => [k, null])) as Record<RatioKey, number | null>;
const raw: Record<string, unknown> = {};
for (const name of wanted.length ? wanted : available) {
  console.log(`\n=== bench: ${name} ===`);
  const benchStarted = Date.now();
  const mod = (await import(path.join(dir, `${name}.ts`))) as { run: () => Promise<BenchResult> };
  const result = await mod.run();
  Object.assign(ratios, result.ratios);
  raw[name] = { ...result.raw, duration_s: Math.round((Date.now() - benchStarted) / 1000) };
}
const results = {
  date: new Date().toISOString(),
  machine: {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    load_average_at_end: os.loadavg().map((l) => Number(l.toFixed(2))),
    node: process.version,
  },
  duration_s: Math.round((Date.now() - started) / 1000),
  ratios,
  raw,
};
writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nratios (bench/results.json, ${results.duration_s} s):`);
for (const [key, value] of Object.entries(ratios)) console.log(`  ${key.padEnd(20)} ${value ?? '-'}`);
process.exit(0);
