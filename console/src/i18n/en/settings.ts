/** English texts of the live settings: each one's name and what it does. */
export const enSettings = {
  settings: {
    description: 'Live settings: a change takes effect on the next request, without a restart.',
    environment: 'Environment variable: {{name}}',
    saveAll: 'Save settings',
    unchanged: 'Nothing changed.',
    unknown: 'A setting of this gateway version.',
    itemsHint: 'Separated by commas or Enter.',
    items: {
      default_max_tokens: {
        label: 'Default max tokens',
        meaning: 'Output cap used for the pre-charge when a request sets none.',
      },
      stream_idle_timeout_s: {
        label: 'Stream idle timeout (s)',
        meaning: 'Streams only: the longest upstream silence before the first chunk and between chunks.',
      },
      upstream_timeout_s: {
        label: 'Upstream timeout (s)',
        meaning: 'The longest a non-streamed request waits for its whole upstream reply.',
      },
      connect_timeout_s: {
        label: 'Connect timeout (s)',
        meaning: 'The longest a connection to an upstream may take to open.',
      },
      client_headers_timeout_s: {
        label: 'Client headers timeout (s)',
        meaning: 'The longest a client may take to send its request headers.',
      },
      body_limit_bytes: {
        label: 'Body limit (bytes)',
        meaning: 'Largest request body accepted; larger ones get 413.',
      },
      web_search_price: {
        label: 'Web search price (USD)',
        meaning: 'USD per web-search call of alpha search.',
      },
      trusted_proxies: {
        label: 'Trusted proxies',
        meaning: 'CIDR ranges whose X-Forwarded-For header is believed; empty: none.',
      },
      retry_times: {
        label: 'Retry times',
        meaning: 'How many other channels are tried after a connection error, 429 or 5xx.',
      },
      image_fetch_allow_private: {
        label: 'Fetch images from private addresses',
        meaning: 'Off: image links on loopback, private and link-local addresses are refused.',
      },
      channel_failure_threshold: {
        label: 'Channel failure threshold',
        meaning: 'Failures in a row after which a model of a channel cools down.',
      },
      channel_probe_interval_s: {
        label: 'Channel probe interval (s)',
        meaning: 'How often an auto-disabled channel is probed to bring it back.',
      },
      model_cooldown_s: {
        label: 'Model cooldown (s)',
        meaning: 'First cooldown of a failing model on a channel (at least the upstream’s Retry-After).',
      },
      model_cooldown_max_s: {
        label: 'Longest model cooldown (s)',
        meaning: 'The cooldown grows with repeated failures up to this.',
      },
      budget_time_zone: {
        label: 'Budget time zone',
        meaning:
          'IANA time zone (e.g. Europe/Berlin) whose clock starts hourly, daily, weekly and monthly budgets.',
      },
      webhook_url: {
        label: 'Webhook URL',
        meaning: 'Where budget, balance and channel events are posted; empty: no events.',
      },
      webhook_secret: {
        label: 'Webhook secret',
        meaning:
          'Key of the events’ HMAC signature; shown masked. Type a new one to replace it; empty: none.',
      },
      routing_strategy: {
        label: 'Channel choice',
        meaning:
          'Among the enabled channels of the highest priority that serve a model: weighted random, or the lowest recent first-byte latency (a small share of requests explores the others).',
      },
      sticky_ttl_s: {
        label: 'Prompt-cache affinity (s)',
        meaning:
          'How long requests of one key with the same affinity key (prompt_cache_key, session header) keep going to the same channel; each request renews it.',
      },
      log_retention_days: {
        label: 'Usage record retention (days)',
        meaning:
          'Usage records older than this are deleted in the background, a small batch at a time; 0 keeps them forever.',
      },
      redact_pii: {
        label: 'Personal data redaction',
        meaning:
          'Upstream: e-mail addresses, phone numbers, card numbers, IBANs and secrets are replaced in the texts sent upstream. Logs: in what the gateway stores of requests only.',
      },
      body_retention_days: {
        label: 'Body retention (days)',
        meaning:
          'Stored request and response bodies older than this are deleted in the background, their usage records kept; 0 keeps them forever.',
      },
      body_log_max_bytes: {
        label: 'Stored body limit (bytes)',
        meaning:
          'A stored request or response body is cut at this many bytes, and its record says so (1024 to 16777216).',
      },
      registration: {
        label: 'Registration',
        meaning:
          'Who may create an account from the sign-in page: nobody (admins create users), anyone, or holders of an invite code.',
      },
      new_user_balance: {
        label: 'New user balance (USD)',
        meaning: 'The balance a self-registered account starts with.',
      },
      pricing_public: {
        label: 'Public pricing',
        meaning: 'On: the Pricing page and GET /api/pricing need no sign-in. Off: signed-in users only.',
      },
      stripe_secret_key: {
        label: 'Stripe secret key',
        meaning:
          'Turns card top-up on (sk_live_… or sk_test_…); shown masked. Type a new one to replace it; empty: top-up off.',
      },
      stripe_webhook_secret: {
        label: 'Stripe webhook secret',
        meaning:
          'The signing secret (whsec_…) of the Stripe endpoint that posts to /api/webhooks/stripe; shown masked.',
      },
      stripe_api_base: {
        label: 'Stripe API address',
        meaning: 'Where the Stripe API is reached; https://api.stripe.com unless testing.',
      },
      topup_min_usd: {
        label: 'Smallest top-up (USD)',
        meaning: 'The least amount a card top-up may be.',
      },
      topup_reconcile_after_s: {
        label: 'Check unpaid orders after (s)',
        meaning:
          'A pending order this old is checked with Stripe and credited when paid, so a lost webhook never loses a payment.',
      },
    },
    choices: {
      routing_strategy: {
        weighted: 'Weighted random',
        latency: 'Lowest latency',
      },
      redact_pii: {
        off: 'Off',
        logs: 'In stored logs',
        upstream: 'Also upstream',
      },
      registration: {
        closed: 'Closed',
        open: 'Open to anyone',
        invite: 'By invite code',
      },
    },
  },
} as const;
