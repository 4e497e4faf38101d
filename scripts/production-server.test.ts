import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsStale } from './lib/production-server';

// The production server is rebuilt when its build is older than a source, so a bench never
// measures the code of an earlier build.
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'switchboard-build-'));
  roots.push(root);
  mkdirSync(path.join(root, 'server/domain'), { recursive: true });
  writeFileSync(path.join(root, 'server/domain/op.ts'), 'export {};\n');
  writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
  return root;
}
const touch = (file: string, secondsAgo: number) => {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, at, at);
};

describe('buildIsStale', () => {
  it('is stale without a build, fresh after one, and stale again once a source changes', () => {
    const root = project();
    expect(buildIsStale(root)).toBe(true);
    for (const file of ['server/domain/op.ts', 'server/domain', 'server', 'package-lock.json'])
      touch(path.join(root, file), 60);
    mkdirSync(path.join(root, '.next'));
    writeFileSync(path.join(root, '.next/BUILD_ID'), 'x\n');
    touch(path.join(root, '.next/BUILD_ID'), 30);
    expect(buildIsStale(root)).toBe(false);
    touch(path.join(root, 'server/domain/op.ts'), 0); // an edit deep in the tree
    expect(buildIsStale(root)).toBe(true);
  });

  it('counts the lockfile: new dependencies make a new build', () => {
    const root = project();
    for (const file of ['server/domain/op.ts', 'server/domain', 'server']) touch(path.join(root, file), 60);
    mkdirSync(path.join(root, '.next'));
    writeFileSync(path.join(root, '.next/BUILD_ID'), 'x\n');
    touch(path.join(root, '.next/BUILD_ID'), 30);
    touch(path.join(root, 'package-lock.json'), 0);
    expect(buildIsStale(root)).toBe(true);
  });
});
