import type { KeyRecord } from '../store/keys-repository.js';
import type { UserRecord } from '../store/users-repository.js';
import type { IpAllowList } from './ip-allow-list.js';

/** A key and its owner as the cache holds them, with the key's limits parsed once. */
export interface KeyEntry {
  key: KeyRecord;
  user: UserRecord;
  ipAllowList: IpAllowList | null;
  modelLimits: ReadonlySet<string> | null;
}

/** Who is calling: an authenticated key, its owner, the group that applies and any channel pin. */
export interface Principal extends KeyEntry {
  group: string;
  channelPin: number | undefined;
}
