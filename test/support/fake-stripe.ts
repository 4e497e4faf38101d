// A stand-in for Stripe's API on loopback, for the test suite (as test/support/fake-graph.ts stands in for
// Meta's Graph API). The service talks to it through the official `stripe` SDK (STRIPE_API_URL), so it
// speaks Stripe's wire format: form-encoded bodies with bracket notation (`line_items[0][price_data]
// [currency]=eur`), JSON objects with `object`, prefixed ids and `livemode`, the error shape
// `{error: {type, code, message, param}}` with Stripe's statuses, Bearer key auth (401 for a key it does
// not know), and Idempotency-Key (the same key and parameters replay the first answer with
// `Idempotent-Replayed: true`; the same key with other parameters is 400 idempotency_error).
//
// Endpoints: GET /v1/account; POST /v1/checkout/sessions; GET /v1/checkout/sessions/{id}; POST
// /v1/checkout/sessions/{id}/expire; POST /v1/refunds (against a payment intent or a charge, partial or
// full, never more than remains; `expand[]=charge`); GET /v1/refunds?payment_intent=.
//
// Test helpers act as the customer and as Stripe's webhooks: complete a session (a payment intent and
// a charge), complete it with a delayed payment method and then succeed or fail that payment, expire it;
// every change records the Stripe event it causes, and `deliver` POSTs an event to the service signed
// exactly as Stripe signs it (the SDK's webhooks.generateTestHeaderString). Every request is recorded
// with its parsed parameters, key and idempotency key, so tests can assert what the service sent.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// biome-ignore lint/suspicious/noExplicitAny: Stripe objects and form parameters are free-form JSON here
type Json = any;

/** The API version events are rendered with (the version the service pins). */
export const FAKE_STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeRequest {
  method: string;
  /** The path without the query string, e.g. /v1/checkout/sessions. */
  path: string;
  /** Parsed parameters: the form body (POST) or the query string (GET), brackets expanded. */
  params: Json;
  /** The Bearer key it carried. */
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  /** What the stand-in answered (0: the connection was dropped before an answer). */
  status: number;
  replayed: boolean;
}

export interface FakeAccount {
  id: string;
  secretKey: string;
  /** The signing secret of the account's webhook endpoint (what Stripe shows as whsec_…). */
  webhookSecret: string;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  account?: string;
  api_version: string;
  created: number;
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: Json; previous_attributes?: Json };
}

export type Fault =
  /** Answer this status and Stripe error body without doing anything. */
  | { kind: 'status'; status: number; type?: string; message?: string; headers?: Record<string, string> }
  /** Do the work (and keep its idempotent answer), then cut the connection before answering. */
  | { kind: 'drop' };

export interface DeliverOptions {
  /** Sign with this secret instead of the account's. */
  secret?: string;
  /** Unix seconds of the signature (default now). */
  timestamp?: number;
  /** Send this Stripe-Signature value as is (null: no header at all). */
  signature?: string | null;
  /** Send this body instead of the event's JSON (signed as given unless `signature` is set). */
  body?: string;
  /** Change the body after signing it. */
  tamper?: (body: string) => string;
}

export interface Delivered {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the answer field by field
  body: any;
  text: string;
}

const STRIPE_MIN_EXPIRY_S = 30 * 60;
const STRIPE_MAX_EXPIRY_S = 24 * 3600;

const rand = (n: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
};
const now = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** `a[b][0][c]=x&a[d]=y` → {a: {b: [{c: 'x'}], d: 'y'}}, as Stripe reads the SDK's encoding. */
export function parseStripeParams(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = key.split('[').map((part, i) => (i === 0 ? part : part.replace(/\]$/, '')));
    let node = root;
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      const name = segment === '' && Array.isArray(node) ? String(node.length) : segment;
      if (last) {
        node[name] = value;
        return;
      }
      if (node[name] === undefined) node[name] = /^\d*$/.test(segments[i + 1]) ? [] : {};
      node = node[name];
    });
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** A refusal before the endpoint ran (auth, parameters): no idempotent answer is kept. */
    readonly beforeExecution = false,
  ) {
    super(message);
  }
  toBody() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, code ?? 'parameter_invalid', param, true);
