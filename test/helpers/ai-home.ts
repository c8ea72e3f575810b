// A home folder with AI in use, for the discovery tests: agents' folders (Claude Code, Codex, Gemini CLI), their
// MCP configurations, editor extensions (AI and not), project manifests of every ecosystem (and copies that must
// not count: under node_modules, behind a symbolic link out of the root), a fake Ollama on a loopback ephemeral
// port, and a running process named like an agent (a link to `sleep` called `aider`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface AiHome {
  home: string;
  projects: string;
  /** A folder outside the home that a link inside the projects points at. */
  outside: string;
  ollamaPort: number;
  /** The pid of the `aider` process. */
  aiderPid: number;
  close(): Promise<void>;
}

export const SECRET_KEY_VALUE = 'sk-test-value-that-must-never-be-reported-1234567890';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export async function aiHome(): Promise<AiHome> {
  const home = mkdtempSync(join(tmpdir(), 'warden-ai-home-'));
  const outside = mkdtempSync(join(tmpdir(), 'warden-ai-outside-'));
  const projects = join(home, 'code');
  mkdirSync(join(home, '.claude', 'skills'), { recursive: true });
  write(join(home, '.claude.json'), JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] } } }));
  write(join(home, '.codex', 'config.toml'), '[mcp_servers.docs]\nurl = "https://mcp.example.com/v1/sse?api_key=hidden-query"\n');
  write(join(home, '.gemini', 'settings.json'), '{ // Gemini CLI\n "theme": "dark" }\n');
  for (const ext of ['github.copilot-1.250.0', 'anthropic.claude-code-2.0.1-linux-x64', 'ms-python.python-2024.1.0']) {
    mkdirSync(join(home, '.vscode', 'extensions', ext), { recursive: true });
  }
  write(join(projects, 'web', 'package.json'), JSON.stringify({ dependencies: { openai: '^4.0.0', react: '18.0.0' }, devDependencies: { '@anthropic-ai/sdk': '0.30.0' } }));
  write(join(projects, 'web', 'node_modules', 'dep', 'package.json'), JSON.stringify({ dependencies: { langchain: '1.0.0' } }));
  write(join(projects, 'py', 'requirements.txt'), '# tools\nopenai==1.2.0\nAnthropic[bedrock]>=0.3 ; python_version > "3.8"\nrequests\n-r other.txt\n');
  write(join(projects, 'py', 'pyproject.toml'), '[project]\nname = "x"\ndependencies = ["langchain_core>=0.1", "numpy"]\n');
  write(join(projects, 'svc', 'go.mod'), 'module example.com/svc\n\ngo 1.22\n\nrequire (\n\tgithub.com/sashabaranov/go-openai v1.20.0\n\tgithub.com/cohere-ai/cohere-go/v2 v2.8.0 // indirect\n)\n');
  write(join(projects, 'rs', 'Cargo.toml'), '[package]\nname = "rs"\n\n[dependencies]\nasync-openai = "0.20"\nserde = "1"\n');
  write(join(projects, 'app', '.mcp.json'), JSON.stringify({ mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] } } }));
  write(join(outside, 'package.json'), JSON.stringify({ dependencies: { ollama: '0.5.0' } }));
  symlinkSync(outside, join(projects, 'linked'));

  const ollama: Server = createServer((request, response) => {
    if (request.url === '/api/tags') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ models: [{ name: 'llama3.2:1b' }, { name: 'qwen2.5-coder:7b' }] }));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));

  const bin = join(home, 'bin');
  mkdirSync(bin);
  symlinkSync('/bin/sleep', join(bin, 'aider'));
  const aider: ChildProcess = spawn(join(bin, 'aider'), ['300'], { stdio: 'ignore' });

  return {
    home, projects, outside, ollamaPort: (ollama.address() as AddressInfo).port, aiderPid: aider.pid!,
    async close() {
      aider.kill('SIGKILL');
      await new Promise<void>((resolve) => ollama.close(() => resolve()));
      rmSync(home, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}
