import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { notFound } from './admin-error.js';
import { modelFromPath } from './model-from-path.js';
import { oneWithManaged, ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';
import { PRICE_READ_ONLY_FIELDS, putPriceSchema } from './price-schemas.js';
import { serializePrice } from './serialize-price.js';

/** `/api/prices` (admin-api section 2, Prices); the model is the rest of the path. */
export function registerPriceRoutes(app: FastifyInstance, services: GatewayServices): void {
  const prices = services.repositories.prices;

  app.get('/prices', async (request) => {
    const all = await prices.all();
    const page = pageOf(all, parseListQuery(request.query)).map(serializePrice);
    return { data: await withManaged(services, 'prices', page, (price) => price.model) };
  });

  app.get('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    const price = await prices.find(model);
    if (!price) throw notFound('price', model);
    return oneWithManaged(services, 'prices', serializePrice(price), model);
  });

  app.put('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    await refuseIfManaged(services, 'prices', model, 'price');
    const body = parseBody(request.body, putPriceSchema, { readOnly: PRICE_READ_ONLY_FIELDS });
    const price = await prices.put({
      model,
      input: body.input,
      output: body.output,
      cachedInput: body.cached_input,
      cacheWrite: body.cache_write,
      perRequest: body.per_request,
      inputAudio: body.input_audio,
      outputAudio: body.output_audio,
      perMinute: body.per_minute,
      perMillionCharacters: body.per_million_characters,
    });
    await services.changes.publish('prices');
    return ownedByApi(serializePrice(price));
  });

  app.delete('/prices/*', async (request) => {
    const model = modelFromPath(request.params);
    await refuseIfManaged(services, 'prices', model, 'price');
    const price = await prices.delete(model);
    if (!price) throw notFound('price', model);
    await services.changes.publish('prices');
    return ownedByApi(serializePrice(price));
  });
}
