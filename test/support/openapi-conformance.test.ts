// The OpenAPI conformance check (test/openapi-conformance.ts) on exchanges made up here: each kind of
// drift it exists for is caught, with the operation, the status and the reason, and a matching
// exchange passes. Its use on real traffic is every integration test (test/api-server.ts).
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from './openapi-conformance';

const TENANT = '5e4b4493-c8dc-4f51-933b-666320650a42';
const KEY = 'key_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q';
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const list = { data: [], next_cursor: null };

function exchange(overrides: Partial<Exchange> & { requestJson?: unknown; answer?: unknown }): Exchange {
  const { requestJson, answer, ...rest } = overrides;
  const requestBody = requestJson === undefined ? undefined : JSON.stringify(requestJson);
  return {
    method: 'GET',
    target: '/api/v1/bookings',
    requestHeaders: new Headers({
      'X-Tenant-ID': TENANT,
      ...(requestBody
        ? { 'Content-Type': 'application/json', 'Content-Length': String(requestBody.length) }
        : {}),
    }),
    requestBody,
    status: 200,
    responseHeaders: new Headers({ 'Content-Type': 'application/json' }),
    responseBody: answer === undefined ? json(list) : json(answer),
    ...rest,
  };
}

const problems = (e: Exchange) => checkExchange(e).problems;

describe('the OpenAPI conformance check', () => {
  it('passes an exchange the document describes, and names its operation', () => {
    const verdict = checkExchange(exchange({ target: '/api/v1/bookings?limit=5&status=pending' }));
    expect(verdict).toMatchObject({ operation: 'listBookings', problems: [] });
    expect(verdict.checked).toEqual({ request: true, responseSchema: true });
  });

  it('fails a status the operation does not declare', () => {
    expect(problems(exchange({ status: 418 }))).toEqual([
      expect.stringMatching(/^status 418 is not declared \(the document lists 200, .*\)$/),
    ]);
  });

  it('fails a Content-Type the document does not declare for that status', () => {
    expect(
      problems(
        exchange({ responseHeaders: new Headers({ 'Content-Type': 'text/calendar; charset=utf-8' }) }),
      ),
    ).toEqual([
      expect.stringContaining('Content-Type text/calendar; charset=utf-8 is not one the document declares'),
    ]);
  });

  it('fails an answer whose body breaks its schema, or carries a field the document does not name', () => {
    expect(problems(exchange({ answer: { data: 'nope', next_cursor: null } }))).toEqual([
      expect.stringMatching(/answer body does not match the application\/json schema: \/data must be array/),
    ]);
    expect(problems(exchange({ answer: { ...list, total: 3 } }))).toEqual([
      expect.stringMatching(/must NOT have unevaluated properties \(total\)/),
    ]);
  });

  it('fails an error answer that is not a problem document', () => {
    const answer = problems(
      exchange({ status: 404, target: `/api/v1/bookings/bkg_x`, answer: { error: 'not found' } }),
    );
    expect(answer).toEqual([
      expect.stringContaining('is not one the document declares (application/problem+json)'),
    ]);
  });

  it('fails a body declared empty that came with one', () => {
    expect(
      problems(
        exchange({
          method: 'DELETE',
          target: `/api/v1/api-keys/${KEY}`,
          status: 204,
          responseHeaders: new Headers(),
          responseBody: json({ deleted: true }),
        }),
      ),
    ).toEqual(['status 204 is declared without a body, but the answer has one']);
  });

  it('fails an accepted request with a body where the document has none, or none where it is required', () => {
    const confirm = exchange({
      method: 'POST',
      target: '/api/v1/bookings/bkg_x/confirm',
      requestJson: { note: 'x' },
      answer: undefined,
    });
    expect(checkExchange(confirm).undeclaredBody).toBe(
      'accepted a request body, but the document declares none for this operation',
    );
    const create = exchange({
      method: 'POST',
      target: '/api/v1/bookings',
      status: 201,
      requestHeaders: new Headers({ 'X-Tenant-ID': TENANT, 'Content-Length': '0' }),
    });
    expect(problems(create)).toContain(
      'accepted a request without a body, but the document marks the body required',
    );
  });

  it('takes a POST without a body where every field is optional (rotate, succeed, cancel, refund)', () => {
    for (const target of [
      `/api/v1/api-keys/${KEY}/rotate`,
      '/api/v1/payments/pay_x/succeed',
      '/api/v1/bookings/bkg_x/cancel',
      '/api/v1/payments/pay_x/refund',
    ]) {
      const verdict = checkExchange(
        exchange({ method: 'POST', target, requestHeaders: new Headers({ 'X-Tenant-ID': TENANT }) }),
      );
      expect(
        verdict.problems.filter((p) => p.includes('without a body')),
        target,
      ).toEqual([]);
    }
  });

  it('fails an accepted request whose body or query breaks its schema, or lacks a required header', () => {
    expect(
      problems(
        exchange({
          method: 'POST',
          target: '/api/v1/bookings',
          status: 201,
          requestJson: { customer: 'Ada' },
        }),
      ).join('\n'),
    ).toMatch(/the request body does not match the application\/json schema: .*\/customer must be object/);
    expect(problems(exchange({ target: '/api/v1/bookings?limit=many' }))).toEqual([
      'accepted an invalid query parameter limit: /value must be integer',
    ]);
    expect(problems(exchange({ requestHeaders: new Headers() }))).toEqual([
      'accepted without the required header parameter X-Tenant-ID',
    ]);
  });

  it('does not hold a refused request to the document: hostile input is the tests’ own', () => {
    const refused = exchange({
      method: 'POST',
      target: '/api/v1/bookings',
      requestJson: { customer: 'Ada' },
      status: 422,
      responseHeaders: new Headers({ 'Content-Type': 'application/problem+json' }),
      answer: {
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        code: 'validation_failed',
        detail: 'x',
        request_id: 'req_1',
        errors: [{ path: 'customer', message: 'Expected object' }],
      },
    });
    expect(checkExchange(refused)).toMatchObject({ problems: [], checked: { request: false } });
  });

  it('lets only 404 (no such path) and 405 (no such method) answer outside the document', () => {
    const problem = {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      code: 'not_found',
      detail: 'x',
      request_id: 'req_1',
    };
    const problemHeaders = new Headers({ 'Content-Type': 'application/problem+json' });
    expect(
      problems(
        exchange({ target: '/api/v1/nope', status: 404, responseHeaders: problemHeaders, answer: problem }),
      ),
    ).toEqual([]);
    expect(
      problems(
        exchange({ target: '/api/v1/nope', status: 200, responseHeaders: problemHeaders, answer: problem }),
      ),
    ).toEqual(['no operation has this path, yet it answered 200 (only 404 is expected)']);
    expect(
      problems(
        exchange({
          method: 'PUT',
          target: '/api/v1/bookings',
          status: 405,
          responseHeaders: problemHeaders,
          answer: { ...problem, status: 405, code: 'method_not_allowed', title: 'Method Not Allowed' },
        }),
      ),
    ).toEqual([]);
  });
});
