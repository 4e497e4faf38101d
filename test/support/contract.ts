// Every REST exchange the integration suite makes is checked against the OpenAPI document
// (test/openapi-conformance.ts): the test API server checks each one as it answers, and a caller
// that holds the answer asks here for its verdict, so a drift fails the test at the call, naming
// the operation, the status and the schema error. An answer from a server in another process (no
// verdict recorded here) is checked on the spot from what the caller saw.
import { checkExchange, type Exchange } from './openapi-conformance';
import { claimVerdicts, countFailure, describeVerdict, recordVerdict } from './openapi-ledger';

export class ConformanceError extends Error {
  override name = 'ConformanceError';
}

/**
 * Throws when the exchange answered with `requestId` does not match the document. `hostile`: the
 * request was made up to be bad (the fuzz test), so a body sent to an operation that takes none,
 * which the server ignores, is no finding; everything else still is.
 */
export function assertExchangeConforms(
  requestId: string | null,
  exchange: () => Exchange,
  options: { hostile?: boolean } = {},
): void {
  let verdicts = claimVerdicts(requestId);
  if (!verdicts) {
    const verdict = checkExchange(exchange());
    recordVerdict(requestId, verdict);
    verdicts = claimVerdicts(requestId) ?? [verdict];
  }
  for (const verdict of verdicts) {
    const problems = options.hostile
      ? verdict.problems.filter((problem) => problem !== verdict.undeclaredBody)
      : verdict.problems;
    if (problems.length > 0) {
      countFailure();
      throw new ConformanceError(describeVerdict({ ...verdict, problems }));
    }
  }
}
