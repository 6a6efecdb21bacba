/** Credential variables a developer's shell commonly carries, including every kind Marvin reads. */
const SECRET_NAMES = [
  "OPENAI_API_KEY",
  "OPENAI_COMPAT_API_KEY",
  "GROQ_API_KEY",
  "GEMINI_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "COPILOT_GITHUB_TOKEN",
  "COPILOT_CLI_PATH",
  "GOOGLE_PLACES_API_KEY",
  "NEWSAPI_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "ANTHROPIC_API_KEY",
  "HF_TOKEN",
  "NPM_TOKEN",
  "AZURE_CLIENT_SECRET",
  "AZURE_DEVOPS_EXT_PAT",
  "PGPASSWORD",
  "MYSQL_PWD",
  "DB_PASSWORD",
  "GPG_PASSPHRASE",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "my_service_apikey",
];

/** Each of those variables set to a value that names it, e.g. GH_TOKEN=secret-value-of-GH_TOKEN. */
export const SECRET_SAMPLES: Record<string, string> = Object.fromEntries(
  SECRET_NAMES.map((name) => [name, `secret-value-of-${name}`]),
);
