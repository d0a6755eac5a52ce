/** What `model-gateway --help` says; kept apart so that printing it loads nothing else. */
export const CONFIG_USAGE = `Usage:
  model-gateway config validate <file>   check a configuration file; every error with its place
  model-gateway config plan <file>       what apply would create, change and delete (exit 0: nothing, 2: something)
  model-gateway config apply <file>      bring the database to what the file declares
  model-gateway config export [<file>]   write the database's setup as a configuration file (standard output without <file>)

plan, apply and export use the database of the environment, as the server does (GATEWAY_DATA_DIR,
DATABASE_URL, DATABASE_SCHEMA), and bring it to this version's schema first, as a start would.
`;

export const USAGE = `model-gateway: an LLM API gateway

  model-gateway                          start the server (configured by environment variables; see the README)
  model-gateway --help                   this text

${CONFIG_USAGE}`;
