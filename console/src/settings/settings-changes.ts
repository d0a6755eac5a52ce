import type { SettingValue, Settings } from '../api/types';
import { splitList } from '../components/split-list';
import { settingIsNullable, settingKind, settingOptions } from './setting-definitions';

/** A setting as its input holds it: numbers may be '' while being typed; null until a text is typed. */
export type SettingDraft = number | string | boolean | string[] | null;

/** The drafted value in the API's type, or undefined while it is not a valid one. */
export function parseDraft(
  name: string,
  current: SettingValue,
  draft: SettingDraft,
): SettingValue | undefined {
  const kind = settingKind(name, current);
  switch (kind) {
    case 'boolean':
      return draft === true;
    case 'list':
      return Array.isArray(draft) ? splitList(draft) : splitList([String(draft)]);
    case 'integer': {
      const value = draft === '' ? Number.NaN : Number(draft);
      return Number.isInteger(value) ? value : undefined;
    }
    case 'number': {
      const value = draft === '' ? Number.NaN : Number(draft);
      return Number.isFinite(value) ? value : undefined;
    }
    case 'text': {
      const text = typeof draft === 'string' ? draft.trim() : '';
      if (text !== '') return text;
      return settingIsNullable(name, current) ? null : undefined;
    }
    case 'choice': {
      // The gateway's own value stays valid even when this console does not know it.
      const choices = [...(settingOptions(name) ?? []), current];
      return typeof draft === 'string' && choices.includes(draft) ? draft : undefined;
    }
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

/** The PATCH body: the settings whose drafted value differs from the gateway's. */
export function settingsChanges(current: Settings, drafts: Readonly<Record<string, SettingDraft>>): Settings {
  const changes: Settings = {};
  for (const [name, value] of Object.entries(current)) {
    const draft = drafts[name];
    if (draft === undefined) continue;
    const parsed = parseDraft(name, value, draft);
    if (parsed !== undefined && JSON.stringify(parsed) !== JSON.stringify(value)) changes[name] = parsed;
  }
  return changes;
}

/** The settings but the named ones: those the configuration file sets, which a PATCH may not change. */
export function withoutSettings(settings: Settings, names: readonly string[]): Settings {
  return Object.fromEntries(Object.entries(settings).filter(([name]) => !names.includes(name)));
}
