import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GatewayServices } from '../services.js';
import type { GroupRecord } from '../store/groups-repository.js';
import { invalidField } from './admin-error.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';

const DEFAULT_GROUP: GroupRecord = { name: 'default', ratio: 1 };

const putGroupSchema = z.strictObject({ ratio: z.number().min(0).max(1_000_000) });

/** `/api/groups` (admin-api section 2, Groups): price multipliers, 1 for any group not stored. */
export function registerGroupRoutes(app: FastifyInstance, services: GatewayServices): void {
  const groups = services.repositories.groups;

  app.get('/groups', async (request) => {
    const stored = await groups.all();
    const all = stored.some((group) => group.name === DEFAULT_GROUP.name)
      ? stored
      : [...stored, DEFAULT_GROUP].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { data: pageOf(all, parseListQuery(request.query)) };
  });

  app.put<{ Params: { name: string } }>('/groups/:name', async (request) => {
    const name = request.params.name;
    if (name.length > 64) throw invalidField('name', 'must be at most 64 characters');
    const { ratio } = parseBody(request.body, putGroupSchema, { readOnly: ['name'] });
    const group = await groups.put({ name, ratio });
    await services.changes.publish('groups');
    return { name: group.name, ratio: group.ratio };
  });
}
