// The npm registry reachable here serves only the Linux builds of platform-specific optional
// packages (Biome's and Next's SWC binaries), so `npm install` leaves the other platforms out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds a lock entry
// for each missing optional platform package, with its os/cpu/libc, so `npm ci` skips it as
// not for this platform. Run after changing dependencies: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
const platform = (name) => {
  const os = ['darwin', 'win32', 'linux', 'android', 'freebsd'].find((o) => name.includes(`-${o}-`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'wasm32'].find((c) => new RegExp(`-${c}(-|$)`).test(name));
  return { os, cpu, libc: name.includes('-musl') ? 'musl' : name.includes('-gnu') ? 'glibc' : undefined };
};

let added = 0;
for (const [path, entry] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${path ? `${path}/` : ''}node_modules/${name}`.replace(/^\//, '');
    const hoisted = `node_modules/${name}`;
    if (pkgs[key] || pkgs[hoisted]) continue;
    const { os, cpu, libc } = platform(name);
    // A wasm32 build (Tailwind's oxide) names no OS: its cpu alone keeps it off every real machine.
    if (!cpu || (!os && cpu !== 'wasm32')) continue; // not a platform package: leave it to npm
    pkgs[hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      cpu: [cpu],
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} platform entries`);
