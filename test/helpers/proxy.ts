// A gateway whose guardrail proxy forwards to local mock providers: `openai` as llm.base_url and as a
// registered custom provider (Bearer credentials), `anthropic` as a custom provider taking x-api-key.
import { startInProcess, type InProcessGateway } from './gateway.js';
import { startMockLlm, type MockLlm } from './mock-llm.js';

export interface ProxyFixture {
  gateway: InProcessGateway;
  proxy: string;
  token: string;
  openai: MockLlm;
  anthropic: MockLlm;
  /** Headers that authenticate to the proxy with the gateway token. */
  auth: Record<string, string>;
  close(): Promise<void>;
}

export function proxyConfig(openai: MockLlm, anthropic: MockLlm, options: { mode?: 'action' | 'observe'; timeoutMs?: number } = {}): string {
  return `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
  mode: ${options.mode ?? 'action'}
llm:
  base_url: ${openai.url}
  models: [gpt-mock, gpt-mock-mini]
  timeout_ms: ${options.timeoutMs ?? 2000}
llm_providers:
  custom:
    - name: mock-openai
      domains: ["127.0.0.1:${openai.port}"]
    - name: mock-anthropic
      domains: ["127.0.0.1:${anthropic.port}"]
      auth_header: x-api-key
`;
}

export async function startProxyFixture(options: { mode?: 'action' | 'observe'; timeoutMs?: number } = {}): Promise<ProxyFixture> {
  const openai = await startMockLlm();
  const anthropic = await startMockLlm();
  const gateway = await startInProcess(proxyConfig(openai, anthropic, options));
  return {
    gateway,
    proxy: gateway.gateway.proxyUrl,
    token: gateway.token,
    openai,
    anthropic,
    auth: { 'x-warden-auth': `Bearer ${gateway.token}` },
    async close() {
      await gateway.close();
      await openai.close();
      await anthropic.close();
    },
  };
}
