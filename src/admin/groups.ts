import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { defaultGroup } from '../store/groups-repository.js';
import { invalidField } from './admin-error.js';
import { putGroupSchema } from './group-schemas.js';
import { ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';
import { serializeGroup } from './serialize-group.js';

const DEFAULT_GROUP_NAME = 'default';

/**
 * `/api/groups` (admin-api sections 2 and 10): price multipliers and spend limits; a group not
 * stored has ratio 1, no budgets and no concurrency cap.
 */
export function registerGroupRoutes(app: FastifyInstance, services: GatewayServices): void {
  const groups = services.repositories.groups;

  app.get('/groups', async (request) => {
    const stored = await groups.all();
    const all = stored.some((group) => group.name === DEFAULT_GROUP_NAME)
      ? stored
      : [...stored, defaultGroup(DEFAULT_GROUP_NAME)].sort((a, b) =>
          a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
        );
    const page = pageOf(all, parseListQuery(request.query)).map(serializeGroup);
    return { data: await withManaged(services, 'groups', page, (group) => group.name) };
  });

  app.put<{ Params: { name: string } }>('/groups/:name', async (request) => {
    const name = request.params.name;
    if (name.length > 64) throw invalidField('name', 'must be at most 64 characters');
    await refuseIfManaged(services, 'groups', name, 'group');
    const body = parseBody(request.body, putGroupSchema, { readOnly: ['name'] });
    const group = await groups.put({
      name,
      ratio: body.ratio,
      budgets: body.budgets,
      maxConcurrency: body.max_concurrency,
      logBodies: body.log_bodies,
    });
    await services.changes.publish('groups');
    return ownedByApi(serializeGroup(group));
  });
}
