import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { invalidField, notFound } from './admin-error.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';
import { PRICE_READ_ONLY_FIELDS, putPriceSchema } from './price-schemas.js';
import { publicModelIdProblem } from './public-model-id.js';
import { serializePrice } from './serialize-price.js';

/**
 * `/api/prices` (admin-api section 2, Prices). The model is the rest of the path, so ids holding
 * `/` work whether the client encodes it (`meta%2Fllama-3`) or not.
 */
export function registerPriceRoutes(app: FastifyInstance, services: GatewayServices): void {
  const prices = services.repositories.prices;

  app.get('/prices', async (request) => {
    const all = await prices.all();
    return { data: pageOf(all, parseListQuery(request.query)).map(serializePrice) };
  });

  app.get('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    const price = await prices.find(model);
    if (!price) throw notFound('price', model);
    return serializePrice(price);
  });

  app.put('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    const body = parseBody(request.body, putPriceSchema, { readOnly: PRICE_READ_ONLY_FIELDS });
    const price = await prices.put({
      model,
      input: body.input,
      output: body.output,
      cachedInput: body.cached_input,
      cacheWrite: body.cache_write,
      perRequest: body.per_request,
    });
    await services.changes.publish('prices');
    return serializePrice(price);
  });

  app.delete('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    const price = await prices.delete(model);
    if (!price) throw notFound('price', model);
    await services.changes.publish('prices');
    return serializePrice(price);
  });
}

function modelFromPath(params: unknown): string {
  const model = String((params as Record<string, unknown>)['*'] ?? '');
  const problem = publicModelIdProblem(model);
  if (problem) throw invalidField('model', problem);
  return model;
}
