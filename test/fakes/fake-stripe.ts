/**
 * A fake of the Stripe API's Checkout Sessions on 127.0.0.1, checking what Stripe checks:
 *
 *   const stripe = await startFakeStripe();
 *   stripe.origin                  // 'http://127.0.0.1:<port>': the gateway's `stripe_api_base`
 *   stripe.secretKey               // 'sk_test_...': the only key it accepts (`stripe_secret_key`)
 *   stripe.webhookSecret           // 'whsec_...': what it signs events with (`stripe_webhook_secret`)
 *   stripe.requests                // every API request: method, path, headers, the form read back into objects
 *   stripe.completeSession(id)     // the buyer paid: status complete, payment_status paid
 *   stripe.expireSession(id)       // Stripe expired it unpaid
 *   stripe.event('checkout.session.completed', id)    // an event object, as Stripe sends it
 *   stripe.deliver(url, event, { timestamp })         // posts it, signed, as Stripe's webhooks do
 *   stripe.script({ type: 'error', status: 500 }, { type: 'answer-then-reset' })
 *                                  // one step per coming API request; then normal answers again
 *
 * API requests need `Authorization: Bearer <secret key>` (401 in Stripe's error shape otherwise) and
 * a form body (`application/x-www-form-urlencoded`, brackets for nesting). `POST /v1/checkout/sessions`
 * refuses what Stripe refuses (stripe-checkout-session.ts); an `Idempotency-Key` seen before with the
 * same body answers the first answer again (`Idempotent-Replayed: true`), with another body a 400
 * `idempotency_error`. `GET /v1/checkout/sessions/{id}` and `POST .../{id}/expire` work on the
 * sessions made. A session's `url` is a page of this fake (`/c/pay/{id}`) whose button pays it,
 * delivers `checkout.session.completed` to `webhookUrl` when set, and returns to `success_url`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import StripePackage from 'stripe';
import type Stripe from 'stripe';
import { createCheckoutSession, type StripeRefusal } from './stripe-checkout-session.js';
import { parseStripeForm, type FormValue } from './stripe-form.js';

export interface FakeStripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: { [key: string]: FormValue };
}

export type FakeStripeStep =
  | { type: 'error'; status: number; message?: string }
  | { type: 'reset' }
  /** Does the work (a session is made) and drops the connection before answering: the answer is lost. */
  | { type: 'answer-then-reset' }
  | { type: 'delay'; ms: number };

