/**
 * Every error the gateway produces itself, with its status, code and message in both languages.
 * Texts follow client-api.md section 7 and admin-api.md sections 1 and 3 to the letter; entries whose
 * spec text exists only in Chinese carry that text for both languages.
 */
export type Language = 'en' | 'zh-CN';

type Params = Record<string, string | number>;
type Text = string | ((params: Params) => string);

export interface CatalogueEntry {
  status: number;
  code: string;
  type?: string;
  retryable?: boolean;
  /**
   * Raised while choosing the model's channel or limiting the rate: rendered in the family A shape
   * even where the endpoint's own shape applies by then, as `/v1/messages` does (client-api section 7).
   */
  selection?: boolean;
  en: Text;
  'zh-CN': Text;
}

/** The three upstream limits of admin-api section 7, each with its own sentence. */
export type TimeoutLimit = 'connect_timeout_s' | 'upstream_timeout_s' | 'stream_idle_timeout_s';

const timeoutText: Record<
  Language,
  Record<TimeoutLimit, (seconds: string | number | undefined) => string>
> = {
  en: {
    connect_timeout_s: (s) => `could not connect to the upstream within ${s} seconds (connect_timeout_s)`,
    upstream_timeout_s: (s) =>
      `the upstream did not finish its reply within ${s} seconds (upstream_timeout_s)`,
    stream_idle_timeout_s: (s) => `the upstream sent nothing for ${s} seconds (stream_idle_timeout_s)`,
  },
  'zh-CN': {
    connect_timeout_s: (s) => `未能在 ${s} 秒内连接上游 (connect_timeout_s)`,
    upstream_timeout_s: (s) => `上游未在 ${s} 秒内完成响应 (upstream_timeout_s)`,
    stream_idle_timeout_s: (s) => `上游 ${s} 秒未发送数据 (stream_idle_timeout_s)`,
  },
};

function chineseOnly(text: Text): Pick<CatalogueEntry, 'en' | 'zh-CN'> {
  return { en: text, 'zh-CN': text };
}

