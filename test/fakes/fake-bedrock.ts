import { bedrockConverseReply } from './bedrock-converse-reply.js';
import { exceptionFrame } from './bedrock-event-stream.js';
import { bedrockInvokeReply } from './bedrock-invoke-reply.js';
import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
  type RecordedRequest,
} from './fake-upstream.js';
import { validateBedrockConverseRequest } from './validate-bedrock-converse-request.js';
import { validateBedrockInvokeRequest } from './validate-bedrock-invoke-request.js';
import { verifyBedrockSignature, type FakeAwsCredential } from './verify-bedrock-signature.js';

export type { FakeAwsCredential } from './verify-bedrock-signature.js';

/** AWS's documentation example key pair: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html */
export const FAKE_AWS_CREDENTIAL: FakeAwsCredential = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
/** A long-term Bedrock API key: `ABSK` and base64. */
export const FAKE_BEDROCK_API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLWF0LTEyMzQ1Njc4OTAxMjpmYWtlc2VjcmV0';

export interface FakeBedrockOptions extends FakeUpstreamOptions {
  /** Key pairs the fake knows (SigV4); default `FAKE_AWS_CREDENTIAL`. `apiKey`: Bedrock API keys, default `FAKE_BEDROCK_API_KEY`. */
  credentials?: FakeAwsCredential[];
  /** The region the fake serves (signatures must be scoped to it); default `us-east-1`. */
  region?: string;
  /** The fake's clock, which signature dates must be within five minutes of. */
  now?: () => Date;
}

type Operation = 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream';
const targetPath = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

/** The model and operation of a `POST /model/{modelId}/{operation}`; the model ID is URL-encoded in the path. */
export function bedrockTarget(
  request: RecordedRequest,
): { modelId: string; operation: Operation } | undefined {
  const match = targetPath.exec(request.path);
  if (request.method !== 'POST' || !match) return undefined;
  try {
    return { modelId: decodeURIComponent(match[1] ?? ''), operation: match[2] as Operation };
  } catch {
    return undefined;
  }
}

/**
 * The Bedrock runtime (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_Operations_Amazon_Bedrock_Runtime.html):
 * InvokeModel and InvokeModelWithResponseStream for Claude models, Converse and ConverseStream for
 * any, SigV4-signed for service `bedrock` or with a Bedrock API key as `Authorization: Bearer`.
 * Errors are `{"message": ...}` with the exception named in `x-amzn-errortype`; scripted errors
 * take the exception of their status. Streams are AWS event-stream frames.
 */
export function startFakeBedrock(options: FakeBedrockOptions = {}): Promise<FakeUpstream> {
  const vendor = bedrockVendor({
    credentials: options.credentials ?? [FAKE_AWS_CREDENTIAL],
    region: options.region ?? 'us-east-1',
    now: options.now ?? (() => new Date()),
  });
  return startFakeUpstream(vendor, { ...options, apiKey: options.apiKey ?? FAKE_BEDROCK_API_KEY });
}

function bedrockVendor(config: {
  credentials: FakeAwsCredential[];
  region: string;
  now: () => Date;
}): FakeVendor {
  return {
    defaultText: 'Hello from fake Bedrock.',
    async authenticate(request, isValidKey) {
      const authorization = request.headers.authorization;
      if (!authorization)
        return {
          status: 403,
          code: 'MissingAuthenticationTokenException',
          message: 'Missing Authentication Token',
        };
      if (authorization.startsWith('Bearer ')) {
        if (isValidKey(authorization.slice('Bearer '.length))) return undefined;
        // An unknown API key is answered as an unknown access key is.
        return {
          status: 403,
          code: 'UnrecognizedClientException',
          message: 'The security token included in the request is invalid.',
        };
      }
      return verifyBedrockSignature({ request, ...config, now: config.now() });
    },
    errorBody: (_status, message) => ({ message }),
    errorHeaders: (status, detail) => {
      const exception = detail?.code ?? exceptionForStatus(status);
      const namespace = frontDoorExceptions.has(exception)
        ? 'com.amazon.coral.service'
        : 'com.amazon.bedrock';
      return { 'x-amzn-errortype': `${exception}:http://internal.amazon.com/coral/${namespace}/` };
    },
    validate(request) {
      const target = bedrockTarget(request);
      if (!target) return undefined;
      return target.operation.startsWith('invoke')
        ? validateBedrockInvokeRequest(request.body, target.modelId)
        : validateBedrockConverseRequest(request.body);
    },
    streamErrorEvent: (_request, message) =>
      exceptionFrame('modelStreamErrorException', {
        message,
        originalStatusCode: 500,
        originalMessage: message,
      }),
    reply(request, content, nextId) {
      const target = bedrockTarget(request);
      if (!target) return undefined;
      const stream = target.operation.endsWith('stream');
      return target.operation.startsWith('invoke')
        ? bedrockInvokeReply({ request, content, nextId, modelId: target.modelId, stream })
        : bedrockConverseReply({ request, content, nextId, stream });
    },
  };
}

/** Exceptions of AWS's request authentication, named in the coral service namespace. */
const frontDoorExceptions = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
]);

/** The exception a scripted status stands for (their `@httpError` in the Bedrock runtime's model). */
function exceptionForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'ValidationException';
    case 403:
      return 'AccessDeniedException';
    case 404:
      return 'ResourceNotFoundException';
    case 408:
      return 'ModelTimeoutException';
    case 424:
      return 'ModelErrorException';
    case 429:
      return 'ThrottlingException';
    case 503:
      return 'ServiceUnavailableException';
    default:
      return 'InternalServerException';
  }
}