export interface FakeStripe {
  origin: string;
  secretKey: string;
  webhookSecret: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, Stripe.Checkout.Session>;
  /** Where the pay page delivers `checkout.session.completed`; unset: it delivers nothing. */
  webhookUrl: string | undefined;
  /** Milliseconds every API answer waits. */
  delayMs: number;
  session(id: string): Stripe.Checkout.Session;
  completeSession(
    id: string,
    options?: { paymentStatus?: 'paid' | 'unpaid'; amountTotal?: number; currency?: string },
  ): Stripe.Checkout.Session;
  expireSession(id: string): Stripe.Checkout.Session;
  event(type: string, sessionId: string, options?: { id?: string }): Stripe.Event;
  /** The `Stripe-Signature` header of `payload`, made with the package's own test helper. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  deliver(
    url: string,
    event: Stripe.Event,
    options?: { timestamp?: number; secret?: string; signature?: string | null },
  ): Promise<{ status: number; body: any }>;
  script(...steps: FakeStripeStep[]): void;
  close(): Promise<void>;
}

const randomId = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

export async function startFakeStripe(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_${randomId(24)}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomId(24)}`;
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const steps: FakeStripeStep[] = [];

  const fake: FakeStripe = {
    origin: '',
    secretKey,
    webhookSecret,
    requests: [],
    sessions: new Map(),
    webhookUrl: undefined,
    delayMs: 0,
    session(id) {
      const session = fake.sessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      return session;
    },
    completeSession(id, change = {}) {
      const session = fake.session(id);
      session.status = 'complete';
      session.payment_status = change.paymentStatus ?? 'paid';
      session.payment_intent = `pi_${randomId(18)}`;
      if (change.amountTotal !== undefined) session.amount_total = change.amountTotal;
      if (change.currency !== undefined) session.currency = change.currency;
      return session;
    },
    expireSession(id) {
      const session = fake.session(id);
      if (session.status !== 'open') throw new Error(`session ${id} is ${session.status}, not open`);
      session.status = 'expired';
      session.url = null;
      return session;
    },
    event(type, sessionId, eventOptions = {}) {
      return {
        id: eventOptions.id ?? `evt_${randomId(18)}`,
        object: 'event',
        api_version: StripePackage.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: structuredClone(fake.session(sessionId)) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      } as unknown as Stripe.Event;
    },
    sign(payload, signOptions = {}) {
      return StripePackage.webhooks.generateTestHeaderString({
        payload,
        secret: signOptions.secret ?? webhookSecret,
        ...(signOptions.timestamp !== undefined && { timestamp: signOptions.timestamp }),
      });
    },
    async deliver(url, event, deliverOptions = {}) {
      const payload = JSON.stringify(event, null, 2);
      const signature =
        deliverOptions.signature === undefined
          ? fake.sign(payload, deliverOptions)
          : deliverOptions.signature;
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          ...(signature !== null && { 'stripe-signature': signature }),
        },
        body: payload,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    script(...next) {
      steps.push(...next);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const answer = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomId(12)}`,
      'stripe-version': StripePackage.API_VERSION,
      ...headers,
    });
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, refusal: StripeRefusal) =>
    answer(response, refusal.status, { error: refusal.error });

  async function serveApi(request: IncomingMessage, response: ServerResponse, raw: string) {
    const url = new URL(request.url ?? '/', fake.origin);
    const method = request.method ?? 'GET';
    const authorization = request.headers.authorization ?? '';
    const key = /^Bearer (\S+)$/.exec(authorization)?.[1];
    if (key === undefined)
      return refuse(response, {
        status: 401,
        error: {
          type: 'invalid_request_error',
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        },
      });
    if (key.startsWith('pk_'))
      return refuse(response, {
        status: 401,
        error: {
          type: 'invalid_request_error',
          message: 'This API call cannot be made with a publishable API key. Please use a secret API key.',
        },
      });
    if (key !== secretKey)
      return refuse(response, {
        status: 401,
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
        },
      });
    if (
      method === 'POST' &&
      raw !== '' &&
      !(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
    )
      return refuse(response, {
        status: 400,
        error: { type: 'invalid_request_error', message: 'Invalid request: bodies must be form-encoded.' },
      });
    let form: { [key: string]: FormValue };
    try {
      form = parseStripeForm(method === 'GET' ? url.search.slice(1) : raw);
    } catch (error) {
      return refuse(response, {
        status: 400,
        error: { type: 'invalid_request_error', message: (error as Error).message },
      });
    }
    fake.requests.push({ method, path: url.pathname, headers: request.headers, form });

    const step = steps.shift();
    if (step?.type === 'delay') await sleep(step.ms);
    if (fake.delayMs > 0) await sleep(fake.delayMs);
    if (step?.type === 'reset') return request.socket.destroy();
    if (step?.type === 'error')
      return refuse(response, {
        status: step.status,
        error: { type: 'api_error', message: step.message ?? 'An unknown error occurred' },
      });

    const idempotencyKey = request.headers['idempotency-key'];
    if (method === 'POST' && typeof idempotencyKey === 'string') {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.body !== raw)
        return refuse(response, {
          status: 400,
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      if (earlier) return answer(response, earlier.status, earlier.answer, { 'idempotent-replayed': 'true' });
    }

    const result = route(method, url.pathname, form);
    if (method === 'POST' && typeof idempotencyKey === 'string')
      idempotent.set(idempotencyKey, { body: raw, status: result.status, answer: result.body });
    if (step?.type === 'answer-then-reset') return request.socket.destroy();
    return answer(response, result.status, result.body);
  }

  function route(
    method: string,
    path: string,
    form: { [key: string]: FormValue },
  ): { status: number; body: unknown } {
    const refusal = (value: StripeRefusal) => ({ status: value.status, body: { error: value.error } });
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const made = createCheckoutSession(form, {
        payPageOrigin: fake.origin,
        now: Math.floor(Date.now() / 1000),
      });
      if ('error' in made) return refusal(made);
      fake.sessions.set(made.id, made);
      return { status: 200, body: made };
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (one) {
      const session = fake.sessions.get(decodeURIComponent(one[1]!));
      if (!session)
        return refusal({
          status: 404,
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'session',
            message: `No such checkout.session: '${decodeURIComponent(one[1]!)}'`,
            doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
          },
        });
      if (method === 'GET' && !one[2]) return { status: 200, body: session };
      if (method === 'POST' && one[2]) {
        if (session.status !== 'open')
          return refusal({
            status: 400,
            error: {
              type: 'invalid_request_error',
              message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
            },
          });
        return { status: 200, body: fake.expireSession(session.id) };
      }
    }
    return refusal({
      status: 404,
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
    });
  }

  async function servePayPage(request: IncomingMessage, response: ServerResponse, id: string) {
    const session = fake.sessions.get(id);
    if (!session || session.status !== 'open') {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return response.end('<!doctype html><title>Expired</title><p>This payment page has expired.</p>');
    }
    if (request.method === 'POST') {
      fake.completeSession(id);
      if (fake.webhookUrl) await fake.deliver(fake.webhookUrl, fake.event('checkout.session.completed', id));
      response.writeHead(303, { location: session.success_url ?? fake.origin });
      return response.end();
    }
    const usd = ((session.amount_total ?? 0) / 100).toFixed(2);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Pay $${usd}</title><h1>Pay $${usd}</h1>` +
        `<form method="post"><button type="submit">Pay</button></form>` +
        (session.cancel_url ? `<a href="${session.cancel_url}">Cancel</a>` : ''),
    );
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      const page = /^\/c\/pay\/([^/]+)$/.exec(path);
      const work = page
        ? servePayPage(request, response, decodeURIComponent(page[1]!))
        : serveApi(request, response, raw);
      work.catch((error: unknown) => {
        if (!response.headersSent)
          answer(response, 500, { error: { type: 'api_error', message: String(error) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
