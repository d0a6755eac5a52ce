import type { Store } from './database.js';
import { BalanceCreditsRepository } from './balance-credits-repository.js';
import { ChannelsRepository } from './channels-repository.js';
import { GroupsRepository } from './groups-repository.js';
import { GuardrailsRepository } from './guardrails-repository.js';
import { InviteCodesRepository } from './invite-codes-repository.js';
import { KeyValueRepository } from './key-value-repository.js';
import { ManagedEntitiesRepository } from './managed-entities-repository.js';
import { OrderEventsRepository } from './order-events-repository.js';
import { OrdersRepository } from './orders-repository.js';
import { KeysRepository } from './keys-repository.js';
import { PricesRepository } from './prices-repository.js';
import { RedemptionCodesRepository } from './redemption-codes-repository.js';
import { SessionsRepository } from './sessions-repository.js';
import { UsageLogBodiesRepository } from './usage-log-bodies-repository.js';
import { UsageLogsRepository } from './usage-logs-repository.js';
import { UsageStatsRepository } from './usage-stats-repository.js';
import { ModelMetadataRepository } from './model-metadata-repository.js';
import { UsersRepository } from './users-repository.js';
import { VirtualModelsRepository } from './virtual-models-repository.js';
import { WebhookEventsRepository } from './webhook-events-repository.js';

export interface Repositories {
  users: UsersRepository;
  /** Money put into balances, each credit with where it came from (admin-api section 15). */
  balanceCredits: BalanceCreditsRepository;
  /** Single-use codes to register with, and to credit a balance with (admin-api section 15). */
  inviteCodes: InviteCodesRepository;
  redemptionCodes: RedemptionCodesRepository;
  /** Top-ups paid through Stripe, and what happened to each (admin-api section 15). */
  orders: OrdersRepository;
  orderEvents: OrderEventsRepository;
  keys: KeysRepository;
  channels: ChannelsRepository;
  prices: PricesRepository;
  groups: GroupsRepository;
  settings: KeyValueRepository;
  systemState: KeyValueRepository;
  usageLogs: UsageLogsRepository;
  usageLogBodies: UsageLogBodiesRepository;
  /** Which entities the configuration file manages (admin-api section 13). */
  managedEntities: ManagedEntitiesRepository;
  usageStats: UsageStatsRepository;
  sessions: SessionsRepository;
  webhookEvents: WebhookEventsRepository;
  modelMetadata: ModelMetadataRepository;
  virtualModels: VirtualModelsRepository;
  guardrails: GuardrailsRepository;
}

export function createRepositories(store: Store): Repositories {
  const { db } = store;
  return {
    users: new UsersRepository(db),
    balanceCredits: new BalanceCreditsRepository(db),
    inviteCodes: new InviteCodesRepository(db),
    redemptionCodes: new RedemptionCodesRepository(db),
    orders: new OrdersRepository(db),
    orderEvents: new OrderEventsRepository(db),
    keys: new KeysRepository(db),
    channels: new ChannelsRepository(db),
    prices: new PricesRepository(db),
    groups: new GroupsRepository(db),
    settings: new KeyValueRepository(db, 'settings'),
    systemState: new KeyValueRepository(db, 'system_state'),
    usageLogs: new UsageLogsRepository(db),
    usageLogBodies: new UsageLogBodiesRepository(db),
    managedEntities: new ManagedEntitiesRepository(db),
    usageStats: new UsageStatsRepository(db),
    sessions: new SessionsRepository(db),
    webhookEvents: new WebhookEventsRepository(db),
    modelMetadata: new ModelMetadataRepository(db),
    virtualModels: new VirtualModelsRepository(db),
    guardrails: new GuardrailsRepository(db),
  };
}