const missing = (what: string, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  /** Every event recorded, oldest first, with the account it belongs to. */
  readonly events: Array<{ accountId: string; event: StripeEvent }> = [];
  private readonly accounts = new Map<string, FakeAccount>(); // by secret key
  private readonly sessions = new Map<string, { accountId: string; session: Json; piMetadata: Json }>();
  private readonly intents = new Map<string, { accountId: string; intent: Json }>();
  private readonly charges = new Map<string, { accountId: string; charge: Json }>();
  private readonly refunds = new Map<string, { accountId: string; refund: Json }>();
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  private readonly faults: Array<{ method?: string; path: RegExp; fault: Fault; times: number }> = [];
  private server: Server | undefined;
  url = '';

  /** Where each account's webhook endpoint is (what a Stripe account's Developers > Webhooks holds). */
  private readonly endpoints = new Map<string, string>();

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.serve(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  // ---- test helpers: accounts, faults -------------------------------------------------------------

  /** A Stripe account with a test-mode secret key and the signing secret of its webhook endpoint. */
  createAccount(): FakeAccount {
    const account = {
      id: `acct_${rand(16)}`,
      secretKey: `sk_test_${rand(32)}`,
      webhookSecret: `whsec_${rand(32)}`,
    };
    this.accounts.set(account.secretKey, account);
    return account;
  }

  /**
   * The account's webhook endpoint: the customer paying on the checkout page (`/c/pay/{id}`) sends the
   * completion there, signed with the account's secret, as Stripe would.
   */
  setWebhookEndpoint(account: FakeAccount, url: string): void {
    this.endpoints.set(account.id, url);
  }

  /** The account's owner rolls its secret key in Stripe's dashboard: the old key gets 401 from now on. */
  revokeKey(account: FakeAccount): void {
    this.accounts.delete(account.secretKey);
  }

  /** The next `times` requests matching `path` (and `method`) meet `fault`. */
  failNext(path: RegExp, fault: Fault, times = 1, method?: string): void {
    this.faults.push({ path, fault, times, method });
  }

  /** Forgets every fault not yet met. */
  clearFaults(): void {
    this.faults.length = 0;
  }

  /** The requests the service made, optionally of one method and path pattern. */
  requestsTo(method: string, path: RegExp): StripeRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  session(id: string): Json {
    const found = this.sessions.get(id);
    if (!found) throw new Error(`fake Stripe: no session ${id}`);
    return found.session;
  }

  /** Every Checkout Session created with this account's key, oldest first. */
  sessionsOf(account: FakeAccount): Json[] {
    return [...this.sessions.values()].filter((s) => s.accountId === account.id).map((s) => s.session);
  }

  /** Every refund made against this payment intent, oldest first. */
  refundsOf(paymentIntentId: string): Json[] {
    return [...this.refunds.values()]
      .map((r) => r.refund)
      .filter((r) => r.payment_intent === paymentIntentId);
  }

  chargeOf(paymentIntentId: string): Json {
    const intent = this.intents.get(paymentIntentId)?.intent;
    if (!intent?.latest_charge) throw new Error(`fake Stripe: no charge for ${paymentIntentId}`);
    return this.charges.get(intent.latest_charge)?.charge;
  }

  /** The events recorded for an account, oldest first, optionally of one type. */
  eventsOf(account: FakeAccount, type?: string): StripeEvent[] {
    return this.events
      .filter((e) => e.accountId === account.id && (!type || e.event.type === type))
      .map((e) => e.event);
  }

  // ---- test helpers: the customer at Stripe's checkout page --------------------------------------

  /** The customer pays by card: a succeeded payment intent and its charge; checkout.session.completed (paid). */
  completeSession(sessionId: string): StripeEvent {
    const state = this.openSession(sessionId);
    const intent = this.payIntent(state, this.newIntent(state));
    Object.assign(state.session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    return this.recordEvent(state.accountId, 'checkout.session.completed', state.session);
  }

  /** The customer pays with a delayed method: checkout.session.completed with payment_status unpaid. */
  completeSessionAwaitingPayment(sessionId: string): StripeEvent {
    const state = this.openSession(sessionId);
    const intent = this.newIntent(state);
    intent.status = 'processing';
    Object.assign(state.session, { status: 'complete', payment_status: 'unpaid', payment_intent: intent.id });
    return this.recordEvent(state.accountId, 'checkout.session.completed', state.session);
  }

  /** The delayed payment arrives: checkout.session.async_payment_succeeded. */
  succeedDelayedPayment(sessionId: string): StripeEvent {
    const state = this.awaitingSession(sessionId);
    this.payIntent(state, this.intents.get(state.session.payment_intent)?.intent);
    state.session.payment_status = 'paid';
    return this.recordEvent(state.accountId, 'checkout.session.async_payment_succeeded', state.session);
  }

  /** The delayed payment fails: checkout.session.async_payment_failed. */
  failDelayedPayment(sessionId: string): StripeEvent {
    const state = this.awaitingSession(sessionId);
    const intent = this.intents.get(state.session.payment_intent)?.intent;
    intent.status = 'requires_payment_method';
    return this.recordEvent(state.accountId, 'checkout.session.async_payment_failed', state.session);
  }

  /** The session reaches its expires_at unpaid: checkout.session.expired. */
  expireSession(sessionId: string): StripeEvent {
    const state = this.openSession(sessionId);
    state.session.status = 'expired';
    return this.recordEvent(state.accountId, 'checkout.session.expired', state.session);
  }

  // ---- test helpers: Stripe's webhooks ------------------------------------------------------------

  /** Stripe-Signature for `payload`, exactly as Stripe computes it (the SDK's test helper). */
  static signature(payload: string, secret: string, timestamp = now()): string {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  }

  /** An event of a type or shape the helpers above do not make (recorded for that account). */
  makeEvent(account: FakeAccount, type: string, object: Json): StripeEvent {
    return this.recordEvent(account.id, type, object);
  }

  /**
   * POSTs an event to `url` as Stripe's webhook delivery does, signed with the secret of the account
   * that recorded an event of that id (or `options.secret`).
   */
  async deliver(event: StripeEvent, url: string, options: DeliverOptions = {}): Promise<Delivered> {
    const owner = this.events.find((e) => e.event.id === event.id)?.accountId;
    const account = [...this.accounts.values()].find((a) => a.id === owner);
    const body = options.body ?? JSON.stringify(event, null, 2);
    const secret = options.secret ?? account?.webhookSecret;
    if (!secret && options.signature === undefined) throw new Error('fake Stripe: no secret to sign with');
    const signature =
      options.signature === undefined
        ? FakeStripe.signature(body, secret as string, options.timestamp)
        : options.signature;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'Stripe-Signature': signature }),
      },
      body: options.tamper ? options.tamper(body) : body,
    });
    const text = await response.text();
    let parsed: Json;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text };
  }

  // ---- the hosted checkout page (a browser test's customer) ---------------------------------------

  /**
   * GET: a page with the amount and a Pay button. POST (the button): the customer pays by card
   * (`completeSession`) and the completion goes to the account's webhook endpoint, if one is set.
   */
  private async checkoutPage(method: string, id: string, res: ServerResponse): Promise<void> {
    const html = (status: number, title: string, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
          '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
          `<body style="font-family: sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem">${body}</body></html>`,
      );
    };
    const state = this.sessions.get(id);
    if (!state)
      return html(404, 'Not found', '<h1>Something went wrong</h1><p>No such checkout session.</p>');
    const { session } = state;
    const amount = `${(session.amount_total / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    if (method === 'POST' && session.status === 'open') {
      const event = this.completeSession(id);
      const endpoint = this.endpoints.get(state.accountId);
      const delivered = endpoint ? await this.deliver(event, endpoint) : undefined;
      return html(
        200,
        'Paid',
        `<h1>Payment complete</h1><p>Paid ${amount}.</p><p data-testid="delivery">${delivered ? `Webhook answered ${delivered.status}` : 'No webhook endpoint'}</p>` +
          // Stripe sends the customer on to the success URL; the stand-in offers it as a link.
          (session.success_url
            ? `<p><a href="${escapeHtml(String(session.success_url))}">Back to the business</a></p>`
            : ''),
      );
    }
    if (session.status !== 'open') {
      return html(200, 'Checkout', `<h1>This checkout is ${session.status}</h1><p>${amount}</p>`);
    }
    return html(
      200,
      'Checkout',
      `<h1>Pay ${amount}</h1><p>Test mode: no card is charged.</p><form method="post"><button type="submit">Pay ${amount}</button></form>`,
    );
  }

  // ---- the API ------------------------------------------------------------------------------------

  private serve(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = new URL(req.url ?? '/', 'http://stripe.invalid');
    const method = req.method ?? 'GET';
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (page) {
      void this.checkoutPage(method, page[1], res);
      return;
    }
    const params = parseStripeParams(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : text);
    const apiKey = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const idempotencyKey = header(req, 'idempotency-key');
    const record: StripeRequest = {
      method,
      path: url.pathname,
      params,
      apiKey,
      idempotencyKey,
      stripeVersion: header(req, 'stripe-version'),
      status: 0,
      replayed: false,
    };
    this.requests.push(record);
    const requestId = `req_${rand(14)}`;
    const send = (status: number, body: Json, extra: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': requestId, ...extra });
      res.end(JSON.stringify(body));
    };

    const fault = this.takeFault(method, url.pathname);
    if (fault?.kind === 'status') {
      const type = fault.type ?? (fault.status >= 500 ? 'api_error' : 'invalid_request_error');
      send(
        fault.status,
        { error: { type, message: fault.message ?? 'Something went wrong on Stripe' } },
        fault.headers,
      );
      return;
    }

    const account = apiKey ? this.accounts.get(apiKey) : undefined;
    if (!account) {
      const message = apiKey
        ? `Invalid API Key provided: ${apiKey.slice(0, 8)}${'*'.repeat(4)}${apiKey.slice(-4)}`
        : 'You did not provide an API key. You need to provide your API key in the Authorization header.';
      send(401, { error: { type: 'invalid_request_error', message } });
      return;
    }

    const storeKey = idempotencyKey && method === 'POST' ? `${account.id}|${idempotencyKey}` : undefined;
    const fingerprint = createHash('sha256')
      .update(`${method} ${url.pathname} ${[...new URLSearchParams(text)].sort().join('&')}`)
      .digest('hex');
    if (storeKey) {
      const stored = this.idempotent.get(storeKey);
      if (stored && stored.fingerprint !== fingerprint) {
        send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
        return;
      }
      if (stored) {
        record.replayed = true;
        if (fault?.kind === 'drop') return void res.socket?.destroy();
        send(stored.status, stored.body, { 'Idempotent-Replayed': 'true', 'Original-Request': requestId });
        return;
      }
    }

    let status = 200;
    let body: Json;
    let keep = true;
    try {
      body = this.route(method, url.pathname, params, account, { requestId, idempotencyKey });
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = error.toBody();
      keep = !error.beforeExecution;
    }
    if (storeKey && keep) this.idempotent.set(storeKey, { fingerprint, status, body });
    if (fault?.kind === 'drop') {
      res.socket?.destroy();
      return;
    }
    send(status, body);
  }

  private takeFault(method: string, path: string): Fault | undefined {
    const found = this.faults.find(
      (f) => f.times > 0 && f.path.test(path) && (!f.method || f.method === method),
    );
    if (!found) return undefined;
    found.times--;
    return found.fault;
  }

  private route(
    method: string,
    path: string,
    params: Json,
    account: FakeAccount,
    request: RequestInfo,
  ): Json {
    if (method === 'GET' && path === '/v1/account') return this.accountObject(account);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(params, account);
    const session = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (session && method === 'GET' && !session[2]) return this.ownSession(account, session[1]).session;
    if (session && method === 'POST' && session[2]) return this.expireByApi(account, session[1], request);
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(params, account, request);
    if (method === 'GET' && path === '/v1/refunds') {
      const data = [...this.refunds.values()]
        .filter((r) => r.accountId === account.id)
        .map((r) => r.refund)
        .filter((r) => !params.payment_intent || r.payment_intent === params.payment_intent)
        .reverse();
      return { object: 'list', data, has_more: false, url: '/v1/refunds' };
    }
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }

  private accountObject(account: FakeAccount): Json {
    return {
      id: account.id,
      object: 'account',
      business_profile: { name: 'Stand-in business' },
      charges_enabled: true,
      country: 'ES',
      default_currency: 'eur',
      details_submitted: true,
      payouts_enabled: true,
      type: 'standard',
    };
  }

  private createSession(params: Json, account: FakeAccount): Json {
    if (params.mode !== 'payment') throw invalid('This stand-in supports mode=payment only.', 'mode');
    const items = params.line_items;
    if (!Array.isArray(items) || items.length === 0) {
      throw invalid('You must specify `line_items` in `payment` mode.', 'line_items', 'parameter_missing');
    }
    let total = 0;
    let currency: string | undefined;
    items.forEach((item: Json, i: number) => {
      const price = item?.price_data;
      const at = `line_items[${i}]`;
      const quantity = integer(item?.quantity, `${at}[quantity]`);
      if (quantity < 1) throw invalid('Quantity must be at least 1.', `${at}[quantity]`);
      if (!price)
        throw invalid('You must specify `price` or `price_data`.', `${at}[price_data]`, 'parameter_missing');
      if (!/^[a-z]{3}$/.test(price.currency ?? ''))
        throw invalid('Invalid currency.', `${at}[price_data][currency]`);
      if (currency && currency !== price.currency) throw invalid('All line items must share a currency.', at);
      currency = price.currency;
      const unit = integer(price.unit_amount, `${at}[price_data][unit_amount]`);
      if (unit < 1) throw invalid('unit_amount must be at least 1.', `${at}[price_data][unit_amount]`);
      if (!price.product_data?.name) {
        throw invalid(
          'Missing required param: product_data[name].',
          `${at}[price_data][product_data][name]`,
          'parameter_missing',
        );
      }
      total += unit * quantity;
    });
    const created = now();
    let expiresAt = created + STRIPE_MAX_EXPIRY_S;
    if (params.expires_at !== undefined) {
      expiresAt = integer(params.expires_at, 'expires_at');
      if (expiresAt < created + STRIPE_MIN_EXPIRY_S) {
        throw invalid(
          'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
          'expires_at',
        );
      }
      if (expiresAt > created + STRIPE_MAX_EXPIRY_S) {
        throw invalid(
          'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
          'expires_at',
        );
      }
    }
    const metadata = checkMetadata(params.metadata, 'metadata');
    const piMetadata = checkMetadata(params.payment_intent_data?.metadata, 'payment_intent_data[metadata]');
    if ((params.client_reference_id ?? '').length > 200) {
      throw invalid('client_reference_id must be at most 200 characters.', 'client_reference_id');
    }
    const id = `cs_test_${rand(24)}`;
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created,
      currency,
      customer_email: params.customer_email ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url ?? null,
      url: `${this.url}/c/pay/${id}`,
    };
    this.sessions.set(id, { accountId: account.id, session, piMetadata });
    return session;
  }

  private ownSession(account: FakeAccount, id: string) {
    const state = this.sessions.get(id);
    if (!state || state.accountId !== account.id) throw missing('checkout.session', id, 'session');
    return state;
  }

  private expireByApi(account: FakeAccount, id: string, request: RequestInfo): Json {
    const state = this.ownSession(account, id);
    if (state.session.status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${state.session.status}\`.`,
      );
    }
    state.session.status = 'expired';
    this.recordEvent(state.accountId, 'checkout.session.expired', state.session, request);
    return state.session;
  }

  private createRefund(params: Json, account: FakeAccount, request: RequestInfo): Json {
    let charge: Json;
    if (params.payment_intent) {
      const intent = this.intents.get(params.payment_intent);
      if (!intent || intent.accountId !== account.id) {
        throw missing('payment_intent', params.payment_intent, 'payment_intent');
      }
      if (intent.intent.status !== 'succeeded' || !intent.intent.latest_charge) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `This PaymentIntent (${params.payment_intent}) does not have a successful charge to refund.`,
          'charge_not_refundable',
        );
      }
      charge = this.charges.get(intent.intent.latest_charge)?.charge;
    } else if (params.charge) {
      const found = this.charges.get(params.charge);
      if (!found || found.accountId !== account.id) throw missing('charge', params.charge, 'charge');
      charge = found.charge;
    } else {
      throw invalid(
        'One of `charge` or `payment_intent` is required.',
        'payment_intent',
        'parameter_missing',
      );
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining === 0) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Charge ${charge.id} has already been refunded.`,
        'charge_already_refunded',
      );
    }
    const amount = params.amount === undefined ? remaining : integer(params.amount, 'amount');
    if (amount < 1) throw invalid('Invalid positive integer', 'amount', 'parameter_invalid_integer');
    if (amount > remaining) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
        'amount_too_large',
        'amount',
      );
    }
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = {
      id: `re_${rand(24)}`,
      object: 'refund',
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: checkMetadata(params.metadata, 'metadata'),
      payment_intent: charge.payment_intent,
      reason: params.reason ?? null,
      status: 'succeeded',
    };
    this.refunds.set(refund.id, { accountId: account.id, refund });
    this.recordEvent(account.id, 'refund.created', refund, request);
    this.recordEvent(account.id, 'charge.refunded', charge, request, previous);
    const expand: string[] = Array.isArray(params.expand) ? params.expand : [];
    return expand.includes('charge') ? { ...refund, charge: clone(charge) } : refund;
  }

  // ---- state changes behind the helpers -----------------------------------------------------------

  private openSession(id: string) {
    const state = this.sessions.get(id);
    if (!state) throw new Error(`fake Stripe: no session ${id}`);
    if (state.session.status !== 'open')
      throw new Error(`fake Stripe: session ${id} is ${state.session.status}`);
    return state;
  }

  private awaitingSession(id: string) {
    const state = this.sessions.get(id);
    if (state?.session.status !== 'complete' || state.session.payment_status !== 'unpaid') {
      throw new Error(`fake Stripe: session ${id} is not awaiting a delayed payment`);
    }
    return state;
  }

  private newIntent(state: { accountId: string; session: Json; piMetadata: Json }): Json {
    const intent = {
      id: `pi_${rand(24)}`,
      object: 'payment_intent',
      amount: state.session.amount_total,
      currency: state.session.currency,
      latest_charge: null as string | null,
      livemode: false,
      metadata: state.piMetadata,
      status: 'requires_payment_method',
    };
    this.intents.set(intent.id, { accountId: state.accountId, intent });
    return intent;
  }

  private payIntent(state: { accountId: string }, intent: Json): Json {
    const charge = {
      id: `ch_${rand(24)}`,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      captured: true,
      currency: intent.currency,
      livemode: false,
      metadata: intent.metadata,
      paid: true,
      payment_intent: intent.id,
      refunded: false,
      status: 'succeeded',
    };
    this.charges.set(charge.id, { accountId: state.accountId, charge });
    Object.assign(intent, { status: 'succeeded', latest_charge: charge.id });
    return intent;
  }

  private recordEvent(
    accountId: string,
    type: string,
    object: Json,
    request?: RequestInfo,
    previous?: Json,
  ): StripeEvent {
    const event: StripeEvent = {
      id: `evt_${rand(24)}`,
      object: 'event' as const,
      type,
      api_version: FAKE_STRIPE_API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: request?.requestId ?? null, idempotency_key: request?.idempotencyKey ?? null },
      data: { object: clone(object), ...(previous ? { previous_attributes: previous } : {}) },
    };
    this.events.push({ accountId, event });
    return clone(event);
  }
}

interface RequestInfo {
  requestId: string;
  idempotencyKey: string | undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function integer(value: unknown, param: string): number {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    throw invalid('Invalid integer', param, 'parameter_invalid_integer');
  return Number(value);
}

/** Stripe's metadata rules: at most 50 keys of ≤ 40 characters, string values of ≤ 500. */
function checkMetadata(value: Json, param: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid metadata', param);
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalid('Metadata can have at most 50 keys.', param);
  for (const [key, v] of entries) {
    if (key.length > 40)
      throw invalid(`Metadata keys must be at most 40 characters: ${key}`, `${param}[${key}]`);
    if (typeof v !== 'string' || v.length > 500) {
      throw invalid('Metadata values must be strings of at most 500 characters.', `${param}[${key}]`);
    }
  }
  return value;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}

/** Text for an HTML attribute or element. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
