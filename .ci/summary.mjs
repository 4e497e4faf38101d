// Prints one closing line over every suite CI ran: "ci: N passed, N failed[, N skipped]".
// A suite that ran no test, or skipped any, fails the run: a skipped suite is a failed suite.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const reports = process.argv.slice(2).map((file) => [file, JSON.parse(readFileSync(file, 'utf8'))]);

for (const [file, report] of reports) {
  if (report.stats) {
    const s = report.stats;
    passed += s.expected;
    failed += s.unexpected + s.flaky;
    skipped += s.skipped;
    console.log(
      `playwright: ${s.expected} passed, ${s.unexpected} failed, ${s.flaky} flaky, ${s.skipped} skipped`,
    );
    if (s.expected === 0) failed += 1;
  } else {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    console.log(
      `vitest (${file.split('/').pop()}): ${report.numPassedTests} passed, ${report.numFailedTests} failed ` +
        `in ${report.numTotalTestSuites} suites`,
    );
    if (report.numTotalTests === 0) failed += 1;
  }
}

console.log(`ci: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
