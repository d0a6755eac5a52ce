/** Ids Anthropic accepts back in `tool_use.id` / `tool_result.tool_use_id`: `^[a-zA-Z0-9_-]+$`. */
const SAFE_ID = /^[a-zA-Z0-9_-]+$/;
const UNSAFE_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * A tool call id in the form Anthropic accepts. Ids of other protocols (`call_...`) are kept as
 * they are, so the conversation can go back to them; others get their unsafe characters replaced,
 * deterministically, so a call and its result still match.
 */
export function toAnthropicToolUseId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const safe = id.replace(UNSAFE_CHARACTERS, '_');
  return safe.length > 0 ? safe : 'toolu_0';
}

export function isAnthropicToolUseId(id: string): boolean {
  return SAFE_ID.test(id);
}

/** A message id with Anthropic's `msg_` prefix, derived deterministically from the reply's id. */
export function toAnthropicMessageId(id: string): string {
  if (id.startsWith('msg_') && SAFE_ID.test(id)) return id;
  const safe = id.replace(UNSAFE_CHARACTERS, '_');
  return `msg_${safe.length > 0 ? safe : '0'}`;
}
