// A real MCP server for scanner tests: the official SDK's McpServer behind its Streamable HTTP transport
// (stateless: a fresh server per request), on an ephemeral loopback port. Its tools, prompts and resources
// are read from `spec` at every request, so a test can change them between two scans (a rug pull).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface McpSpec {
  tools: { name: string; description: string }[];
  /** When set, requests without `authorization: Bearer <token>` are answered 401. */
  token?: string;
  prompts?: { name: string; description: string }[];
  resources?: { name: string; uri: string; description: string }[];
}

export interface TestMcpServer {
  url: string;
  spec: McpSpec;
  /** Requests answered so far (a scan that never connects leaves it at 0). */
  requests: number;
  close(): Promise<void>;
}

function buildServer(spec: McpSpec): McpServer {
  const server = new McpServer({ name: 'test-mcp', version: '1.0.0' });
  for (const tool of spec.tools) server.registerTool(tool.name, { description: tool.description }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  for (const prompt of spec.prompts ?? []) server.registerPrompt(prompt.name, { description: prompt.description }, () => ({ messages: [] }));
  for (const resource of spec.resources ?? []) {
    server.registerResource(resource.name, resource.uri, { description: resource.description }, async (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
  }
  return server;
}

export async function startMcpServer(spec: McpSpec): Promise<TestMcpServer> {
  const state = { spec, requests: 0 };
  const http: Server = createServer((req, res) => {
    state.requests++;
    if (state.spec.token !== undefined && req.headers.authorization !== `Bearer ${state.spec.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const server = buildServer(state.spec);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        await transport.handleRequest(req, res, body);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get spec() {
      return state.spec;
    },
    set spec(next: McpSpec) {
      state.spec = next;
    },
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
