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

/**
 * Credentials under names that say nothing: a URL with a password and well-known key and token shapes
 * (made up, of the right form). None may reach a tool's child process.
 */
export const SECRET_VALUE_SAMPLES: Record<string, string> = {
  DATABASE_URL: "postgres://app:pw-of-DATABASE_URL@db.internal:5432/app",
  REDIS_URL: "redis://:pw-of-REDIS_URL@cache:6379/0",
  HTTPS_PROXY: "http://proxyuser:pw-of-HTTPS_PROXY@proxy.corp:3128",
  OPENAI_STYLE: "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv",
  GITHUB_CLASSIC: "ghp_R4nd0mL00kingT0kenV4lue1234567890ab",
  GITHUB_FINE: "github_pat_11ABCDEFG0abcdefghijklmn_opqrstuvwxyz0123456789ABCDEF",
  GITHUB_OAUTH: "gho_16C7e42F292c6912E7710c838347Ae178B4a",
  SLACK_BOT: "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv",
  AWS_ID: "AKIAIOSFODNN7EXAMPLE",
  GOOGLE_MAPS: "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
  SESSION_JWT:
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ." +
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  BEARER_HEADER: "Authorization: Bearer sk-ant-api03-Xy7Zq2Wv9Ut4Sr1Qp8On5Ml",
  RANDOM_LOOKING: "x7Kp2QmZ9vLr4TnW8yBc3Fd6Hj1Ns5Gq",
};

/**
 * Ordinary variables whose values a careless credential filter would take for keys: paths, colour
 * settings, hashes, ids, URLs without a password, long names. All of them must reach child processes.
 */
export const ORDINARY_VALUE_SAMPLES: Record<string, string> = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  LS_COLORS: "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01:*.tar=01;31:*.zip=01;31",
  GIT_COMMIT_SHA: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  DOCKER_IMAGE_DIGEST: "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  INVOCATION_ID: "8f2d5c0e4b1a4f6d9c3e7a2b1d0f5e6c",
  TERM_SESSION_ID: "w0t0p0:550E8400-E29B-41D4-A716-446655440000",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus,guid=0a1b2c3d4e5f60718293a4b5c6d7e8f9",
  UPSTREAM_URL: "https://user@git.example.com:8443/team/repo.git",
  NODE_OPTIONS: "--max-old-space-size=4096 --enable-source-maps",
  JAVA_MAIN_CLASS: "ExampleProjectNameSecondaryServiceV2",
  NIX_STORE_PATH: "/nix/store/a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6-Python3Environment2024-x86_64",
  LANG: "en_US.UTF-8",
  TASK_NAME: "task-force-alpha-bravo-charlie-delta-echo",
};
