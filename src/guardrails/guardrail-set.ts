import type { ChangeFeed } from '../events/change-feed.js';
import type { GuardrailRecord, GuardrailsRepository } from '../store/guardrails-repository.js';

/** A guardrail ready to check: a regex guardrail's pattern compiled once. */
export interface ActiveGuardrail extends GuardrailRecord {
  regex: RegExp | undefined;
}

const NONE: readonly ActiveGuardrail[] = [];

/**
 * The guardrails in memory (admin-api section 12), reloaded when the `guardrails` topic changes on
 * any worker or instance: a request reads no table to learn which apply to it.
 */
export class GuardrailSet {
  private all: readonly ActiveGuardrail[] = NONE;
  private readonly byGroup = new Map<string, readonly ActiveGuardrail[]>();

  private constructor(private readonly repository: Pick<GuardrailsRepository, 'all'>) {}

  static async load(options: {
    repository: Pick<GuardrailsRepository, 'all'>;
    changes: ChangeFeed;
  }): Promise<GuardrailSet> {
    const set = new GuardrailSet(options.repository);
    await set.reload();
    options.changes.subscribe((topic) => (topic === 'guardrails' ? set.reload() : undefined));
    return set;
  }

  /** The guardrails that check requests of `group`, in the order they were created. */
  applicable(group: string): readonly ActiveGuardrail[] {
    if (this.all.length === 0) return NONE;
    let found = this.byGroup.get(group);
    if (!found) {
      found = this.all.filter((guardrail) => guardrail.groups === null || guardrail.groups.includes(group));
      this.byGroup.set(group, found);
    }
    return found;
  }

  async reload(): Promise<void> {
    const records = await this.repository.all();
    this.all = records.map((record) => ({
      ...record,
      regex: record.kind === 'regex' && record.pattern !== null ? new RegExp(record.pattern, 'u') : undefined,
    }));
    this.byGroup.clear();
  }
}
