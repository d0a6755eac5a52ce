import { isJsonObject, jsonDepthExceeds, MAX_JSON_DEPTH, parseJson } from '../../protocols/wire-json.js';

/** An event of a watched type, parsed. */
export interface WatchedEvent<Type extends string> {
  type: Type;
  event: Record<string, unknown>;
}

/**
 * Finds the few events the gateway must read among the frames it relays, without parsing the rest:
 * a frame is parsed only when it contains one of the watched types as a JSON string (`"response.done"`),
 * which audio deltas, the bulk of a session, never do; a parsed frame counts only when its `type`
 * really is one of them. A frame that is not a JSON object (or nests past `MAX_JSON_DEPTH`) is no
 * event of the gateway's: it is relayed, and the upstream answers it.
 */
export class WatchedEvents<Type extends string> {
  private readonly markers: readonly Buffer[];
  private readonly types: ReadonlySet<string>;

  constructor(types: readonly Type[]) {
    this.types = new Set(types);
    this.markers = types.map((type) => Buffer.from(JSON.stringify(type)));
  }

  read(frame: Buffer): WatchedEvent<Type> | undefined {
    if (!this.markers.some((marker) => frame.includes(marker))) return undefined;
    if (jsonDepthExceeds(frame, MAX_JSON_DEPTH)) return undefined;
    const parsed = parseJson(frame.toString('utf8'));
    if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
    const event = parsed.value as Record<string, unknown>;
    return typeof event.type === 'string' && this.types.has(event.type)
      ? { type: event.type as Type, event }
      : undefined;
  }
}
