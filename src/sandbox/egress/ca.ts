// The per-sandbox certificate authority that lets the egress proxy terminate TLS to a credentialed endpoint
// (and only to those): the proxy answers the sandbox's TLS handshake with a certificate for the endpoint's host
// issued by this CA, which the sandbox trusts through NODE_EXTRA_CA_CERTS / SSL_CERT_FILE. The CA's private key
// lives in the gateway's memory only and dies with the session; only its certificate is written, into the
// sandbox's egress folder. X.509 building is node-forge's; keys come from Node's crypto (forge's own RSA key
// generation is pure JavaScript and takes seconds). One leaf key serves every host of the session; it is made at
// the first terminated connection, not at start: every sandbox with a network gets a CA (model traffic to a
// provider is terminated to reach the guardrail proxy) and most sessions never need the second RSA key.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import forge from 'node-forge';
import { SANDBOX_EGRESS_LIMITS } from './limits.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function rsaPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privatePem: privateKey, publicPem: publicKey };
}

function serial(): string {
  // A positive 16-byte serial (the high bit clear).
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

export class SandboxCA {
  /** The CA certificate (PEM): what the sandbox trusts. */
  readonly certPem: string;
  readonly #caKey: forge.pki.rsa.PrivateKey;
  readonly #caCert: forge.pki.Certificate;
  #leaf: { privatePem: string; publicKey: forge.pki.rsa.PublicKey } | undefined;
  readonly #contexts = new Map<string, SecureContext>();

  constructor(sandbox: string) {
    const ca = rsaPair();
    this.#caKey = forge.pki.privateKeyFromPem(ca.privatePem);
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(ca.publicPem);
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - DAY_MS);
    cert.validity.notAfter = new Date(Date.now() + 365 * DAY_MS);
    const subject = [{ name: 'commonName', value: `Warden egress CA for sandbox ${sandbox}` }, { name: 'organizationName', value: 'Warden' }];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(this.#caKey, forge.md.sha256.create());
    this.#caCert = cert;
    this.certPem = forge.pki.certificateToPem(cert);
  }

  #leafKey(): { privatePem: string; publicKey: forge.pki.rsa.PublicKey } {
    if (!this.#leaf) {
      const leaf = rsaPair();
      this.#leaf = { privatePem: leaf.privatePem, publicKey: forge.pki.publicKeyFromPem(leaf.publicPem) };
    }
    return this.#leaf;
  }

  /** The TLS context answering a handshake for `host` (issued once, then reused). */
  contextFor(host: string): SecureContext {
    let context = this.#contexts.get(host);
    if (context) return context;
    if (this.#contexts.size >= SANDBOX_EGRESS_LIMITS.leafCertificates) this.#contexts.delete(this.#contexts.keys().next().value!);
    context = createSecureContext(this.keyPairFor(host));
    this.#contexts.set(host, context);
    return context;
  }

  /** A fresh certificate for `host` with the session's leaf key, as PEM (a TLS server's `key` and `cert`). */
  keyPairFor(host: string): { key: string; cert: string } {
    return { key: this.#leafKey().privatePem, cert: this.#issue(host) };
  }

  #issue(host: string): string {
    const cert = forge.pki.createCertificate();
    cert.publicKey = this.#leafKey().publicKey;
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - DAY_MS);
    cert.validity.notAfter = new Date(Date.now() + 30 * DAY_MS);
    cert.setSubject([{ name: 'commonName', value: host }]);
    cert.setIssuer(this.#caCert.subject.attributes);
    const altName = isIP(host) ? { type: 7, ip: host } : { type: 2, value: host };
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [altName] },
    ]);
    cert.sign(this.#caKey, forge.md.sha256.create());
    return forge.pki.certificateToPem(cert);
  }
}
