// Every permission check goes through `allows` (server/client-safe/permissions.ts): the REST pipeline,
// tRPC and the assistant's tools through `requirePermission`/`runRoute`, the dashboard's viewer and
// gate directly. This reads the source of server/, app/ and sdk/ and fails on any other way of asking
// whether a credential holds a permission (a role compared, a permissions list searched), so a new
// transport or page cannot quietly decide on its own. No database needed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const THE_TABLE = 'server/client-safe/permissions.ts';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'generated' || name === 'node_modules') return [];
    if (statSync(path.join(ROOT, file)).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Ways of deciding on a permission without `allows`. */
const BYPASSES = [
  /\bpermissions\??\.(includes|some|indexOf|find)\(/,
  /\bPERMISSIONS\[/,
  /\.role\s*===?\s*'admin'.*(permission|can)/i,
];

describe('one permission check', () => {
  it('nothing outside the permission table decides on a permission but through allows()', () => {
    const found: string[] = [];
    for (const file of [...sources('server'), ...sources('app'), ...sources('sdk')]) {
      if (file === THE_TABLE) continue;
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (BYPASSES.some((pattern) => pattern.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the patterns catch what they are for', () => {
    for (const line of [
      "if (viewer.permissions.includes('overview.read')) return children;",
      "const ok = PERMISSIONS['bookings.write'].includes(role);",
    ])
      expect(
        BYPASSES.some((p) => p.test(line)),
        line,
      ).toBe(true);
    expect(BYPASSES.some((p) => p.test("if (allows(viewer.permissions, 'overview.read'))"))).toBe(false);
  });
});
