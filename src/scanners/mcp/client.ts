// Speaking MCP to a remote server with the official SDK client over Streamable HTTP: initialise, then list its
// tools, prompts and resources (following pages, bounded). One deadline covers the whole conversation, so a
// slow or silent server cannot hold a scan; the session is closed whatever happens.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WardenError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { SCANNER_LIMITS } from '../limits.js';

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string }[];
}
export interface McpResource {
  name: string;
  uri: string;
  title?: string;
  description?: string;
}

export interface McpListing {
  server?: { name: string; version: string };
  instructions?: string;
  tools: McpTool[];
  prompts: McpPrompt[];
  resources: McpResource[];
  /** Lists cut at the page or item limit. */
  truncated: string[];
}

/** The server could not be reached, did not speak MCP, or took longer than the time limit. */
export class McpUnreachable extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SCAN_MCP_UNREACHABLE', message, { statusCode: 502 });
  }
}

type Page<T> = { items: T[]; nextCursor?: string };

async function listAll<T>(what: string, fetchPage: (cursor?: string) => Promise<Page<T>>, truncated: string[]): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < SCANNER_LIMITS.mcpListPages; page++) {
    const answer = await fetchPage(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (!cursor) return items.slice(0, SCANNER_LIMITS.mcpMaxItems);
    if (items.length >= SCANNER_LIMITS.mcpMaxItems) break;
  }
  truncated.push(what);
  return items.slice(0, SCANNER_LIMITS.mcpMaxItems);
}

/** `headers`: what the agent's configuration sends to this server (its API key, say). */
export async function listServer(url: URL, timeoutMs = SCANNER_LIMITS.mcpTimeoutMs, headers: Record<string, string> = {}): Promise<McpListing> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const client = new Client({ name: 'warden-mcp-scanner', version: VERSION }, { capabilities: {} });
  const options = () => ({ signal: deadline, timeout: timeoutMs });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }), options());
    const capabilities = client.getServerCapabilities() ?? {};
    const truncated: string[] = [];
    const tools = capabilities.tools
      ? await listAll('tools', async (cursor) => {
          const answer = await client.listTools(cursor ? { cursor } : undefined, options());
          return { items: answer.tools as McpTool[], nextCursor: answer.nextCursor };
        }, truncated)
      : [];
    const prompts = capabilities.prompts
      ? await listAll('prompts', async (cursor) => {
          const answer = await client.listPrompts(cursor ? { cursor } : undefined, options());
          return { items: answer.prompts as McpPrompt[], nextCursor: answer.nextCursor };
        }, truncated)
      : [];
    const resources = capabilities.resources
      ? await listAll('resources', async (cursor) => {
          const answer = await client.listResources(cursor ? { cursor } : undefined, options());
          return { items: answer.resources as McpResource[], nextCursor: answer.nextCursor };
        }, truncated)
      : [];
    const version = client.getServerVersion();
    const instructions = client.getInstructions();
    return {
      ...(version ? { server: { name: version.name, version: version.version } } : {}),
      ...(instructions ? { instructions } : {}),
      tools, prompts, resources, truncated,
    };
  } catch (err) {
    if (deadline.aborted) throw new McpUnreachable(`${url.origin} did not answer within ${timeoutMs} ms`);
    throw new McpUnreachable(`${url.origin}${url.pathname}: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}