export const catalogue = {
  invalid_token: { status: 401, code: '', en: 'Invalid token', 'zh-CN': '无效的令牌' },
  model_not_allowed: {
    status: 403,
    code: '',
    en: (p) => `This token has no access to model ${p.model}`,
    'zh-CN': (p) => `该令牌无权访问模型 ${p.model}`,
  },
  ip_not_allowed: { status: 403, code: 'access_denied', ...chineseOnly('您的 IP 不在令牌允许访问的列表中') },
  balance_exhausted: {
    status: 403,
    code: 'insufficient_user_quota',
    ...chineseOnly((p) => `用户额度不足, 剩余额度: ${p.balance}`),
  },
  balance_below_precharge: {
    status: 403,
    code: 'insufficient_user_quota',
    ...chineseOnly((p) => `预扣费额度失败, 用户剩余额度: ${p.balance}, 需要预扣费额度: ${p.need}`),
  },
  key_quota_below_precharge: {
    status: 403,
    code: 'pre_consume_token_quota_failed',
    en: (p) => `token quota is not enough, token remain quota: ${p.remain}, need quota: ${p.need}`,
    'zh-CN': (p) => `token quota is not enough, token remain quota: ${p.remain}, need quota: ${p.need}`,
  },
  channel_pin_forbidden: { status: 403, code: '', ...chineseOnly('普通用户不支持指定渠道') },
  model_missing: {
    status: 400,
    code: '',
    en: 'Model name not specified, model name cannot be empty',
    'zh-CN': '未指定模型名称,模型名称不能为空',
  },
  field_required: {
    status: 400,
    code: 'invalid_request',
    en: (p) => `field ${p.field} is required`,
    'zh-CN': (p) => `field ${p.field} is required`,
  },
  guardrail_blocked: {
    status: 400,
    code: 'guardrail_blocked',
    en: (p) => `request blocked by guardrail ${p.name}`,
    'zh-CN': (p) => `请求被护栏 ${p.name} 拦截`,
  },
  field_invalid: {
    status: 400,
    code: 'invalid_request',
    en: (p) => `field ${p.field} must be ${p.expected}`,
    'zh-CN': (p) => `field ${p.field} must be ${p.expected}`,
  },
  invalid_json: {
    status: 400,
    code: '',
    en: (p) => `Invalid request: ${p.detail}, invalid JSON request body`,
    'zh-CN': (p) => `无效的请求, ${p.detail}, invalid JSON request body`,
  },
  multipart_invalid: {
    status: 400,
    code: 'invalid_request',
    en: (p) => `Invalid multipart/form-data body: ${p.detail}`,
    'zh-CN': (p) => `无效的 multipart/form-data 请求体: ${p.detail}`,
  },
  audio_duration_unreadable: {
    status: 400,
    code: 'invalid_request',
    en: (p) =>
      `the duration of the audio file cannot be read (model ${p.model} is priced per minute of audio); send WAV, MP3, M4A/MP4, OGG/Opus, FLAC or WebM`,
    'zh-CN': (p) =>
      `无法读取音频文件的时长 (模型 ${p.model} 按音频分钟计费); 请发送 WAV, MP3, M4A/MP4, OGG/Opus, FLAC 或 WebM`,
  },
  image_count_out_of_range: {
    status: 400,
    code: 'invalid_request',
    en: 'n must be an integer between 1 and 128',
    'zh-CN': 'n must be an integer between 1 and 128',
  },
  unsupported_model_modifier: {
    status: 400,
    code: 'convert_request_failed',
    en: (p) => `unsupported model modifier "${p.name}"`,
    'zh-CN': (p) => `unsupported model modifier "${p.name}"`,
  },
  invalid_effort_modifier: {
    status: 400,
    code: 'convert_request_failed',
    en: (p) => `invalid effort modifier value "${p.value}"`,
    'zh-CN': (p) => `invalid effort modifier value "${p.value}"`,
  },
  model_price_missing: {
    status: 403,
    code: 'model_price_error',
    en: (p) =>
      `The price of model ${p.model} has not been configured by the administrator yet, so the model is not open for use`,
    'zh-CN': (p) => `模型 ${p.model} 的价格尚未由管理员配置, 暂不可使用`,
  },
  invalid_url: {
    status: 404,
    code: '',
    type: 'invalid_request_error',
    en: (p) => `Invalid URL (${p.method} ${p.path})`,
    'zh-CN': (p) => `Invalid URL (${p.method} ${p.path})`,
  },
  body_too_large: {
    status: 413,
    code: 'request_body_too_large',
    en: (p) => `Request body too large (limit ${p.limit} bytes)`,
    'zh-CN': (p) => `Request body too large (limit ${p.limit} bytes)`,
  },
  request_header_too_large: {
    status: 431,
    code: 'request_header_too_large',
    en: (p) => `Request header fields too large (limit ${p.limit} bytes)`,
    'zh-CN': (p) => `请求头过大 (上限 ${p.limit} 字节)`,
  },
  request_uri_too_long: {
    status: 414,
    code: 'request_uri_too_long',
    en: (p) => `Request URI too long (limit ${p.limit} bytes)`,
    'zh-CN': (p) => `请求 URI 过长 (上限 ${p.limit} 字节)`,
  },
  bad_request: {
    status: 400,
    code: 'bad_request',
    en: (p) => `Malformed HTTP request: ${p.detail}`,
    'zh-CN': (p) => `HTTP 请求格式错误: ${p.detail}`,
  },
  request_timeout: {
    status: 408,
    code: 'request_timeout',
    en: (p) => `Request headers not received within ${p.seconds} seconds (client_headers_timeout_s)`,
    'zh-CN': (p) => `未在 ${p.seconds} 秒内收到完整的请求头 (client_headers_timeout_s)`,
  },
  shutting_down: {
    status: 503,
    code: 'service_unavailable',
    retryable: true,
    en: 'The gateway is shutting down; retry the request',
    'zh-CN': '网关正在关闭, 请重试该请求',
  },
  no_available_channel: {
    status: 503,
    code: 'model_not_found',
    retryable: true,
    selection: true,
    en: (p) => `No available channel for model ${p.model} under group ${p.group} (distributor)`,
    'zh-CN': (p) => `分组 ${p.group} 下模型 ${p.model} 无可用渠道(distributor)`,
  },
  endpoint_not_supported: {
    status: 400,
    code: 'invalid_request',
    selection: true,
    en: (p) => `channel does not support ${p.path}`,
    'zh-CN': (p) => `channel does not support ${p.path}`,
  },
  file_fetch_failed: {
    status: 500,
    code: 'convert_request_failed',
    en: (p) => `get file data failed: ${p.detail}`,
    'zh-CN': (p) => `get file data failed: ${p.detail}`,
  },
  image_model_not_supported: {
    status: 500,
    code: '',
    en: 'not supported model for image generation, only imagen models are supported',
    'zh-CN': 'not supported model for image generation, only imagen models are supported',
  },
  rate_limit_exceeded: {
    status: 429,
    code: 'rate_limit_exceeded',
    retryable: true,
    selection: true,
    en: (p) => `Rate limit exceeded: ${p.limit}, retry after ${p.retryAfter} seconds`,
    'zh-CN': (p) => `请求频率超出限制: ${p.limit}, 请 ${p.retryAfter} 秒后重试`,
  },
  upstream_held: {
    status: 429,
    code: 'rate_limit_exceeded',
    retryable: true,
    selection: true,
    en: (p) => `${p.message}`,
    'zh-CN': (p) => `${p.message}`,
  },
  budget_exceeded: {
    status: 429,
    code: 'budget_exceeded',
    retryable: true,
    selection: true,
    en: (p) => `${p.scope} budget exceeded: ${p.period} limit ${p.limit} reached, resets at ${p.resetsAt}`,
    'zh-CN': (p) => `${p.scope} 预算已用尽: ${p.period} 限额 ${p.limit}, 重置时间 ${p.resetsAt}`,
  },
  budget_total_exceeded: {
    status: 403,
    code: 'budget_exceeded',
    selection: true,
    en: (p) => `${p.scope} budget exceeded: total limit ${p.limit} reached, resets never`,
    'zh-CN': (p) => `${p.scope} 预算已用尽: total 限额 ${p.limit}, 不会重置`,
  },
  concurrency_limit_exceeded: {
    status: 429,
    code: 'concurrency_limit_exceeded',
    retryable: true,
    selection: true,
    en: (p) => `too many concurrent requests (limit ${p.limit})`,
    'zh-CN': (p) => `并发请求过多 (上限 ${p.limit})`,
  },
  admin_unauthorized: {
    status: 401,
    code: 'unauthorized',
    en: 'Missing or invalid admin credentials',
    'zh-CN': '管理员凭据缺失或无效',
  },
  admin_invalid_request: {
    status: 400,
    code: 'invalid_request',
    en: (p) => `${p.detail}`,
    'zh-CN': (p) => `${p.detail}`,
  },
  admin_not_found: {
    status: 404,
    code: 'not_found',
    en: (p) => `${p.resource} ${p.id} not found`,
    'zh-CN': (p) => `未找到 ${p.resource} ${p.id}`,
  },
  managed_by_config: {
    status: 409,
    code: 'managed_by_config',
    en: (p) => `${p.resource} ${p.id} is managed by the configuration file ${p.file}; change it there`,
    'zh-CN': (p) => `${p.resource} ${p.id} 由配置文件 ${p.file} 管理，请在该文件中修改`,
  },
  invalid_credentials: {
    status: 401,
    code: 'invalid_credentials',
    en: 'Wrong username or password',
    'zh-CN': '用户名或密码错误',
  },
  too_many_attempts: {
    status: 429,
    code: 'too_many_attempts',
    retryable: true,
    en: (p) => `Too many failed sign-in attempts, try again in ${p.retryAfter} seconds`,
    'zh-CN': (p) => `登录失败次数过多, 请 ${p.retryAfter} 秒后重试`,
  },
  csrf_failed: {
    status: 403,
    code: 'csrf_failed',
    en: 'Missing or wrong X-CSRF-Token header: send the value of the gw_csrf cookie',
    'zh-CN': 'X-CSRF-Token 请求头缺失或错误: 请发送 gw_csrf Cookie 的值',
  },
  cross_site_sign_in: {
    status: 403,
    code: 'csrf_failed',
    en: 'Signing in from a page of another site is refused',
    'zh-CN': '拒绝来自其他站点页面的登录',
  },
  forbidden: {
    status: 403,
    code: 'forbidden',
    en: (p) => `${p.method} ${p.path} is not allowed for this account`,
    'zh-CN': (p) => `当前账户无权访问 ${p.method} ${p.path}`,
  },
  key_group_forbidden: {
    status: 403,
    code: 'forbidden',
    en: (p) => `a key's group may only be your own group (${p.group}) or null`,
    'zh-CN': (p) => `令牌的分组只能是您自己的分组 (${p.group}) 或 null`,
  },
  root_admin_has_no_account: {
    status: 403,
    code: 'forbidden',
    en: 'The root admin has no account of its own to change; manage users and keys through /api/users and /api/keys',
    'zh-CN': '根管理员没有可修改的个人账户; 请通过 /api/users 和 /api/keys 管理用户和令牌',
  },
  registration_closed: {
    status: 403,
    code: 'registration_closed',
    en: 'Registration is closed: ask an administrator for an account',
    'zh-CN': '注册已关闭: 请联系管理员开通账户',
  },
  invalid_invite_code: {
    status: 400,
    code: 'invalid_invite_code',
    en: 'A valid, unused invite code is required to register',
    'zh-CN': '注册需要一个有效且未使用的邀请码',
  },
  invalid_redemption_code: {
    status: 400,
    code: 'invalid_redemption_code',
    en: 'This redemption code is not valid: it is wrong, used, expired or disabled',
    'zh-CN': '兑换码无效: 兑换码错误、已使用、已过期或已停用',
  },
  topup_not_configured: {
    status: 400,
    code: 'topup_unavailable',
    en: 'Online top-up is not available: the administrator has not connected a Stripe account (setting stripe_secret_key)',
    'zh-CN': '在线充值不可用: 管理员尚未接入 Stripe 账户 (设置 stripe_secret_key)',
  },
  payment_provider_failed: {
    status: 502,
    code: 'payment_provider_error',
    retryable: true,
    en: (p) => `Stripe could not start the payment, and nothing was charged: ${p.detail}`,
    'zh-CN': (p) => `Stripe 未能发起支付, 未产生任何扣款: ${p.detail}`,
  },
  stripe_webhook_not_configured: {
    status: 503,
    code: 'webhook_not_configured',
    retryable: true,
    en: 'Stripe webhooks are not accepted yet: the setting stripe_webhook_secret is not set',
    'zh-CN': '暂不接收 Stripe webhook: 尚未设置 stripe_webhook_secret',
  },
  stripe_signature_invalid: {
    status: 400,
    code: 'invalid_signature',
    en: (p) => `Stripe-Signature check failed: ${p.detail}`,
    'zh-CN': (p) => `Stripe-Signature 校验失败: ${p.detail}`,
  },
  request_conversion_failed: {
    status: 400,
    code: 'convert_request_failed',
    en: (p) => `convert request failed: ${p.detail}`,
    'zh-CN': (p) => `转换请求失败: ${p.detail}`,
  },
  upstream_unreachable: {
    status: 502,
    code: 'upstream_error',
    retryable: true,
    en: (p) => `upstream request failed: ${p.detail}`,
    'zh-CN': (p) => `上游请求失败: ${p.detail}`,
  },
  upstream_timeout: {
    status: 504,
    code: 'upstream_timeout',
    retryable: true,
    en: (p) => timeoutText.en[p.limit as TimeoutLimit](p.seconds),
    'zh-CN': (p) => timeoutText['zh-CN'][p.limit as TimeoutLimit](p.seconds),
  },
  upstream_stream_broken: {
    status: 502,
    code: 'upstream_error',
    en: (p) => `the upstream stream broke off: ${p.detail}`,
    'zh-CN': (p) => `上游流中断: ${p.detail}`,
  },
  internal_error: {
    status: 500,
    code: 'internal_error',
    en: 'the gateway failed while handling this request; it was not charged',
    'zh-CN': '网关处理请求时出错, 本次请求未计费',
  },
  realtime_model_fixed: {
    status: 400,
    code: 'invalid_value',
    type: 'invalid_request_error',
    en: (p) =>
      `session.model cannot change: this realtime session was opened for ${p.model} and is billed as that model`,
    'zh-CN': (p) => `session.model 不可更改: 本实时会话以 ${p.model} 开启并按该模型计费`,
  },
} satisfies Record<string, CatalogueEntry>;

export type ErrorName = keyof typeof catalogue;

export function renderMessage(entry: CatalogueEntry, language: Language, params: Params): string {
  const text = entry[language];
  return typeof text === 'function' ? text(params) : text;
}
