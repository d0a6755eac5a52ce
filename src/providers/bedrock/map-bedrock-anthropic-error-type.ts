import type { AnthropicErrorType } from '../../protocols/anthropic-messages/anthropic-error-types.js';

/**
 * The Anthropic error type (https://docs.anthropic.com/en/api/errors) closest to a Bedrock
 * exception met inside a Claude stream (the exception members of `ResponseStream`,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html), so the
 * stream ends as the Anthropic API would end it. Names compare case-insensitively: streams say
 * `throttlingException`, headers `ThrottlingException`.
 */
export function mapBedrockAnthropicErrorType(exceptionType: string): AnthropicErrorType {
  switch (exceptionType.toLowerCase()) {
    case 'throttlingexception':
    case 'servicequotaexceededexception':
      return 'rate_limit_error';
    case 'validationexception':
      return 'invalid_request_error';
    case 'accessdeniedexception':
      return 'permission_error';
    case 'resourcenotfoundexception':
      return 'not_found_error';
    // The model cannot serve now; Anthropic says so with 529 `overloaded_error`.
    case 'serviceunavailableexception':
    case 'modelnotreadyexception':
      return 'overloaded_error';
    // Anthropic's 504 `timeout_error`: the request timed out while being processed.
    case 'modeltimeoutexception':
      return 'timeout_error';
    default:
      // internalServerException, modelStreamErrorException, modelErrorException and any other.
      return 'api_error';
  }
}
