import { isJsonObject, setOwnMember, type JsonObject } from '../protocols/wire-json.js';
import { redactPii } from './redact-pii.js';

/**
 * A JSON value with every string in it redacted by `redactPii`; object keys, numbers and the shape
 * stay. Whatever did not change is returned as it was, the value itself included, so a caller can
 * tell `result === value` and keep the bytes it already has instead of serialising again.
 */
export function redactPiiInJson(value: unknown): unknown {
  if (typeof value === 'string') return redactPii(value).text;
  if (Array.isArray(value)) return redactArray(value);
  if (isJsonObject(value)) return redactObject(value);
  return value;
}

function redactArray(items: readonly unknown[]): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const redacted = redactPiiInJson(item);
    if (copy === undefined && redacted !== item) copy = items.slice(0, index);
    copy?.push(redacted);
  }
  return copy ?? items;
}

function redactObject(members: JsonObject): JsonObject {
  let copy: JsonObject | undefined;
  const keys = Object.keys(members);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const member = members[key];
    const redacted = redactPiiInJson(member);
    if (copy === undefined && redacted !== member) {
      copy = {};
      for (const earlier of keys.slice(0, index)) setOwnMember(copy, earlier, members[earlier]);
    }
    if (copy !== undefined) setOwnMember(copy, key, redacted);
  }
  return copy ?? members;
}
