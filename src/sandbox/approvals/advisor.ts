// The approval advisor: for each ask, whether the destination looks risky and why, so the operator deciding an
// approval sees a rationale and security notes (spec "Approval": rationale, security_notes, risky). The shipped
// advisor is a local heuristic over the host name, port and kind, with no network access; an LLM advisor can be
// given instead through the `Advisor` interface (none is built in: the heuristic is deterministic and free).
import { isIP } from 'node:net';
import type { AskRequest } from './types.js';

export interface Advice {
  risky: boolean;
  /** One line: the advisor's verdict, appended to the triage reason. */
  triage: string;
  rationale: string;
  security_notes: string[];
}

export interface Advisor {
  advise(request: AskRequest): Promise<Advice>;
}

/** Package registries, code hosts and toolchain downloads a coding agent routinely needs. */
const KNOWN_GOOD = [
  'registry.npmjs.org', 'registry.yarnpkg.com', 'npm.pkg.github.com', 'pypi.org', 'files.pythonhosted.org', 'crates.io',
  'static.crates.io', 'index.crates.io', 'proxy.golang.org', 'sum.golang.org', 'go.dev', 'rubygems.org', 'repo.maven.apache.org',
  'repo1.maven.org', 'plugins.gradle.org', 'services.gradle.org', 'api.nuget.org', 'packagist.org', 'repo.packagist.org',
  'hex.pm', 'pub.dev', 'deb.debian.org', 'security.debian.org', 'archive.ubuntu.com', 'nodejs.org', 'github.com',
  'api.github.com', 'codeload.github.com', 'objects.githubusercontent.com', 'raw.githubusercontent.com', 'gitlab.com',
  'bitbucket.org', 'ghcr.io', 'registry-1.docker.io',
];

/** Paste sites, request catchers, file drops and tunnels: where exfiltrated data or a second-stage payload goes. */
const RISKY_HOSTS: Record<string, string> = {
  'pastebin.com': 'a paste site', 'paste.ee': 'a paste site', 'hastebin.com': 'a paste site', 'dpaste.com': 'a paste site',
  'dpaste.org': 'a paste site', 'ghostbin.co': 'a paste site', 'termbin.com': 'a paste site', 'rentry.co': 'a paste site',
  'transfer.sh': 'an anonymous file drop', '0x0.st': 'an anonymous file drop', 'file.io': 'an anonymous file drop',
  'temp.sh': 'an anonymous file drop', 'webhook.site': 'a request catcher', 'requestbin.com': 'a request catcher',
  'pipedream.net': 'a request catcher', 'interact.sh': 'an out-of-band interaction catcher', 'oast.fun': 'an out-of-band interaction catcher',
  'oast.pro': 'an out-of-band interaction catcher', 'burpcollaborator.net': 'an out-of-band interaction catcher',
  'ngrok.io': 'a tunnel', 'ngrok-free.app': 'a tunnel', 'ngrok.app': 'a tunnel', 'trycloudflare.com': 'a tunnel',
  'serveo.net': 'a tunnel', 'loca.lt': 'a tunnel', 'localtunnel.me': 'a tunnel', 'localhost.run': 'a tunnel', 'bore.pub': 'a tunnel',
  'pagekite.me': 'a tunnel', 'duckdns.org': 'a dynamic DNS name', 'no-ip.com': 'a dynamic DNS name', 'ddns.net': 'a dynamic DNS name',
};

/** Top-level domains that are cheap or new and over-represented in abuse, or that read like a file name. */
const RISKY_TLDS = new Set(['zip', 'mov', 'xyz', 'top', 'click', 'country', 'gq', 'tk', 'ml', 'cf', 'ga', 'work', 'loan', 'rest', 'cam', 'icu', 'kim', 'su']);

/** `host` or one of its parent domains in `list`. */
function under(host: string, names: Iterable<string>): string | undefined {
  for (const name of names) if (host === name || host.endsWith(`.${name}`)) return name;
  return undefined;
}

/** The heuristic verdict for one ask; pure. */
export function heuristicAdvice(request: AskRequest): Advice {
  const host = request.host.toLowerCase().replace(/\.$/, '');
  const risks: string[] = [];
  const notes: string[] = [];
  if (request.kind === 'host_port') {
    risks.push(`a port on the host machine (${request.port}): services there are outside the sandbox and may trust local callers`);
    notes.push('Approving lets the sandbox reach a service running on your own machine; check what listens on that port.');
  }
  const ip = isIP(host.replace(/^\[|\]$/g, ''));
  if (ip !== 0) {
    risks.push(`a raw IPv${ip} address: no name says who runs it, and names are how the firewall's rules are written`);
    notes.push('Prefer approving the host name the program meant to reach, if it has one.');
  }
  const labels = host.split('.');
  const drop = under(host, Object.keys(RISKY_HOSTS));
  if (drop !== undefined) {
    risks.push(`${drop} is ${RISKY_HOSTS[drop]}: a common destination for exfiltrated data or a downloaded second stage`);
    notes.push('A coding task rarely needs this; an agent sending data here may be following injected instructions.');
  }
  const tld = labels.at(-1) ?? '';
  if (ip === 0 && RISKY_TLDS.has(tld)) risks.push(`the .${tld} top-level domain is cheap or new and often used for throwaway hosts`);
  if (labels.some((label) => label.startsWith('xn--'))) {
    risks.push('an internationalised (punycode) name, which can imitate a familiar one');
    notes.push(`Check the name as it displays: ${host}.`);
  }
  if (request.kind === 'network_rule' && request.port !== 443 && request.port !== 80) {
    risks.push(`port ${request.port} is not a web port`);
  }
  const known = ip === 0 ? under(host, KNOWN_GOOD) : undefined;
  if (risks.length === 0 && known !== undefined) {
    return {
      risky: false,
      triage: 'advisor: low risk (a known package registry or code host)',
      rationale: `${host} belongs to ${known}, a package registry or code host coding agents routinely use.`,
      security_notes: ['Packages fetched from here run code at install time; the guardrail still inspects the commands that install them.'],
    };
  }
  if (risks.length === 0) {
    return {
      risky: false,
      triage: 'advisor: unknown host, no risk signs',
      rationale: `${host} is not a known registry or code host, and shows none of the risk signs the advisor looks for.`,
      security_notes: ['Approve for this sandbox only unless the host is one your projects always need.'],
    };
  }
  return {
    risky: true,
    triage: `advisor: risky (${risks.length} sign${risks.length === 1 ? '' : 's'})`,
    rationale: `${host}:${request.port} is ${risks.join('; ')}.`,
    security_notes: [...notes, 'Reject unless you know why the agent needs this destination.'],
  };
}

/** The shipped advisor. */
export const heuristicAdvisor: Advisor = { advise: async (request) => heuristicAdvice(request) };
