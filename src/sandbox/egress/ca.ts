// The per-sandbox certificate authority that lets the egress proxy terminate TLS to a credentialed endpoint
// (and only to those): the proxy answers the sandbox's TLS handshake with a certificate for the endpoint's host
// issued by this CA, which the sandbox trusts through NODE_EXTRA_CA_CERTS / SSL_CERT_FILE. The CA's private key
// lives in the gateway's memory only and dies with the session; only its certificate is written, into the
// sandbox's egress folder. X.509 building is node-forge's; keys come from Node's crypto (forge's own RSA key
// generation is pure JavaScript and takes seconds), and so do signatures (forge's RSA signing is pure JavaScript
// too: 24 ms a certificate against about 1 ms here). One leaf key serves every host of the session; it is made at
// the first terminated connection, not at start: every sandbox with a network gets a CA (model traffic to a
// provider is terminated to reach the guardrail proxy) and most sessions never need the second RSA key.
import { constants, createPrivateKey, generateKeyPair, generateKeyPairSync, privateEncrypt, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import forge from 'node-forge';
import { SANDBOX_EGRESS_LIMITS } from './limits.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface KeyPair {
  privatePem: string;
  publicPem: string;
}

const RSA_OPTIONS = {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
} as const;

/**
 * One key pair made ahead, off the event loop (Node's thread pool), once primeKeys() was called: an RSA key takes
 * 60-100 ms of CPU, which every sandbox start would otherwise wait for (and block the gateway during). Measured:
 * a policed sandbox's create+start went from about 185 ms to about 305 ms at the median with the key made in line.
 */
let spare: KeyPair | undefined;
let refilling = false;
let primed = false;

function refill(): void {
  if (!primed || spare || refilling) return;
  refilling = true;
  generateKeyPair('rsa', RSA_OPTIONS, (err, publicKey, privateKey) => {
    refilling = false;
    if (!err) spare = { privatePem: privateKey, publicPem: publicKey };
  });
}

/** Keep one key pair ready from now on (the egress proxy calls it: a process that only imports this makes none). */
export function primeKeys(): void {
  primed = true;
  refill();
}

function rsaPair(): KeyPair {
  const ready = spare;
  spare = undefined;
  refill();
  if (ready) return ready;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', RSA_OPTIONS);
  return { privatePem: privateKey, publicPem: publicKey };
}

/** DER prefix of a SHA-256 DigestInfo (RFC 8017 section 9.2): what PKCS #1 v1.5 signs, followed by the digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** A signer with the shape forge's `certificate.sign` calls (`sign(md)`), computed by Node's native RSA. */
function nativeSigner(privatePem: string): forge.pki.rsa.PrivateKey {
  const key = createPrivateKey(privatePem);
  const sign = (md: forge.md.MessageDigest): string => {
    const digest = Buffer.from(md.digest().getBytes(), 'binary');
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest])).toString('binary');
  };
  return { sign } as unknown as forge.pki.rsa.PrivateKey;
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
    this.#caKey = nativeSigner(ca.privatePem);
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
