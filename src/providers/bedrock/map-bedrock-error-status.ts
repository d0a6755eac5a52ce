/**
 * HTTP statuses of the Bedrock runtime's exceptions, as its Smithy model declares them
 * (`@httpError` of each error shape; the model ships in @aws-sdk/client-bedrock-runtime) and the
 * API reference lists them for InvokeModel, InvokeModelWithResponseStream, Converse and
 * ConverseStream (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors).
 */
const statusByException: Record<string, number> = {
  accessdeniedexception: 403,
  conflictexception: 400,
  internalserverexception: 500,
  modelerrorexception: 424,
  // Retried by the AWS SDK like a throttle.
  modelnotreadyexception: 429,
  modelstreamerrorexception: 424,
  modeltimeoutexception: 408,
  resourcenotfoundexception: 404,
  // A quota of the account (not a rate): 400, resubmitting later may work.
  servicequotaexceededexception: 400,
  serviceunavailableexception: 503,
  throttlingexception: 429,
  validationexception: 400,
  // Authentication failures of the AWS front door (https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
  unrecognizedclientexception: 403,
  invalidsignatureexception: 403,
  missingauthenticationtokenexception: 403,
  incompletesignatureexception: 403,
  expiredtokenexception: 403,
};

/**
 * The status an exception stands for, whether named as in `x-amzn-errortype`
 * (`ThrottlingException`, possibly followed by `:http://internal.amazon.com/...`) or as a stream's
 * `:exception-type` (`throttlingException`); 500 for one the model does not know.
 */
export function bedrockExceptionStatus(exceptionType: string): number {
  const name = exceptionType.split(':')[0]?.trim().toLowerCase() ?? '';
  return statusByException[name] ?? 500;
}
