import type { Texts } from '../en';

/** 简体中文: 实时设置的名称与作用。 */
export const zhCNSettings: Pick<Texts, 'settings'> = {
  settings: {
    description: '实时设置: 修改在下一个请求生效, 无需重启。',
    environment: '环境变量: {{name}}',
    saveAll: '保存设置',
    unchanged: '没有修改。',
    unknown: '此网关版本的设置。',
    itemsHint: '用逗号或回车分隔。',
    items: {
      default_max_tokens: {
        label: '默认最大 Token 数',
        meaning: '请求未设置输出上限时, 预扣费所用的输出上限。',
      },
      stream_idle_timeout_s: {
        label: '流空闲超时 (秒)',
        meaning: '仅限流式: 首个数据块之前及数据块之间上游最长的静默时间。',
      },
      upstream_timeout_s: {
        label: '上游超时 (秒)',
        meaning: '非流式请求等待完整上游回复的最长时间。',
      },
      connect_timeout_s: {
        label: '连接超时 (秒)',
        meaning: '与上游建立连接的最长时间。',
      },
      client_headers_timeout_s: {
        label: '客户端请求头超时 (秒)',
        meaning: '客户端发送请求头的最长时间。',
      },
      body_limit_bytes: {
        label: '请求体上限 (字节)',
        meaning: '可接受的最大请求体; 超过则返回 413。',
      },
      web_search_price: {
        label: '网页搜索价格 (美元)',
        meaning: 'alpha search 每次网页搜索调用的价格 (美元)。',
      },
      trusted_proxies: {
        label: '可信代理',
        meaning: '只信任来自这些 CIDR 网段的 X-Forwarded-For 请求头; 留空: 不信任任何代理。',
      },
      retry_times: {
        label: '重试次数',
        meaning: '连接错误、429 或 5xx 之后尝试其他渠道的次数。',
      },
      image_fetch_allow_private: {
        label: '允许从私有地址获取图片',
        meaning: '关闭: 拒绝回环、私有和链路本地地址上的图片链接。',
      },
      channel_failure_threshold: {
        label: '渠道失败阈值',
        meaning: '渠道上某个模型连续失败多少次后进入冷却。',
      },
      channel_probe_interval_s: {
        label: '渠道探测间隔 (秒)',
        meaning: '探测自动禁用的渠道以恢复它的间隔。',
      },
      model_cooldown_s: {
        label: '模型冷却时间 (秒)',
        meaning: '渠道上失败模型的首次冷却时间 (不少于上游的 Retry-After)。',
      },
      model_cooldown_max_s: {
        label: '最长模型冷却时间 (秒)',
        meaning: '冷却时间随连续失败增长, 最多到此值。',
      },
      budget_time_zone: {
        label: '预算时区',
        meaning: '按小时、天、周、月计算的预算窗口所用的 IANA 时区 (如 Asia/Shanghai)。',
      },
      webhook_url: {
        label: 'Webhook 地址',
        meaning: '预算、余额和渠道事件发送到的地址; 留空: 不发送事件。',
      },
      webhook_secret: {
        label: 'Webhook 密钥',
        meaning: '事件 HMAC 签名所用的密钥; 以掩码显示。输入新值即替换; 留空: 无。',
      },
      routing_strategy: {
        label: '渠道选择方式',
        meaning:
          '在提供该模型、已启用且优先级最高的渠道中: 按权重随机, 或选近期首字节延迟最低的渠道 (少量请求会探索其他渠道)。',
      },
      sticky_ttl_s: {
        label: '提示缓存亲和时长 (秒)',
        meaning:
          '同一令牌中带相同亲和键 (prompt_cache_key、会话请求头) 的请求在此时长内继续发往同一渠道; 每个请求都会续期。',
      },
      log_retention_days: {
        label: '用量记录保留天数',
        meaning: '早于此天数的用量记录会在后台分小批删除; 0 表示永久保留。',
      },
      redact_pii: {
        label: '个人信息脱敏',
        meaning:
          '上游: 发往上游的文本中的电子邮箱、电话号码、银行卡号、IBAN 和密钥会被替换。日志: 仅在网关存储的请求内容中替换。',
      },
      body_retention_days: {
        label: '请求体和响应体保留天数',
        meaning: '早于此天数的已存储请求体和响应体会在后台删除, 用量记录保留; 0 表示永久保留。',
      },
      body_log_max_bytes: {
        label: '存储内容上限 (字节)',
        meaning: '存储的请求体或响应体超过此字节数时被截断, 记录中会标明 (1024 到 16777216)。',
      },
      registration: {
        label: '注册',
        meaning: '谁可以在登录页创建账户: 无人 (由管理员创建用户)、任何人, 或持有邀请码的人。',
      },
      new_user_balance: {
        label: '新用户余额 (USD)',
        meaning: '自行注册的账户的初始余额。',
      },
      pricing_public: {
        label: '公开价格',
        meaning: '开启: 价格页和 GET /api/pricing 无需登录。关闭: 仅限已登录用户。',
      },
      stripe_secret_key: {
        label: 'Stripe 密钥',
        meaning: '开启在线充值 (sk_live_… 或 sk_test_…); 以掩码显示。输入新值以替换; 留空: 关闭充值。',
      },
      stripe_webhook_secret: {
        label: 'Stripe Webhook 签名密钥',
        meaning: '向 /api/webhooks/stripe 推送事件的 Stripe 端点的签名密钥 (whsec_…); 以掩码显示。',
      },
      stripe_api_base: {
        label: 'Stripe API 地址',
        meaning: 'Stripe API 的地址; 除测试外均为 https://api.stripe.com。',
      },
      topup_min_usd: {
        label: '最低充值金额 (USD)',
        meaning: '一次在线充值的最低金额。',
      },
      topup_reconcile_after_s: {
        label: '未支付订单核对时间 (秒)',
        meaning: '待支付订单超过此时长后会向 Stripe 核对, 已支付则入账, 因此丢失的 Webhook 不会让付款丢失。',
      },
    },
    choices: {
      routing_strategy: {
        weighted: '按权重随机',
        latency: '延迟最低',
      },
      redact_pii: {
        off: '关闭',
        logs: '仅存储的日志',
        upstream: '同时发往上游的内容',
      },
      registration: {
        closed: '关闭',
        open: '对所有人开放',
        invite: '凭邀请码',
      },
    },
  },
};
