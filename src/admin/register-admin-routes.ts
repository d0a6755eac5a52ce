import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';

export async function registerAdminRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  void app;
  void services;
}
