import { configDefaults, defineConfig } from 'vitest/config';

// One run, two projects. A test that needs the database is named *.integration.test.ts and runs in
// `integration`, with the embedded PostgreSQL (started once, test/support/global-setup.ts) and a
// database of its own per file (test/support/file-setup.ts). Every other *.test.ts is a unit test and
// runs in `unit`, without a database. `npx vitest run --project unit` runs the unit tests alone.
// Tests are grouped by area under test/ (bookings/, webhooks/, api/ …); their helpers are in
// test/support/.
const roots = ['server', 'test', 'scripts', 'app'];

export default defineConfig({
  resolve: { alias: { '@': new URL('.', import.meta.url).pathname } },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: roots.map((root) => `${root}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, '**/*.integration.test.ts'],
          setupFiles: ['test/support/unit-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: roots.map((root) => `${root}/**/*.integration.test.ts`),
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/file-setup.ts'],
        },
      },
    ],
  },
});
