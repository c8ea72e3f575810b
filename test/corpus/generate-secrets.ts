// Generates test/corpus/secrets.jsonl: credentials in their vendors' documented formats, embedded in the text
// an agent sees or sends (env files, shell commands, code, logs, chat), plus look-alikes that must pass
// (placeholders, templates, documented example and test keys, hashes, ids, public keys, unsigned JWTs).
// Every value comes from a seeded PRNG, so the file is reproducible and reviewable; no value is live.
//   node --import tsx test/corpus/generate-secrets.ts   (rewrites test/corpus/secrets.jsonl)
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------- seeded randomness
let seed = 0x5ec12e75;
function rand(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const from = (alphabet: string, n: number): string => Array.from({ length: n }, () => pick([...alphabet])).join('');
const alnum = (n: number) => from(LOWER + UPPER + DIGITS, n);
const hex = (n: number) => from('0123456789abcdef', n);
const HEX = (n: number) => from('0123456789ABCDEF', n);
const upperAlnum = (n: number) => from(UPPER + DIGITS, n);
const lowerAlnum = (n: number) => from(LOWER + DIGITS, n);
const b64 = (n: number) => from(LOWER + UPPER + DIGITS + '+/', n);
const b64url = (n: number) => from(LOWER + UPPER + DIGITS + '-_', n);
const base32 = (n: number) => from(UPPER + '234567', n);
const digits = (n: number) => from(DIGITS, n);
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
const b64enc = (s: string) => Buffer.from(s).toString('base64');
const b64urlenc = (s: string) => Buffer.from(s).toString('base64url');
const lines = (body: string, width = 64) => body.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
const word = () => pick(['orders', 'billing', 'search', 'auth', 'inventory', 'reports', 'gateway', 'payments', 'users', 'ledger']);
const host = () => `${word()}-${pick(['db', 'prod', 'primary', 'main', 'cluster0'])}.${pick(['internal.acme.io', 'corp.example.net', 'eu-west-1.rds.amazonaws.com', 'k8s.local'])}`;
const password = () => `${alnum(6)}${pick(['!', '#', '%', '^', '*', '-', '_', '~'])}${alnum(8)}${pick(['!', '.', '@', '$'])}${digits(2)}`;
/** A password as it appears in a URL: characters that need no percent-encoding there. */
const urlPassword = () => `${alnum(6)}${pick(['!', '*', '-', '_', '~', '.'])}${alnum(8)}${pick(['!', '.', '~', '$'])}${digits(2)}`;

// ---------------------------------------------------------------- credential kinds
/** A kind: where it comes from, an env var name as docs spell it, and a generator of one secret (or snippet). */
interface Kind {
  kind: string;
  family: string;
  env: string;
  gen: () => string;
  /** The generated value is a whole snippet (PEM block, JSON file, URL): embed it as is, not as VAR=value. */
  snippet?: boolean;
}

function pem(label: string, bodyBytes: number, header = ''): string {
  return `-----BEGIN ${label}-----\n${header}${lines(b64(bodyBytes))}==\n-----END ${label}-----`;
}
function jwt(alg = 'HS256', extra: Record<string, unknown> = {}): string {
  const head = b64urlenc(JSON.stringify({ alg, typ: 'JWT' }));
  const body = b64urlenc(JSON.stringify({ sub: `user_${digits(6)}`, iat: 1700000000 + Math.floor(rand() * 1e7), exp: 1800000000, ...extra }));
  const sigLen = alg.startsWith('HS') ? 43 : 342;
  return `${head}.${body}.${b64url(sigLen)}`;
}

const K: Kind[] = [];
const add = (family: string, kind: string, env: string, gen: () => string, snippet = false) => K.push({ family, kind, env, gen, snippet });

// cloud
add('cloud', 'aws-access-key-id', 'AWS_ACCESS_KEY_ID', () => `${pick(['AKIA', 'ASIA'])}${base32(16)}`);
add('cloud', 'aws-secret-access-key', 'AWS_SECRET_ACCESS_KEY', () => b64(40));
add('cloud', 'aws-credentials-file', '', () => `[default]\naws_access_key_id = AKIA${base32(16)}\naws_secret_access_key = ${b64(40)}\nregion = us-east-1`, true);
add('cloud', 'aws-session-token', 'AWS_SESSION_TOKEN', () => `IQoJb3JpZ2luX2Vj${b64(300)}`);
add('cloud', 'gcp-service-account', '', () => JSON.stringify({ type: 'service_account', project_id: `acme-${word()}-${digits(4)}`, private_key_id: hex(40), private_key: pem('PRIVATE KEY', 1200).replace(/\n/g, '\\n'), client_email: `ci@acme-${digits(4)}.iam.gserviceaccount.com` }, null, 2).replace(/\\\\n/g, '\\n'), true);
add('cloud', 'google-api-key', 'GOOGLE_API_KEY', () => `AIza${b64url(35)}`);
add('cloud', 'google-oauth-client-secret', 'GOOGLE_CLIENT_SECRET', () => `GOCSPX-${b64url(28)}`);
add('cloud', 'google-oauth-access-token', 'GOOGLE_ACCESS_TOKEN', () => `ya29.${b64url(150)}`);
add('cloud', 'google-oauth-refresh-token', 'GOOGLE_REFRESH_TOKEN', () => `1//0${pick(['g', 'e', '4', '9'])}${b64url(99)}`);
add('cloud', 'azure-storage-connection-string', 'AZURE_STORAGE_CONNECTION_STRING', () => `DefaultEndpointsProtocol=https;AccountName=acme${lowerAlnum(8)};AccountKey=${b64(86)}==;EndpointSuffix=core.windows.net`);
add('cloud', 'azure-sas-token', 'AZURE_SAS_URL', () => `https://acme${lowerAlnum(6)}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-12-31T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=${encodeURIComponent(b64(43) + '=')}`);
add('cloud', 'azure-ad-client-secret', 'AZURE_CLIENT_SECRET', () => `${alnum(3)}${digits(1)}Q~${from(LOWER + UPPER + DIGITS + '_~.-', 34)}`);
add('cloud', 'azure-devops-pat', 'AZURE_DEVOPS_PAT', () => from('abcdefghijklmnopqrstuvwxyz234567', 52));
add('cloud', 'azure-cosmos-key', 'COSMOS_KEY', () => `${b64(86)}==`);
add('cloud', 'alibaba-access-key-id', 'ALIBABA_CLOUD_ACCESS_KEY_ID', () => `LTAI${alnum(20)}`);
add('cloud', 'alibaba-access-key-secret', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', () => alnum(30));
add('cloud', 'ibm-cloud-api-key', 'IBMCLOUD_API_KEY', () => b64url(44));
add('cloud', 'oracle-oci-auth-token', 'OCI_AUTH_TOKEN', () => from(LOWER + UPPER + DIGITS + '()<>:;.#_[]+-', 20).replace(/[<>]/g, 'q'));
add('cloud', 'digitalocean-pat', 'DIGITALOCEAN_TOKEN', () => `dop_v1_${hex(64)}`);
add('cloud', 'digitalocean-oauth', 'DO_OAUTH_TOKEN', () => `${pick(['doo', 'dor'])}_v1_${hex(64)}`);
add('cloud', 'linode-token', 'LINODE_TOKEN', () => hex(64));
add('cloud', 'heroku-api-key', 'HEROKU_API_KEY', () => `HRKU-AA${b64url(58)}`);
add('cloud', 'heroku-api-key-uuid', 'HEROKU_API_KEY', () => uuid());
add('cloud', 'cloudflare-api-token', 'CLOUDFLARE_API_TOKEN', () => b64url(40));
add('cloud', 'cloudflare-global-key', 'CLOUDFLARE_API_KEY', () => hex(37));
add('cloud', 'cloudflare-origin-ca-key', 'CF_ORIGIN_CA_KEY', () => `v1.0-${hex(24)}-${hex(146)}`);
add('cloud', 'scaleway-secret-key', 'SCW_SECRET_KEY', () => uuid());
add('cloud', 'tencent-secret-id', 'TENCENTCLOUD_SECRET_ID', () => `AKID${alnum(32)}`);
add('cloud', 'yandex-api-key', 'YC_API_KEY', () => `AQVN${b64url(36)}`);
add('cloud', 'flyio-token', 'FLY_API_TOKEN', () => `FlyV1 fm2_${b64url(300)}`);
add('cloud', 'render-api-key', 'RENDER_API_KEY', () => `rnd_${alnum(32)}`);
add('cloud', 'vercel-token', 'VERCEL_TOKEN', () => alnum(24));
add('cloud', 'netlify-token', 'NETLIFY_AUTH_TOKEN', () => `nfp_${alnum(36)}`);
add('cloud', 'supabase-pat', 'SUPABASE_ACCESS_TOKEN', () => `sbp_${hex(40)}`);
add('cloud', 'supabase-secret-key', 'SUPABASE_SECRET_KEY', () => `sb_secret_${b64url(31)}`);
add('cloud', 'firebase-fcm-server-key', 'FCM_SERVER_KEY', () => `AAAA${b64url(7)}:APA91b${b64url(134)}`);
add('cloud', 'doppler-token', 'DOPPLER_TOKEN', () => `dp.${pick(['pt', 'st', 'sa', 'ct'])}.${alnum(43)}`);
add('cloud', 'vault-token', 'VAULT_TOKEN', () => `hvs.${b64url(90)}`);
add('cloud', 'vault-batch-token', 'VAULT_TOKEN', () => `hvb.${b64url(120)}`);
add('cloud', 'terraform-cloud-token', 'TF_TOKEN_app_terraform_io', () => `${alnum(14)}.atlasv1.${b64url(67)}`);
add('cloud', 'pulumi-token', 'PULUMI_ACCESS_TOKEN', () => `pul-${hex(40)}`);
add('cloud', '1password-service-account', 'OP_SERVICE_ACCOUNT_TOKEN', () => `ops_${b64urlenc(JSON.stringify({ signInAddress: 'acme.1password.com', email: `${lowerAlnum(12)}@1passwordserviceaccounts.com`, secretKey: `A3-${upperAlnum(6)}-${upperAlnum(11)}-${upperAlnum(5)}`, srpX: hex(64), muk: { alg: 'A256GCM', k: b64url(43) } }))}`);
add('cloud', 'okta-api-token', 'OKTA_API_TOKEN', () => `00${b64url(40)}`);
add('cloud', 'auth0-client-secret', 'AUTH0_CLIENT_SECRET', () => b64url(64));
add('cloud', 'databricks-token', 'DATABRICKS_TOKEN', () => `dapi${hex(32)}`);
add('cloud', 'planetscale-token', 'PLANETSCALE_SERVICE_TOKEN', () => `pscale_tkn_${b64url(43)}`);
add('cloud', 'planetscale-password', 'DATABASE_PASSWORD', () => `pscale_pw_${b64url(43)}`);
add('cloud', 'kubeconfig-token', '', () => `apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: ${b64url(40)}.${b64url(200)}\n    client-key-data: ${b64(400)}`, true);
add('cloud', 'contentful-pat', 'CONTENTFUL_MANAGEMENT_TOKEN', () => `CFPAT-${b64url(43)}`);
add('cloud', 'age-secret-key', 'SOPS_AGE_KEY', () => `AGE-SECRET-KEY-1${from('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`);
add('cloud', 'dynatrace-token', 'DT_API_TOKEN', () => `dt0c01.${upperAlnum(24)}.${upperAlnum(64)}`);
add('cloud', 'hetzner-token', 'HCLOUD_TOKEN', () => alnum(64));

// source control and CI
add('scm', 'github-pat-classic', 'GITHUB_TOKEN', () => `ghp_${alnum(36)}`);
add('scm', 'github-pat-fine-grained', 'GITHUB_TOKEN', () => `github_pat_11${upperAlnum(20)}_${alnum(59)}`);
add('scm', 'github-oauth', 'GH_OAUTH_TOKEN', () => `gho_${alnum(36)}`);
add('scm', 'github-user-to-server', 'GH_TOKEN', () => `ghu_${alnum(36)}`);
add('scm', 'github-app-installation', 'GITHUB_INSTALLATION_TOKEN', () => `ghs_${alnum(36)}`);
add('scm', 'github-refresh', 'GITHUB_REFRESH_TOKEN', () => `ghr_${alnum(76)}`);
add('scm', 'gitlab-pat', 'GITLAB_TOKEN', () => `glpat-${b64url(20)}`);
add('scm', 'gitlab-pipeline-trigger', 'CI_TRIGGER_TOKEN', () => `glptt-${hex(40)}`);
add('scm', 'gitlab-runner', 'RUNNER_TOKEN', () => `glrt-${b64url(20)}`);
add('scm', 'gitlab-runner-registration', 'REGISTRATION_TOKEN', () => `GR1348941${b64url(20)}`);
add('scm', 'gitlab-deploy', 'GITLAB_DEPLOY_TOKEN', () => `gldt-${b64url(20)}`);
add('scm', 'gitlab-feed', 'GITLAB_FEED_TOKEN', () => `glft-${b64url(20)}`);
add('scm', 'gitlab-oauth-secret', 'GITLAB_OAUTH_SECRET', () => `gloas-${hex(64)}`);
add('scm', 'gitlab-job-token', 'CI_JOB_TOKEN', () => `glcbt-${hex(2)}_${b64url(20)}`);
add('scm', 'gitlab-scim', 'GITLAB_SCIM_TOKEN', () => `glsoat-${b64url(20)}`);
add('scm', 'gitlab-agent', 'KAS_AGENT_TOKEN', () => `glagent-${b64url(50)}`);
add('scm', 'gitlab-incoming-mail', 'INCOMING_EMAIL_TOKEN', () => `glimt-${b64url(25)}`);
add('scm', 'bitbucket-app-password', 'BITBUCKET_APP_PASSWORD', () => `ATBB${alnum(32)}${HEX(8)}`);
add('scm', 'bitbucket-access-token', 'BITBUCKET_ACCESS_TOKEN', () => `ATCTT3xFfGN0${b64url(180)}=${HEX(8)}`);
add('scm', 'atlassian-api-token', 'JIRA_API_TOKEN', () => `ATATT3xFfGF0${b64url(180)}=${HEX(8)}`);
add('scm', 'circleci-pat', 'CIRCLE_TOKEN', () => `CCIPAT_${alnum(22)}_${hex(40)}`);
add('scm', 'circleci-legacy', 'CIRCLECI_TOKEN', () => hex(40));
add('scm', 'travis-token', 'TRAVIS_TOKEN', () => alnum(22));
add('scm', 'buildkite-token', 'BUILDKITE_API_TOKEN', () => `bkua_${hex(40)}`);
add('scm', 'buildkite-agent-token', 'BUILDKITE_AGENT_TOKEN', () => hex(50));
add('scm', 'sonarqube-token', 'SONAR_TOKEN', () => `${pick(['squ', 'sqp', 'sqa'])}_${hex(40)}`);
add('scm', 'jfrog-api-key', 'ARTIFACTORY_API_KEY', () => `AKCp${alnum(69)}`);
add('scm', 'jfrog-reference-token', 'JFROG_ACCESS_TOKEN', () => `cmVmdGtuOjAxOjE3${b64url(48)}`);
add('scm', 'harness-pat', 'HARNESS_API_KEY', () => `pat.${b64url(22)}.${hex(24)}.${alnum(20)}`);
add('scm', 'octopus-api-key', 'OCTOPUS_API_KEY', () => `API-${upperAlnum(26)}`);
add('scm', 'jenkins-api-token', 'JENKINS_API_TOKEN', () => `11${hex(32)}`);
add('scm', 'gitea-token', 'GITEA_TOKEN', () => hex(40));
add('scm', 'snyk-token', 'SNYK_TOKEN', () => uuid());
add('scm', 'codecov-token', 'CODECOV_TOKEN', () => uuid());
add('scm', 'drone-token', 'DRONE_TOKEN', () => alnum(32));
add('scm', 'git-credentials-url', '', () => `https://${pick(['oauth2', 'x-access-token', 'deploy', 'ci-bot'])}:${alnum(40)}@git.${pick(['acme.io', 'corp.example.net'])}/${word()}/${word()}.git`, true);

// payment
add('payment', 'stripe-secret-live', 'STRIPE_SECRET_KEY', () => `sk_live_51${alnum(97)}`);
add('payment', 'stripe-restricted-live', 'STRIPE_RESTRICTED_KEY', () => `rk_live_51${alnum(97)}`);
add('payment', 'stripe-webhook-secret', 'STRIPE_WEBHOOK_SECRET', () => `whsec_${alnum(32)}`);
add('payment', 'square-access-token', 'SQUARE_ACCESS_TOKEN', () => `EAAA${b64url(60)}`);
add('payment', 'square-legacy-token', 'SQUARE_TOKEN', () => `sq0atp-${b64url(22)}`);
add('payment', 'square-oauth-secret', 'SQUARE_APPLICATION_SECRET', () => `sq0csp-${b64url(43)}`);
add('payment', 'braintree-access-token', 'BRAINTREE_ACCESS_TOKEN', () => `access_token$production$${lowerAlnum(16)}$${hex(32)}`);
add('payment', 'paypal-client-secret', 'PAYPAL_CLIENT_SECRET', () => `E${b64url(79)}`);
add('payment', 'adyen-api-key', 'ADYEN_API_KEY', () => `AQE${b64url(60)}+${b64url(40)}=-${b64url(20)}`);
add('payment', 'razorpay-secret', 'RAZORPAY_KEY_SECRET', () => alnum(24));
add('payment', 'flutterwave-secret', 'FLW_SECRET_KEY', () => `FLWSECK-${hex(32)}-X`);
add('payment', 'plaid-secret', 'PLAID_SECRET', () => hex(30));
add('payment', 'plaid-access-token', 'PLAID_ACCESS_TOKEN', () => `access-production-${uuid()}`);
add('payment', 'mollie-live-key', 'MOLLIE_API_KEY', () => `live_${alnum(30)}`);
add('payment', 'checkout-secret', 'CKO_SECRET_KEY', () => `sk_${uuid()}`);
add('payment', 'gocardless-live', 'GOCARDLESS_ACCESS_TOKEN', () => `live_${b64url(40)}`);
add('payment', 'coinbase-api-secret', 'COINBASE_API_SECRET', () => b64(88));
add('payment', 'shopify-access-token', 'SHOPIFY_ACCESS_TOKEN', () => `shpat_${hex(32)}`);
add('payment', 'shopify-shared-secret', 'SHOPIFY_API_SECRET', () => `shpss_${hex(32)}`);
add('payment', 'shopify-custom-app', 'SHOPIFY_TOKEN', () => `${pick(['shpca', 'shppa'])}_${hex(32)}`);

// messaging
add('messaging', 'slack-bot-token', 'SLACK_BOT_TOKEN', () => `xoxb-${digits(12)}-${digits(13)}-${alnum(24)}`);
add('messaging', 'slack-user-token', 'SLACK_USER_TOKEN', () => `xoxp-${digits(12)}-${digits(12)}-${digits(13)}-${hex(32)}`);
add('messaging', 'slack-app-token', 'SLACK_APP_TOKEN', () => `xapp-1-A${upperAlnum(10)}-${digits(13)}-${hex(64)}`);
add('messaging', 'slack-config-token', 'SLACK_CONFIG_TOKEN', () => `xoxe.xoxp-1-${b64url(140)}`);
add('messaging', 'slack-webhook', 'SLACK_WEBHOOK_URL', () => `https://hooks.slack.com/services/T${upperAlnum(10)}/B${upperAlnum(10)}/${alnum(24)}`);
add('messaging', 'discord-bot-token', 'DISCORD_TOKEN', () => `${pick(['MT', 'OD', 'OT', 'MTE'])}${b64url(22)}.${b64url(6)}.${b64url(38)}`);
add('messaging', 'discord-webhook', 'DISCORD_WEBHOOK_URL', () => `https://discord.com/api/webhooks/${digits(19)}/${b64url(68)}`);
add('messaging', 'telegram-bot-token', 'TELEGRAM_BOT_TOKEN', () => `${digits(10)}:AA${b64url(33)}`);
add('messaging', 'twilio-api-key', 'TWILIO_API_SECRET', () => alnum(32));
add('messaging', 'twilio-auth-token', 'TWILIO_AUTH_TOKEN', () => hex(32));
add('messaging', 'sendgrid-api-key', 'SENDGRID_API_KEY', () => `SG.${b64url(22)}.${b64url(43)}`);
add('messaging', 'mailgun-api-key', 'MAILGUN_API_KEY', () => `key-${hex(32)}`);
add('messaging', 'mailgun-new-key', 'MAILGUN_API_KEY', () => `${hex(32)}-${hex(8)}-${hex(8)}`);
add('messaging', 'mailchimp-api-key', 'MAILCHIMP_API_KEY', () => `${hex(32)}-us${1 + Math.floor(rand() * 20)}`);
add('messaging', 'postmark-server-token', 'POSTMARK_SERVER_TOKEN', () => uuid());
add('messaging', 'mandrill-api-key', 'MANDRILL_API_KEY', () => `md-${b64url(22)}`);
add('messaging', 'brevo-api-key', 'BREVO_API_KEY', () => `xkeysib-${hex(64)}-${alnum(16)}`);
add('messaging', 'resend-api-key', 'RESEND_API_KEY', () => `re_${alnum(8)}_${alnum(24)}`);
add('messaging', 'teams-webhook', 'TEAMS_WEBHOOK_URL', () => `https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${hex(32)}/${uuid()}/V2${b64url(40)}`);
add('messaging', 'google-chat-webhook', 'GCHAT_WEBHOOK', () => `https://chat.googleapis.com/v1/spaces/AAAA${b64url(7)}/messages?key=AIza${b64url(35)}&token=${b64url(43)}`);
add('messaging', 'zapier-webhook', 'ZAPIER_HOOK', () => `https://hooks.zapier.com/hooks/catch/${digits(8)}/${lowerAlnum(7)}/`);
add('messaging', 'ifttt-webhook', 'IFTTT_URL', () => `https://maker.ifttt.com/trigger/deploy/with/key/${b64url(22)}`);
add('messaging', 'intercom-token', 'INTERCOM_ACCESS_TOKEN', () => `dG9rOj${b64(54)}=`);
add('messaging', 'pusher-secret', 'PUSHER_APP_SECRET', () => hex(20));
add('messaging', 'vonage-api-secret', 'VONAGE_API_SECRET', () => alnum(16));
add('messaging', 'mattermost-token', 'MATTERMOST_TOKEN', () => lowerAlnum(26));
add('messaging', 'line-channel-token', 'LINE_CHANNEL_ACCESS_TOKEN', () => `${b64(171)}=`);

// observability
add('observability', 'datadog-api-key', 'DD_API_KEY', () => hex(32));
add('observability', 'datadog-app-key', 'DD_APP_KEY', () => hex(40));
add('observability', 'newrelic-user-key', 'NEW_RELIC_API_KEY', () => `NRAK-${upperAlnum(27)}`);
add('observability', 'newrelic-license-key', 'NEW_RELIC_LICENSE_KEY', () => `${hex(36)}NRAL`);
add('observability', 'newrelic-insights-key', 'NEW_RELIC_INSERT_KEY', () => `NRII-${b64url(32)}`);
add('observability', 'newrelic-browser-key', 'NEW_RELIC_BROWSER_KEY', () => `NRJS-${hex(19)}`);
add('observability', 'sentry-dsn-secret', 'SENTRY_DSN', () => `https://${hex(32)}:${hex(32)}@o${digits(6)}.ingest.sentry.io/${digits(7)}`);
add('observability', 'sentry-user-token', 'SENTRY_AUTH_TOKEN', () => `sntryu_${hex(64)}`);
add('observability', 'sentry-org-token', 'SENTRY_AUTH_TOKEN', () => `sntrys_${b64urlenc(JSON.stringify({ iat: 1700000000, url: 'https://sentry.io', region_url: 'https://us.sentry.io', org: 'acme' }))}_${b64(43)}`);
add('observability', 'grafana-sa-token', 'GRAFANA_TOKEN', () => { const body = alnum(32); return `glsa_${body}_${createHash('sha256').update(body).digest('hex').slice(0, 8)}`; });
add('observability', 'grafana-cloud-token', 'GRAFANA_CLOUD_TOKEN', () => `glc_${b64enc(JSON.stringify({ o: digits(6), n: `stack-${digits(6)}-ci`, k: alnum(24), m: { r: 'prod-us-east-0' } }))}`);
add('observability', 'grafana-api-key', 'GRAFANA_API_KEY', () => `eyJrIjoi${b64(60)}`);
add('observability', 'honeycomb-key', 'HONEYCOMB_API_KEY', () => alnum(22));
add('observability', 'honeycomb-ingest-key', 'HONEYCOMB_API_KEY', () => `hcaik_01${lowerAlnum(56)}`);
add('observability', 'splunk-hec-token', 'SPLUNK_HEC_TOKEN', () => uuid().toUpperCase());
add('observability', 'pagerduty-key', 'PAGERDUTY_API_KEY', () => b64url(20));
add('observability', 'elastic-api-key', 'ELASTIC_API_KEY', () => b64(60));
add('observability', 'logdna-key', 'LOGDNA_INGESTION_KEY', () => hex(32));
add('observability', 'bugsnag-key', 'BUGSNAG_API_KEY', () => hex(32));
add('observability', 'rollbar-token', 'ROLLBAR_ACCESS_TOKEN', () => hex(32));

// LLM providers and AI tooling
add('llm', 'openai-project-key', 'OPENAI_API_KEY', () => `sk-proj-${b64url(74)}T3BlbkFJ${b64url(74)}`);
add('llm', 'openai-service-account-key', 'OPENAI_API_KEY', () => `sk-svcacct-${b64url(74)}T3BlbkFJ${b64url(74)}`);
add('llm', 'openai-admin-key', 'OPENAI_ADMIN_KEY', () => `sk-admin-${b64url(74)}T3BlbkFJ${b64url(74)}`);
add('llm', 'openai-legacy-key', 'OPENAI_API_KEY', () => `sk-${alnum(20)}T3BlbkFJ${alnum(20)}`);
add('llm', 'anthropic-api-key', 'ANTHROPIC_API_KEY', () => `sk-ant-api03-${b64url(93)}AA`);
add('llm', 'anthropic-admin-key', 'ANTHROPIC_ADMIN_KEY', () => `sk-ant-admin01-${b64url(93)}AA`);
add('llm', 'google-ai-key', 'GEMINI_API_KEY', () => `AIza${b64url(35)}`);
add('llm', 'groq-key', 'GROQ_API_KEY', () => `gsk_${alnum(52)}`);
add('llm', 'mistral-key', 'MISTRAL_API_KEY', () => alnum(32));
add('llm', 'cohere-key', 'COHERE_API_KEY', () => alnum(40));
add('llm', 'huggingface-token', 'HF_TOKEN', () => `hf_${alnum(34)}`);
add('llm', 'replicate-token', 'REPLICATE_API_TOKEN', () => `r8_${alnum(37)}`);
add('llm', 'perplexity-key', 'PERPLEXITY_API_KEY', () => `pplx-${alnum(48)}`);
add('llm', 'xai-key', 'XAI_API_KEY', () => `xai-${alnum(80)}`);
add('llm', 'deepseek-key', 'DEEPSEEK_API_KEY', () => `sk-${hex(32)}`);
add('llm', 'openrouter-key', 'OPENROUTER_API_KEY', () => `sk-or-v1-${hex(64)}`);
add('llm', 'together-key', 'TOGETHER_API_KEY', () => hex(64));
add('llm', 'together-key-v1', 'TOGETHER_API_KEY', () => `tgp_v1_${b64url(43)}`);
add('llm', 'fireworks-key', 'FIREWORKS_API_KEY', () => `fw_${alnum(24)}`);
add('llm', 'langsmith-key', 'LANGSMITH_API_KEY', () => `lsv2_${pick(['pt', 'sk'])}_${hex(32)}_${hex(10)}`);
add('llm', 'pinecone-key', 'PINECONE_API_KEY', () => `pcsk_${alnum(6)}_${alnum(63)}`);
add('llm', 'cerebras-key', 'CEREBRAS_API_KEY', () => `csk-${lowerAlnum(48)}`);
add('llm', 'elevenlabs-key', 'ELEVENLABS_API_KEY', () => `sk_${hex(48)}`);
add('llm', 'voyage-key', 'VOYAGE_API_KEY', () => `pa-${b64url(43)}`);
add('llm', 'nvidia-key', 'NVIDIA_API_KEY', () => `nvapi-${b64url(64)}`);
add('llm', 'tavily-key', 'TAVILY_API_KEY', () => `tvly-${pick(['', 'dev-', 'prod-'])}${alnum(32)}`);
add('llm', 'wandb-key', 'WANDB_API_KEY', () => hex(40));
add('llm', 'assemblyai-key', 'ASSEMBLYAI_API_KEY', () => hex(32));
add('llm', 'deepgram-key', 'DEEPGRAM_API_KEY', () => hex(40));
add('llm', 'stability-key', 'STABILITY_API_KEY', () => `sk-${alnum(48)}`);

// package registries
add('registry', 'npm-token', 'NPM_TOKEN', () => `npm_${alnum(36)}`);
add('registry', 'npmrc-auth-token', '', () => `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${uuid()}\nalways-auth=true`, true);
add('registry', 'pypi-token', 'PYPI_TOKEN', () => `pypi-AgEIcHlwaS5vcmc${b64url(160)}`);
add('registry', 'rubygems-key', 'GEM_HOST_API_KEY', () => `rubygems_${hex(48)}`);
add('registry', 'nuget-key', 'NUGET_API_KEY', () => `oy2${lowerAlnum(43)}`);
add('registry', 'dockerhub-pat', 'DOCKERHUB_TOKEN', () => `dckr_pat_${b64url(27)}`);
add('registry', 'docker-config-auth', '', () => JSON.stringify({ auths: { 'https://index.docker.io/v1/': { auth: b64enc(`ci-bot:${password()}`) } } }, null, 2), true);
add('registry', 'crates-io-token', 'CARGO_REGISTRY_TOKEN', () => `cio${alnum(32)}`);
add('registry', 'clojars-token', 'CLOJARS_TOKEN', () => `CLOJARS_${lowerAlnum(60)}`);
add('registry', 'yarnrc-npm-auth', '', () => `npmRegistryServer: "https://npm.pkg.github.com"\nnpmAuthToken: "${alnum(40)}"`, true);
add('registry', 'pip-conf-index-url', '', () => `[global]\nindex-url = https://__token__:${alnum(40)}@pypi.acme.io/simple/`, true);
add('registry', 'maven-settings-password', '', () => `<server>\n  <id>acme-releases</id>\n  <username>deployer</username>\n  <password>${password()}</password>\n</server>`, true);
add('registry', 'gradle-properties', '', () => `ossrhUsername=deployer\nossrhPassword=${password()}\nsigning.password=${password()}`, true);

// databases and connection strings
const db = (scheme: string, port: number) => () => `${scheme}://${pick(['app', 'admin', 'svc_' + word(), 'root'])}:${urlPassword()}@${host()}:${port}/${word()}`;
add('database', 'postgres-url', 'DATABASE_URL', db('postgres', 5432));
add('database', 'postgresql-url', 'DATABASE_URL', db('postgresql', 5432));
add('database', 'mysql-url', 'DATABASE_URL', db('mysql', 3306));
add('database', 'mongodb-srv-url', 'MONGODB_URI', () => `mongodb+srv://${word()}:${urlPassword()}@cluster0.${lowerAlnum(5)}.mongodb.net/${word()}?retryWrites=true&w=majority`);
add('database', 'mongodb-url', 'MONGO_URL', db('mongodb', 27017));
add('database', 'redis-url', 'REDIS_URL', () => `redis://default:${urlPassword()}@${host()}:6379/0`);
add('database', 'rediss-url', 'REDIS_URL', () => `rediss://:${urlPassword()}@${host()}:6380`);
add('database', 'amqp-url', 'AMQP_URL', db('amqp', 5672));
add('database', 'mssql-url', 'SQLSERVER_URL', db('sqlserver', 1433));
add('database', 'ado-connection-string', 'ConnectionStrings__Default', () => `Server=tcp:${host()},1433;Initial Catalog=${word()};User ID=${word()}_app;Password=${password()};Encrypt=True;`);
add('database', 'jdbc-url-password', 'JDBC_URL', () => `jdbc:postgresql://${host()}:5432/${word()}?user=${word()}&password=${password()}`);
add('database', 'clickhouse-url', 'CLICKHOUSE_URL', db('clickhouse', 9000));
add('database', 'neo4j-url', 'NEO4J_URI', db('neo4j+s', 7687));
add('database', 'smtp-url', 'SMTP_URL', db('smtps', 465));
add('database', 'ldap-bind', 'LDAP_BIND_PASSWORD', () => password());
add('database', 'kafka-jaas', '', () => `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${upperAlnum(16)}" password="${b64(64)}";`, true);
add('database', 'elasticsearch-url', 'ELASTICSEARCH_URL', () => `https://elastic:${urlPassword()}@${word()}.es.us-east-1.aws.found.io:9243`);
add('database', 'snowflake-password', 'SNOWFLAKE_PASSWORD', () => password());
add('database', 'db-password', 'DB_PASSWORD', () => password());
add('database', 'netrc', '', () => `machine api.${pick(['acme.io', 'github.com', 'heroku.com'])}\n  login ci-bot\n  password ${alnum(40)}`, true);
add('database', 'htpasswd-basic-auth', '', () => `Authorization: Basic ${b64enc(`deploy:${password()}`)}`, true);

// private keys
add('private-key', 'rsa-private-key', '', () => pem('RSA PRIVATE KEY', 1600, 'MIIEpAIBAAKCAQEA'), true);
add('private-key', 'ec-private-key', '', () => pem('EC PRIVATE KEY', 160, 'MHcCAQEEI'), true);
add('private-key', 'openssh-private-key', '', () => `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW' + b64(300), 70)}\n-----END OPENSSH PRIVATE KEY-----`, true);
add('private-key', 'pkcs8-private-key', '', () => pem('PRIVATE KEY', 1200, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'), true);
add('private-key', 'encrypted-pkcs8-key', '', () => pem('ENCRYPTED PRIVATE KEY', 1200, 'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkq'), true);
add('private-key', 'encrypted-rsa-pem', '', () => `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${HEX(32)}\n\n${lines(b64(1600))}\n-----END RSA PRIVATE KEY-----`, true);
add('private-key', 'dsa-private-key', '', () => pem('DSA PRIVATE KEY', 600, 'MIIBuwIBAAKBgQ'), true);
add('private-key', 'pgp-private-key', '', () => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${lines('lQOYBG' + b64(1500))}\n=${b64(4)}\n-----END PGP PRIVATE KEY BLOCK-----`, true);
add('private-key', 'putty-private-key', '', () => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n${lines('AAAAC3NzaC1lZDI1NTE5AAAAI' + b64(43))}\nPrivate-Lines: 1\n${b64(44)}\nPrivate-MAC: ${hex(64)}`, true);
add('private-key', 'private-key-json-escaped', 'PRIVATE_KEY', () => `"-----BEGIN PRIVATE KEY-----\\n${lines('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' + b64(900)).replace(/\n/g, '\\n')}\\n-----END PRIVATE KEY-----\\n"`);
add('private-key', 'ssh2-encrypted-key', '', () => `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20240101"\n${lines('P2/56wAAA' + b64(700))}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----`, true);

// tokens
add('token', 'jwt-hs256', 'AUTH_TOKEN', () => jwt('HS256'));
add('token', 'jwt-rs256', 'ID_TOKEN', () => jwt('RS256', { iss: 'https://auth.acme.io/', aud: 'api' }));
add('token', 'supabase-service-role-jwt', 'SUPABASE_SERVICE_ROLE_KEY', () => jwt('HS256', { iss: 'supabase', role: 'service_role' }));
add('token', 'bearer-header', '', () => `Authorization: Bearer ${b64url(48)}`, true);
add('token', 'x-api-key-header', '', () => `X-API-Key: ${alnum(40)}`, true);
add('token', 'generic-api-key', 'API_KEY', () => alnum(40));
add('token', 'generic-secret', 'APP_SECRET', () => b64(44));
add('token', 'generic-client-secret', 'CLIENT_SECRET', () => b64url(48));
add('token', 'django-secret-key', 'DJANGO_SECRET_KEY', () => from(LOWER + DIGITS + '!@#%^&*(-_=+)', 50));
add('token', 'rails-secret-key-base', 'SECRET_KEY_BASE', () => hex(128));
add('token', 'flask-secret-key', 'FLASK_SECRET_KEY', () => hex(48));
add('token', 'nextauth-secret', 'NEXTAUTH_SECRET', () => b64(44));
add('token', 'session-secret', 'SESSION_SECRET', () => b64url(64));
add('token', 'encryption-key', 'ENCRYPTION_KEY', () => b64(43) + '=');
add('token', 'webhook-signing-secret', 'WEBHOOK_SECRET', () => hex(64));
add('token', 'url-token-param', 'CALLBACK_URL', () => `https://api.${pick(['acme.io', 'partner.example.net'])}/v2/${word()}?api_key=${alnum(40)}`);
add('token', 'mapbox-secret-token', 'MAPBOX_SECRET_TOKEN', () => `sk.eyJ1IjoiYWNtZSIsImEiOiJ${b64url(20)}.${b64url(22)}`);
add('saas', 'linear-api-key', 'LINEAR_API_KEY', () => `lin_api_${alnum(40)}`);
add('saas', 'notion-secret', 'NOTION_TOKEN', () => `secret_${alnum(43)}`);
add('saas', 'notion-ntn', 'NOTION_TOKEN', () => `ntn_${digits(11)}${alnum(35)}`);
add('saas', 'airtable-pat', 'AIRTABLE_TOKEN', () => `pat${alnum(14)}.${hex(64)}`);
add('saas', 'asana-pat', 'ASANA_TOKEN', () => `2/${digits(16)}/${digits(16)}:${hex(32)}`);
add('saas', 'hubspot-pat', 'HUBSPOT_ACCESS_TOKEN', () => `pat-${pick(['na1', 'eu1'])}-${uuid()}`);
add('saas', 'figma-pat', 'FIGMA_TOKEN', () => `figd_${b64url(40)}`);
add('saas', 'dropbox-token', 'DROPBOX_ACCESS_TOKEN', () => `sl.${pick(['', 'u.'])}${b64url(140)}`);
add('saas', 'algolia-admin-key', 'ALGOLIA_ADMIN_KEY', () => hex(32));
add('saas', 'postman-api-key', 'POSTMAN_API_KEY', () => `PMAK-${hex(24)}-${hex(34)}`);
add('saas', 'typeform-token', 'TYPEFORM_TOKEN', () => `tfp_${b64url(44)}_${b64url(14)}`);
add('saas', 'zendesk-token', 'ZENDESK_API_TOKEN', () => alnum(40));
add('saas', 'freshdesk-key', 'FRESHDESK_API_KEY', () => alnum(20));
add('saas', 'sentry-like-segment-key', 'SEGMENT_WRITE_KEY', () => alnum(32));
add('saas', 'launchdarkly-sdk-key', 'LAUNCHDARKLY_SDK_KEY', () => `sdk-${uuid()}`);
add('saas', 'launchdarkly-api-key', 'LD_API_KEY', () => `api-${uuid()}`);
add('saas', 'mapbox-style', 'MAPBOX_ACCESS_TOKEN', () => `sk.eyJ1Ijoi${b64url(30)}.${b64url(22)}`);
add('saas', 'frameio-token', 'FRAMEIO_TOKEN', () => `fio-u-${b64url(64)}`);
add('saas', 'prefect-key', 'PREFECT_API_KEY', () => `pnu_${alnum(36)}`);
add('saas', 'readme-key', 'README_API_KEY', () => `rdme_${lowerAlnum(70)}`);
add('saas', 'scalingo-token', 'SCALINGO_API_TOKEN', () => `tk-us-${b64url(48)}`);
add('saas', 'shippo-token', 'SHIPPO_API_TOKEN', () => `shippo_live_${hex(40)}`);
add('saas', 'easypost-key', 'EASYPOST_API_KEY', () => `EZAK${hex(54)}`);
add('saas', 'sumologic-key', 'SUMO_ACCESS_KEY', () => alnum(64));
add('saas', 'warden-proxy-key', 'WARDEN_PROXY_KEY', () => `sk-warden-${hex(64)}`);

// ---------------------------------------------------------------- embedding a secret in text
type Lane = 'prompt' | 'response' | 'tool-output' | 'tool-args' | 'file-write';
const LANES: Lane[] = ['prompt', 'response', 'tool-output', 'tool-args', 'file-write'];

/** How a VAR=value pair is written in each kind of text. */
const assignments: ((env: string, v: string) => string)[] = [
  (e, v) => `${e}=${v}`,
  (e, v) => `export ${e}="${v}"`,
  (e, v) => `${e.toLowerCase()}: ${v}`,
  (e, v) => `"${e.toLowerCase()}": "${v}"`,
  (e, v) => `${camel(e)} = '${v}'`,
  (e, v) => `  ${e}: "${v}"`,
  (e, v) => `os.environ["${e}"] = "${v}"`,
  (e, v) => `const ${camel(e)} = "${v}";`,
];
function camel(env: string): string {
  return env.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function wrap(lane: Lane, snippet: string, file: string): string {
  switch (lane) {
    case 'prompt':
      return pick([
        `Can you figure out why the deploy fails? Here is my ${file}:\n\n${snippet}\n\nIt worked yesterday.`,
        `I keep getting 401 errors with this config:\n${snippet}\nwhat am I doing wrong`,
        `${snippet}\n^ this is from our staging setup, please add it to the docker compose file`,
        `hey, use these credentials for the integration test: ${snippet}`,
      ]);
    case 'response':
      return pick([
        `Sure! Update your ${file} like this:\n\n\`\`\`\n${snippet}\n\`\`\`\n\nThen restart the server.`,
        `I found the value in the logs. Set it as follows:\n${snippet}\nThis should fix the authentication error.`,
        `Here is the complete configuration:\n\n${snippet}\n\nLet me know if anything else fails.`,
      ]);
    case 'tool-output':
      return pick([
        `$ cat ${file}\n# generated ${1 + Math.floor(rand() * 28)}/03\n${snippet}\nLOG_LEVEL=info`,
        `2025-03-${10 + Math.floor(rand() * 18)}T10:22:31Z DEBUG loaded settings ${snippet}\n2025-03-14T10:22:31Z INFO listening on :8080`,
        `commit ${hex(40)}\nAuthor: dev <dev@acme.io>\n\n    wip config\n\ndiff --git a/${file} b/${file}\n+${snippet.split('\n').join('\n+')}`,
        `Found 1 result in ${file}:\n${12 + Math.floor(rand() * 80)}: ${snippet}`,
      ]);
    default:
      return snippet;
  }
}

const FILES = ['.env', 'config/settings.yaml', 'docker-compose.yml', 'src/config.ts', 'settings.py', '.github/workflows/deploy.yml', 'terraform.tfvars', 'appsettings.json'];

interface Case { id: string; positive: boolean; lane: Lane; text: string; kind: string; note: string; tool?: string; args?: Record<string, unknown> }
const cases: Omit<Case, 'id'>[] = [];

/** A positive or negative case for one snippet in one lane; tool lanes carry the call's tool and arguments. */
function emit(positive: boolean, lane: Lane, snippet: string, kind: string, note: string): void {
  const file = pick(FILES);
  if (lane === 'tool-args') {
    const oneLine = snippet.includes('\n') ? `cat > ${file} <<'EOF'\n${snippet}\nEOF` : pick([
      `export ${snippet.replace(/^export /, '')} && npm run deploy`,
      `echo '${snippet}' >> ${file}`,
      `curl -sS -X POST https://api.acme.io/v1/deploy -d '${snippet}'`,
      `kubectl create secret generic app --from-literal='${snippet}'`,
    ]);
    cases.push({ positive, lane, text: oneLine, kind, note, tool: 'Bash', args: { command: oneLine, description: 'configure the deploy' } });
    return;
  }
  if (lane === 'file-write') {
    const content = `# ${word()} service configuration\n${snippet}\nPORT=8080\n`;
    cases.push({ positive, lane, text: content, kind, note, tool: 'Write', args: { file_path: `/home/dev/app/${file}`, content } });
    return;
  }
  cases.push({ positive, lane, text: wrap(lane, snippet, file), kind, note });
}

function snippetOf(k: Kind, value: string): string {
  if (k.snippet) return value;
  return pick(assignments)(k.env, value);
}

// positives: every kind in several lanes (the lanes rotate so each kind meets different ones)
let laneTurn = 0;
for (const k of K) {
  const n = k.family === 'token' || k.family === 'private-key' ? 4 : 3;
  for (let i = 0; i < n; i++) {
    const lane = LANES[laneTurn++ % LANES.length]!;
    emit(true, lane, snippetOf(k, k.gen()), k.kind, `${k.family}: ${k.kind} in its documented format (generated)`);
  }
}

// ---------------------------------------------------------------- look-alikes that must pass
const negLane = () => LANES[laneTurn++ % LANES.length]!;
const neg = (snippet: string, kind: string, note: string) => emit(false, negLane(), snippet, kind, note);

// placeholders in each kind's own format: fillers, templates, instructions, documented examples
/** The value as dashboards and docs print it masked: a few leading characters, then stars. */
const masked = (value: string) => `${value.slice(0, Math.min(8, Math.floor(value.length / 3)))}${'*'.repeat(Math.max(value.length - 8, 8))}`;
for (const k of K) {
  if (k.snippet) continue;
  const real = k.gen();
  const prefix = real.match(/^[A-Za-z]{2,8}[_\-.]?(?:[A-Za-z0-9]{1,6}[_\-])?/)?.[0] ?? '';
  const choices = [
    () => snippetOf(k, `${prefix}${'x'.repeat(Math.max(real.length - prefix.length, 8))}`),
    () => snippetOf(k, `${prefix}${'X'.repeat(Math.max(real.length - prefix.length, 8))}`),
    () => snippetOf(k, `${prefix}${'0'.repeat(Math.max(real.length - prefix.length, 8))}`),
    () => snippetOf(k, `\${${k.env}}`),
    () => snippetOf(k, `{{ secrets.${k.env} }}`),
    () => snippetOf(k, `<your-${k.kind}>`),
    () => snippetOf(k, `your_${k.env.toLowerCase()}_here`),
    () => snippetOf(k, `${prefix}EXAMPLE${'x'.repeat(8)}`),
    () => snippetOf(k, masked(real)),
    () => `${k.env}=$(vault kv get -field=value secret/${word()}/${k.env.toLowerCase()})`,
    () => `${camel(k.env)}: process.env.${k.env},`,
    () => `${k.env.toLowerCase()} = os.environ.get("${k.env}")`,
    () => snippetOf(k, 'changeme'),
  ];
  const count = K.indexOf(k) % 2 === 0 ? 2 : 1;
  for (let i = 0; i < count; i++) neg(pick(choices)(), `${k.kind}-placeholder`, 'placeholder, template or reference in the secret\'s place');
}

// vendor-documented example and test keys
const documented = [
  ['AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws-docs-example'],
  ['aws_access_key_id = AKIAI44QH8DHBEXAMPLE\naws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY', 'aws-docs-example'],
  ['STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'stripe-docs-test-key'],
  ['Stripe.api_key = "sk_test_BQokikJOvBiI2HlWgH4olfQ2"', 'stripe-docs-test-key'],
  ['const stripe = require("stripe")("sk_test_26PHem9AhJZvU623DfE1x4sd");', 'stripe-docs-test-key'],
  ['curl https://api.telegram.org/bot110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe', 'telegram-docs-example'],
  ['Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', 'jwt-io-example'],
  ['SLACK_BOT_TOKEN=xoxb-not-a-real-token-this-will-not-work', 'slack-docs-example'],
];
for (const [text, kind] of documented) for (let i = 0; i < 2; i++) neg(text!, kind!, 'documented example or test key, never live');

// test-mode keys that vendors document as harmless
for (let i = 0; i < 6; i++) neg(`STRIPE_SECRET_KEY=sk_test_51${alnum(97)}`, 'stripe-test-key', 'Stripe test-mode key (cannot move money)');
for (let i = 0; i < 3; i++) neg(`STRIPE_PUBLISHABLE_KEY=pk_live_51${alnum(97)}`, 'stripe-publishable-key', 'publishable key, public by design');
for (let i = 0; i < 3; i++) neg(`RAZORPAY_KEY_ID=rzp_test_${alnum(14)}`, 'razorpay-test-key', 'test key id');
for (let i = 0; i < 3; i++) neg(`BRAINTREE_TOKEN=access_token$sandbox$${lowerAlnum(16)}$${hex(32)}`, 'braintree-sandbox', 'sandbox token');
for (let i = 0; i < 3; i++) neg(`MAPBOX_ACCESS_TOKEN=pk.eyJ1IjoiYWNtZSIsImEiOiJ${b64url(20)}.${b64url(22)}`, 'mapbox-public-token', 'public Mapbox token (pk.)');
for (let i = 0; i < 3; i++) neg(`const firebaseConfig = { projectId: "acme-${word()}", appId: "1:${digits(12)}:web:${hex(22)}", messagingSenderId: "${digits(12)}" };`, 'firebase-web-config', 'public Firebase app ids');
for (let i = 0; i < 3; i++) neg(`GOOGLE_CLIENT_ID=${digits(12)}-${lowerAlnum(32)}.apps.googleusercontent.com`, 'google-client-id', 'OAuth client id (public)');

// hashes, ids and encodings that look random
const hashes: [() => string, string, string][] = [
  [() => `commit ${hex(40)}\nMerge: ${hex(7)} ${hex(7)}\nAuthor: Dana Lee <dana@example.com>\n\n    fix flaky test`, 'git-sha', 'git commit id'],
  [() => `${hex(64)}  dist/warden-${digits(1)}.${digits(1)}.${digits(1)}.tgz`, 'sha256sum', 'file checksum'],
  [() => `"integrity": "sha512-${b64(86)}=="`, 'sri-hash', 'npm lockfile integrity'],
  [() => `<script src="https://cdn.example.com/lib.min.js" integrity="sha384-${b64(64)}" crossorigin="anonymous"></script>`, 'sri-hash', 'subresource integrity'],
  [() => `{"id": "${uuid()}", "tenant_id": "${uuid()}", "status": "active"}`, 'uuid', 'record ids'],
  [() => `request_id=${uuid()} trace_id=${hex(32)} span_id=${hex(16)} duration_ms=${digits(3)}`, 'trace-ids', 'trace and request ids'],
  [() => `<img src="data:image/png;base64,iVBORw0KGgo${b64(300)}=" alt="logo">`, 'data-uri', 'inline image'],
  [() => `image: ghcr.io/acme/api@sha256:${hex(64)}`, 'image-digest', 'container image digest'],
  [() => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(43)} dev@laptop`, 'ssh-public-key', 'public key'],
  [() => `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${b64(360)} ci@build`, 'ssh-public-key', 'public key'],
  [() => `-----BEGIN PUBLIC KEY-----\n${lines('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + b64(300))}\n-----END PUBLIC KEY-----`, 'pem-public-key', 'public key'],
  [() => `-----BEGIN CERTIFICATE-----\n${lines('MIIDdzCCAl+gAwIBAgIE' + b64(800))}\n-----END CERTIFICATE-----`, 'certificate', 'certificate (public)'],
  [() => `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${lines('mQINBG' + b64(600))}\n-----END PGP PUBLIC KEY BLOCK-----`, 'pgp-public-key', 'public key'],
  [() => `${b64urlenc(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64urlenc(JSON.stringify({ sub: 'user_' + digits(5), role: 'viewer' }))}.`, 'jwt-unsigned', 'JWT without signature'],
  [() => `header: ${b64urlenc(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))} payload: ${b64urlenc(JSON.stringify({ sub: 'user_' + digits(5) }))}`, 'jwt-parts', 'JWT header and payload only'],
  [() => `<link rel="stylesheet" href="/static/css/main.${hex(8)}.chunk.css"> <script src="/static/js/main.${hex(20)}.js">`, 'asset-hash', 'content-hashed assets'],
  [() => `"resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.${digits(2)}.tgz",\n"shasum": "${hex(40)}"`, 'npm-shasum', 'package shasum'],
  [() => `CACHE_KEY=build-${hex(12)}-node20-linux`, 'cache-key', 'CI cache key'],
  [() => `session_id: ${hex(32)}\nuser_agent: Mozilla/5.0`, 'session-id-log', 'opaque id in a log (no secret keyword)'],
  [() => `etag: "W/${hex(32)}"\ncontent-md5: ${b64(22)}==`, 'etag', 'HTTP cache validators'],
  [() => `arn:aws:iam::${digits(12)}:role/${word()}-deployer`, 'aws-arn', 'resource name'],
  [() => `/subscriptions/${uuid()}/resourceGroups/rg-${word()}/providers/Microsoft.Web/sites/${word()}`, 'azure-resource-id', 'resource id'],
  [() => `pip install torch==2.${digits(1)}.0 --hash=sha256:${hex(64)}`, 'pip-hash', 'pinned hash'],
  [() => `wasm-bindgen = "0.2.${digits(2)}"  # checksum ${hex(64)}`, 'cargo-checksum', 'checksum'],
  [() => `font-data: url(data:font/woff2;base64,d09GMgABAAAAA${b64(200)}) format("woff2");`, 'font-data', 'inline font'],
  [() => `Bitcoin address: bc1q${lowerAlnum(38)}`, 'crypto-address', 'public address'],
  [() => `ETH wallet 0x${hex(40)} received 0.5 ETH`, 'crypto-address', 'public address'],
  [() => `Order ${upperAlnum(10)} confirmation code ${upperAlnum(8)} shipped with tracking 1Z${upperAlnum(16)}`, 'order-ids', 'order and tracking ids'],
  [() => `client_id: ${lowerAlnum(20)}\nredirect_uri: https://app.acme.io/callback\nresponse_type: code`, 'oauth-client-id', 'client id is public'],
  [() => `GITHUB_SHA=${hex(40)}\nGITHUB_RUN_ID=${digits(10)}\nGITHUB_REF=refs/heads/main`, 'ci-env', 'CI variables that are not secrets'],
];
for (let i = 0; i < 140; i++) {
  const [gen, kind, note] = hashes[i % hashes.length]!;
  neg(gen(), kind, note);
}

// keywords in innocent use
const prose: [() => string, string][] = [
  [() => `max_tokens: ${digits(4)}\ntemperature: 0.2\ntoken_type: bearer`, 'keyword-config'],
  [() => `password_min_length = 12\npassword_require_symbols = true\npassword_reset_url = "https://app.acme.io/reset"`, 'keyword-config'],
  [() => `secret_name: prod/${word()}/db-credentials\nsecret_arn_prefix: arn:aws:secretsmanager:us-east-1:${digits(12)}:secret:`, 'secret-reference'],
  [() => `env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: ${word()}-db\n        key: password`, 'k8s-secret-ref'],
  [() => `To authenticate, create a token under Settings > Developer settings and export it as GITHUB_TOKEN before running the script.`, 'prose'],
  [() => `The API key must be sent in the X-API-Key header; rotate it every 90 days and never commit it.`, 'prose'],
  [() => `Enter password: \nPassword accepted. Welcome back, dana.`, 'terminal-prompt'],
  [() => `api_key: ${pick(['"${API_KEY}"', '!vault |', 'env(API_KEY)', '"%API_KEY%"', '${{ secrets.API_KEY }}'])}`, 'template'],
  [() => `password: "********"\nusername: admin`, 'masked'],
  [() => `DATABASE_URL=postgres://app:\${DB_PASSWORD}@${host()}:5432/app`, 'db-url-template'],
  [() => `DATABASE_URL=postgres://localhost:5432/${word()}_dev`, 'db-url-no-password'],
  [() => `REDIS_URL=redis://${host()}:6379/0`, 'db-url-no-password'],
  [() => `mongodb://${host()}:27017/${word()}?replicaSet=rs0`, 'db-url-no-password'],
  [() => `git clone https://github.com/acme/${word()}.git && cd ${word()}`, 'git-url'],
  [() => `const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET });`, 'code-reference'],
  [() => `self.secret_key = settings.SECRET_KEY\nself.api_token = config["api_token"]`, 'code-reference'],
  [() => `def rotate_api_key(user_id: str) -> str:\n    """Return a new API key for the user."""\n    return secrets.token_urlsafe(32)`, 'code'],
  [() => `if (password.length < 8) throw new Error("password too short");`, 'code'],
  [() => `passwordless login is enabled; tokens expire after ${digits(2)} minutes`, 'prose'],
  [() => `SECRET_KEY_BASE is generated by \`rails secret\` on first boot.`, 'prose'],
  [() => `| AWS_ACCESS_KEY_ID | your AWS access key id |\n| AWS_SECRET_ACCESS_KEY | your AWS secret key |`, 'docs-table'],
  [() => `OPENAI_API_KEY=sk-...\nANTHROPIC_API_KEY=sk-ant-...`, 'truncated'],
  [() => `The key looks like sk-proj-abc…xyz in the dashboard; copy the full value.`, 'truncated'],
  [() => `api_key = "test"\nsecret = "secret"\npassword = "password"`, 'weak-defaults'],
  [() => `DB_PASSWORD=postgres\nDB_USER=postgres\nDB_HOST=localhost`, 'local-defaults'],
  [() => `spring.datasource.password=\${SPRING_DATASOURCE_PASSWORD}`, 'template'],
  [() => `auth_token_ttl_seconds = ${digits(4)}\nauth_token_header = "X-Auth-Token"`, 'keyword-config'],
  [() => `"publicKey": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"`, 'vapid-public-key'],
  [() => `key_id = "${hex(16)}"  # fingerprint of the signing key, not the key`, 'key-fingerprint'],
  [() => `SHA256:${b64(43)} dev@laptop (ED25519)`, 'ssh-fingerprint'],
  [() => `The token endpoint is https://oauth2.googleapis.com/token and the scope is https://www.googleapis.com/auth/cloud-platform`, 'prose'],
  [() => `Use \`gh auth login\` and then \`gh auth token\` to print the token for scripts.`, 'prose'],
  [() => `PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]`, 'keyword-config'],
  [() => `x-api-key: <API_KEY>`, 'template'],
  [() => `Authorization: Bearer $TOKEN`, 'template'],
  [() => `curl -H "Authorization: Bearer \${GITHUB_TOKEN}" https://api.github.com/user`, 'template'],
  [() => `tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")\ntokens = tokenizer(text)`, 'code'],
  [() => `private_key_path = "~/.ssh/id_ed25519"\npublic_key_path = "~/.ssh/id_ed25519.pub"`, 'key-path'],
  [() => `-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----`, 'private-key-placeholder'],
  [() => `-----BEGIN OPENSSH PRIVATE KEY-----\n<paste your key here>\n-----END OPENSSH PRIVATE KEY-----`, 'private-key-placeholder'],
];
for (let i = 0; i < 120; i++) {
  const [gen, kind] = prose[i % prose.length]!;
  neg(gen(), kind, 'secret keyword or shape in innocent use');
}

// ---------------------------------------------------------------- harder cases: prose, CLI arguments, look-alikes with keywords
const proseSecrets: [() => string, string][] = [
  [() => `the staging db password is ${password()} if you need it`, 'password-in-prose'],
  [() => `My API key is ${alnum(32)}, can you check why the request fails?`, 'api-key-in-prose'],
  [() => `mysql -h ${host()} -u admin -p${urlPassword()} -e "SELECT 1"`, 'mysql-cli-password'],
  [() => `docker login registry.acme.io -u deployer -p ${alnum(24)}`, 'docker-login-password'],
  [() => `curl -u ci-bot:${alnum(20)} https://ci.acme.io/job/${word()}/build`, 'curl-basic-auth'],
  [() => `sshpass -p '${urlPassword()}' ssh deploy@${host()}`, 'sshpass-password'],
  [() => `PGPASSWORD=${urlPassword()} psql -h ${host()} -U app -d ${word()}`, 'pgpassword-env'],
  [() => `apiVersion: v1\nkind: Secret\ndata:\n  password: ${b64enc(password())}\n  api-key: ${b64enc(alnum(32))}`, 'k8s-secret-data'],
  [() => `[client]\nuser = backup\npassword = "${password()}"`, 'my-cnf'],
  [() => `settings.API_KEY = "${alnum(40)}"`, 'code-assignment'],
];
for (let i = 0; i < 40; i++) {
  const [gen, kind] = proseSecrets[i % proseSecrets.length]!;
  emit(true, LANES[laneTurn++ % LANES.length]!, gen(), kind, `generic: ${kind} (generated)`);
}
const hardNegatives: [() => string, string][] = [
  [() => `"nextPageToken": "${b64url(43)}",\n"items": []`, 'pagination-token'],
  [() => `{"usage": {"prompt_tokens": ${digits(3)}, "completion_tokens": ${digits(3)}, "total_tokens": ${digits(4)}}}`, 'token-usage'],
  [() => `SECRET_KEY="dev-secret-key-change-in-production"`, 'stand-in'],
  [() => `api_key = "1234567890abcdef1234567890abcdef"`, 'sequence'],
  [() => `JWT_SECRET=supersecretjwtkey`, 'stand-in'],
  [() => `password: P@ssw0rd`, 'weak-default'],
  [() => `token: "test-token-1234567890"`, 'stand-in'],
  [() => `GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`, 'filler'],
  [() => `OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`, 'filler'],
  [() => `"client_secret_name": "prod-oauth-${word()}", "secret_arn": "arn:aws:secretsmanager:us-east-1:${digits(12)}:secret:${word()}"`, 'secret-reference'],
  [() => `<input type="hidden" name="csrf_token" value="${b64url(43)}">`, 'csrf-token'],
  [() => `csrf_token = "${hex(40)}"`, 'csrf-token'],
  [() => `api_key_id: "${lowerAlnum(20)}"\napi_key_name: ci-deployer`, 'key-metadata'],
  [() => `"access_token": "[REDACTED]",\n"refresh_token": "<redacted>"`, 'redacted'],
  [() => `apiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQ=\n  username: YWRtaW4=`, 'k8s-docs-secret'],
  [() => `export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE`, 'aws-docs-example'],
  [() => `api_key: "123e4567-e89b-12d3-a456-426614174000"`, 'docs-uuid'],
  [() => `token_endpoint_auth_method: client_secret_basic\ntoken_url: https://auth.acme.io/oauth/token`, 'oauth-config'],
  [() => `secret_version = ${digits(2)}\nsecret_rotation_days = 90`, 'secret-metadata'],
  [() => `docker login -u deployer --password-stdin < ~/.docker-token`, 'stdin-password'],
];
for (let i = 0; i < 60; i++) {
  const [gen, kind] = hardNegatives[i % hardNegatives.length]!;
  neg(gen(), kind, 'secret keyword or shape in innocent use (hard negative)');
}

// ---------------------------------------------------------------- write
const out = cases.map((c, i) => JSON.stringify({ id: `sec-${String(i + 1).padStart(4, '0')}`, ...c })).join('\n') + '\n';
writeFileSync(fileURLToPath(new URL('./secrets.jsonl', import.meta.url)), out);
const pos = cases.filter((c) => c.positive).length;
console.log(`kinds ${K.length}, cases ${cases.length}: ${pos} positive, ${cases.length - pos} negative`);
