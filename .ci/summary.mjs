// Prints one closing line over every suite CI ran: "ci: N passed, N failed[, N skipped]".
// A suite that ran no test, or skipped any, fails the run: a skipped suite is a failed suite.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestFile, playwrightFile] = process.argv.slice(2);

const vitest = JSON.parse(readFileSync(vitestFile, 'utf8'));
passed += vitest.numPassedTests;
failed += vitest.numFailedTests;
skipped += vitest.numPendingTests + vitest.numTodoTests;
console.log(
  `vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed in ${vitest.numTotalTestSuites} suites`,
);
if (vitest.numTotalTests === 0) failed += 1;

const playwright = JSON.parse(readFileSync(playwrightFile, 'utf8'));
const s = playwright.stats;
passed += s.expected;
failed += s.unexpected + s.flaky;
skipped += s.skipped;
console.log(
  `playwright: ${s.expected} passed, ${s.unexpected} failed, ${s.flaky} flaky, ${s.skipped} skipped`,
);
if (s.expected === 0) failed += 1;

console.log(`ci: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
