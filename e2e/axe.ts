// axe-core in the browser tests: a page passes when axe finds no serious or critical violation.
// Besides axe's default rules (WCAG 2.x A and AA, best practices), label-content-name-mismatch runs
// too (axe counts it experimental): a control's accessible name must contain the words it shows.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const BLOCKING = new Set(['serious', 'critical']);

/** Runs axe on the page as it is now and fails, naming each rule and the elements, on a serious or critical violation. */
export async function expectAccessible(page: Page, where: string, options: { exclude?: string[] } = {}) {
  let builder = new AxeBuilder({ page }).options({
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const blocking = violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const report = blocking
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ').slice(0, 300)}`)
          .join('\n'),
    )
    .join('\n');
  // Soft: one run reports every page that fails, not only the first.
  expect
    .soft(
      blocking.map((v) => v.id),
      `axe on ${where}:\n${report}`,
    )
    .toEqual([]);
  return violations;
}
