/**
 * `ToolUseBlock.toolUseId` accepts `^[a-zA-Z0-9_-]+$`, 1 to 64 characters
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.html).
 */
const SAFE_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const UNSAFE_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * A tool call id in the form Converse accepts. Ids that already fit are kept, so the conversation
 * can go back to their protocol; others get their unsafe characters replaced and are cut to 64,
 * deterministically, so a call and its result still match.
 */
export function toConverseToolUseId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const safe = id.replace(UNSAFE_CHARACTERS, '_').slice(0, 64);
  return safe.length > 0 ? safe : 'tooluse_0';
}
